// Prepended to the module Emscripten makes (--extern-pre-js), at the top
// level of the ES module. Emscripten 3.1.6's ES6 output still reaches for
// CommonJS names when it runs under Node (require, __dirname, __filename),
// which an ES module does not have: these give them to it. Browsers skip
// every line (the imports are dynamic and guarded).
const EMBER_IS_NODE = typeof process == 'object' && typeof process.versions == 'object' &&
    typeof process.versions.node == 'string';
const require = EMBER_IS_NODE ? (await import('module')).createRequire(import.meta.url) : undefined;
const __filename = EMBER_IS_NODE ? (await import('url')).fileURLToPath(import.meta.url) : undefined;
const __dirname = EMBER_IS_NODE ? require('path').dirname(__filename) : undefined;
