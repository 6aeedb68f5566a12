// --pre-js of the Node programs the wasm build makes (the tools and the C++
// tests, cmake/emscripten_options.cmake): Emscripten gives getenv() only a
// few variables of its own, so EMBER_FORCE_ISA, EMBER_CPU_FEATURES_MASK and
// the tests' variables would never arrive. This copies Node's environment
// in before main runs.
Module['preRun'] = [].concat(Module['preRun'] || [], function() {
  if (typeof ENV !== 'undefined' && typeof process === 'object') Object.assign(ENV, process.env);
});
