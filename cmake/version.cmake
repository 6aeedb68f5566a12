# Ember's version, read from pyproject.toml so that the wheel, the CMake
# package and ember_version() never disagree; and the C ABI's version, read
# from include/ember/ember.h, its one home. Included where needed (variables
# are per directory, so no include guard).

file(STRINGS "${PROJECT_SOURCE_DIR}/pyproject.toml" _ember_version_line
     REGEX "^version = \"[0-9]+\\.[0-9]+\\.[0-9]+.*\"$" LIMIT_COUNT 1)
string(REGEX REPLACE "^version = \"([^\"]+)\"$" "\\1" EMBER_VERSION "${_ember_version_line}")
if(NOT EMBER_VERSION MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "cannot read the version from pyproject.toml")
endif()
string(REGEX MATCH "^[0-9]+\\.[0-9]+\\.[0-9]+" EMBER_VERSION_NUMBERS "${EMBER_VERSION}")

foreach(_part MAJOR MINOR)
  file(STRINGS "${PROJECT_SOURCE_DIR}/include/ember/ember.h" _ember_abi_line
       REGEX "^#define EMBER_ABI_VERSION_${_part} [0-9]+$")
  string(REGEX REPLACE "^.* ([0-9]+)$" "\\1" EMBER_ABI_VERSION_${_part} "${_ember_abi_line}")
endforeach()
