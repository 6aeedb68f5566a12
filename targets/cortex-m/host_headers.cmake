# The runtime reads .pte files with flatbuffers' header-only reader, which
# Debian installs in the host's /usr/include. A bare-metal build must not
# put /usr/include on its include path (glibc's <stdio.h> would shadow
# picolibc's), so it sees flatbuffers through a folder of its own that
# holds only a link to it.
find_path(EMBER_HOST_FLATBUFFERS_DIR flatbuffers/flatbuffers.h
          PATHS /usr/include /usr/local/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(EMBER_FLATBUFFERS_STAGE ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${EMBER_FLATBUFFERS_STAGE})
file(CREATE_LINK ${EMBER_HOST_FLATBUFFERS_DIR}/flatbuffers ${EMBER_FLATBUFFERS_STAGE}/flatbuffers
     SYMBOLIC)
set(FLATBUFFERS_INCLUDE_DIR ${EMBER_FLATBUFFERS_STAGE} CACHE PATH
    "flatbuffers headers, seen alone (bare-metal build)" FORCE)
