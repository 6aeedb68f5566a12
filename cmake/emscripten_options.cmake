# What an Emscripten (WebAssembly) build of the tree adds, included by the
# root CMakeLists.txt when EMSCRIPTEN is set (cmake/emscripten.cmake is the
# toolchain). Two choices are made when the module is built, not at run
# time, because a module that uses them does not even load without them:
#   EMBER_WASM_SIMD     SIMD128 everywhere (-msimd128) and the optimized
#                       families' wasmsimd.cpp variants; every engine since
#                       2021 (Chrome 91, Firefox 89, Safari 16.4, Node 16).
#   EMBER_WASM_THREADS  pthreads on a SharedArrayBuffer: the thread pool
#                       runs on Web Workers. A page needs cross-origin
#                       isolation (COOP/COEP) for it; the JavaScript API
#                       loads the single-threaded build otherwise.
include_guard(GLOBAL)
option(EMBER_WASM_SIMD "WebAssembly SIMD128 and the wasmsimd kernel variants" ON)
option(EMBER_WASM_THREADS "WebAssembly threads (pthreads on SharedArrayBuffer)" OFF)
set(EMBER_WASM_POOL_SIZE 4 CACHE STRING
    "Web Workers started with the module (the most threads a pool gets at once)")

if(EMBER_WASM_SIMD)
  add_compile_options(-msimd128)
endif()
if(EMBER_WASM_THREADS)
  add_compile_options(-pthread)
  add_link_options(-pthread "-sPTHREAD_POOL_SIZE=${EMBER_WASM_POOL_SIZE}")
endif()
# Programs grow their memory as they load models (up to wasm32's 4 GiB).
add_link_options(-sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB)

# Executables other than the JavaScript API's module (the tools, the C++
# tests) are Node programs: they read files where they lie (NODERAWFS), see
# Node's environment (node_env_pre.js) and exit when main returns, worker
# threads and all.
function(ember_wasm_node_programs directory)
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(browser ${target} EMBER_WASM_BROWSER)
    if(type STREQUAL "EXECUTABLE" AND NOT browser)
      # -O1 at link: the objects are optimized already, and binaryen's -O3
      # over a 9 MB module takes minutes per program (tests, tools).
      target_link_options(${target} PRIVATE -O1 -sNODERAWFS=1 -sEXIT_RUNTIME=1 -sENVIRONMENT=node
                          "--pre-js=${PROJECT_SOURCE_DIR}/extension/wasm/node_env_pre.js")
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    ember_wasm_node_programs(${subdir})
  endforeach()
endfunction()
