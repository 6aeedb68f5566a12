# The shared part of Ember's bare-metal Cortex-M toolchains: Debian's
# arm-none-eabi GCC 12 with picolibc, semihosting for I/O and exit, -Os,
# no exceptions, no RTTI, no unwind tables, dead code dropped at link.
# cmake/arm-none-eabi-cortex-m4.cmake and -cortex-m55.cmake set
# EMBER_CORTEX_M_CPU and EMBER_CORTEX_M_CPU_FLAGS, then include this file.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

find_program(EMBER_ARM_GCC arm-none-eabi-gcc REQUIRED)
find_program(EMBER_ARM_GXX arm-none-eabi-g++ REQUIRED)
set(CMAKE_C_COMPILER ${EMBER_ARM_GCC})
set(CMAKE_CXX_COMPILER ${EMBER_ARM_GXX})
find_program(EMBER_ARM_SIZE arm-none-eabi-size REQUIRED)
# There is no OS to run a test executable on while configuring.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# Programs (flatc, qemu, python) are the host's; nothing else is searched for.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(EMBER_BAREMETAL ON CACHE BOOL "Build for a microcontroller without an OS" FORCE)
set(EMBER_BUILD_TESTS OFF CACHE BOOL "" FORCE)
set(EMBER_BUILD_PYTHON OFF CACHE BOOL "" FORCE)

# picolibc (its specs put its headers and libraries first); each function
# and object in its own section so that --gc-sections drops what nothing uses.
set(_ember_cm_common "${EMBER_CORTEX_M_CPU_FLAGS} -mthumb -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_ember_cm_common} --specs=picolibc.specs")
# One thread, no exceptions: no guards around local statics, no unwind tables.
set(CMAKE_CXX_FLAGS_INIT "${_ember_cm_common} --specs=picolibcpp.specs -fno-exceptions -fno-rtti \
-fno-unwind-tables -fno-asynchronous-unwind-tables -fno-threadsafe-statics")
# Everything at -Os (MinSizeRel) unless the build asks otherwise.
set(CMAKE_BUILD_TYPE MinSizeRel CACHE STRING "Debug, Release, RelWithDebInfo or MinSizeRel")
# The board's startup file (targets/cortex-m/startup.cpp) replaces
# picolibc's crt0; the semihosting library gives write and exit.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostartfiles --oslib=semihost -Wl,--gc-sections")
# Kernel libraries register their kernels at static init and are linked
# whole-archive; CMake knows how only for the OSes it knows, so say it here.
set(CMAKE_LINK_LIBRARY_USING_WHOLE_ARCHIVE
    "LINKER:--whole-archive" "<LINK_ITEM>" "LINKER:--no-whole-archive")
set(CMAKE_LINK_LIBRARY_USING_WHOLE_ARCHIVE_SUPPORTED TRUE)
