# Toolchain for building Ember as WebAssembly with Debian's Emscripten (3.1.6)
# and running its tests under Node:
#   cmake -S . -B build/wasm -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/emscripten.cmake
# It wraps Emscripten's own toolchain file and adds what the tree needs:
# nothing fetched (the system libraries must come from Emscripten's prebuilt
# cache), the host's header-only flatbuffers, and Node as the emulator.
find_program(EMBER_EMCC emcc REQUIRED)
get_filename_component(_ember_emcc "${EMBER_EMCC}" REALPATH)
get_filename_component(_ember_em_root "${_ember_emcc}" DIRECTORY)
if(NOT EXISTS "${_ember_em_root}/cmake/Modules/Platform/Emscripten.cmake")
  set(_ember_em_root /usr/share/emscripten)
endif()
set(EMSCRIPTEN_ROOT_PATH "${_ember_em_root}" CACHE PATH "Emscripten's root")
include("${EMSCRIPTEN_ROOT_PATH}/cmake/Modules/Platform/Emscripten.cmake")

# em++'s JavaScript optimizer (at link time) needs acorn, which Debian
# installs outside Node's default search path (node-acorn): every link runs
# with NODE_PATH pointing there.
if(EXISTS /usr/share/nodejs/acorn)
  set(ENV{NODE_PATH} /usr/share/nodejs)
  set(CMAKE_CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=/usr/share/nodejs")
  set(CMAKE_C_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=/usr/share/nodejs")
endif()
# A build must never download: Emscripten builds a missing system library
# into its cache, and fetches ports, unless the cache is frozen. Debian's is
# frozen and holds every library (-mt ones included); any other Emscripten
# must be configured so too (FROZEN_CACHE = True, or EM_FROZEN_CACHE=1).
set(_ember_em_config "${EMSCRIPTEN_ROOT_PATH}/.emscripten")
if(DEFINED ENV{EM_CONFIG})
  set(_ember_em_config "$ENV{EM_CONFIG}")
endif()
set(_ember_frozen OFF)
if("$ENV{EM_FROZEN_CACHE}" MATCHES "^(1|True|true)$")
  set(_ember_frozen ON)
elseif(EXISTS "${_ember_em_config}")
  file(STRINGS "${_ember_em_config}" _ember_frozen_line REGEX "^FROZEN_CACHE *= *True")
  if(_ember_frozen_line)
    set(_ember_frozen ON)
  endif()
endif()
if(NOT _ember_frozen)
  message(FATAL_ERROR "Emscripten's cache is not frozen (${_ember_em_config} lacks FROZEN_CACHE = "
                      "True): a build could download or build system libraries. Set EM_FROZEN_CACHE=1 "
                      "once its cache holds them.")
endif()

# flatbuffers is header-only and portable, but the host's /usr/include must
# not be searched as a whole (its libc headers would shadow Emscripten's):
# the tree finds it through a folder holding only flatbuffers/.
set(EMBER_WASM_HOST_INCLUDE "${CMAKE_BINARY_DIR}/host-include")
if(NOT EXISTS "${EMBER_WASM_HOST_INCLUDE}/flatbuffers" AND EXISTS /usr/include/flatbuffers)
  file(MAKE_DIRECTORY "${EMBER_WASM_HOST_INCLUDE}")
  file(CREATE_LINK /usr/include/flatbuffers "${EMBER_WASM_HOST_INCLUDE}/flatbuffers" SYMBOLIC)
endif()
set(FLATBUFFERS_INCLUDE_DIR "${EMBER_WASM_HOST_INCLUDE}" CACHE PATH "flatbuffers headers")

# Node runs the test binaries (ctest, gtest_discover_tests). Emscripten
# 3.1.6's loader fetches the .wasm with Node's fetch, which cannot read paths.
find_program(EMBER_NODE node REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR "${EMBER_NODE};--no-experimental-fetch"
    CACHE STRING "Runs wasm programs" FORCE)
