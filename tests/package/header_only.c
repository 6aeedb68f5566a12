/* ember.h alone, compiled as C99 by tests/package/CMakeLists.txt. */
#include <ember/ember.h>

int ember_header_compiles(void) { return EMBER_ABI_VERSION_MAJOR; }
