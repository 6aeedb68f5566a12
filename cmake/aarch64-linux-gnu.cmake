# Toolchain for building Ember for 64-bit Arm Linux on an x86_64 Debian host
# (g++-aarch64-linux-gnu) and running its tests there under qemu-aarch64.
#   cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(EMBER_CROSS_TRIPLE aarch64-linux-gnu)
find_program(EMBER_CROSS_CXX ${EMBER_CROSS_TRIPLE}-g++ REQUIRED)
set(CMAKE_CXX_COMPILER ${EMBER_CROSS_CXX})
find_program(EMBER_CROSS_CC ${EMBER_CROSS_TRIPLE}-gcc)
if(EMBER_CROSS_CC)
  set(CMAKE_C_COMPILER ${EMBER_CROSS_CC})
endif()

# The target's libraries and headers live under the cross sysroot; programs
# (flatc, the emulator) are the host's.
set(EMBER_CROSS_SYSROOT /usr/${EMBER_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH ${EMBER_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Header-only dependencies (flatbuffers) are architecture independent and sit
# in the host's /usr/include, which Debian's cross compiler searches last.
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)

# ctest and gtest_discover_tests run the test binaries through this. -L points
# qemu at the target's dynamic loader and libc/libstdc++.
find_program(EMBER_QEMU qemu-${CMAKE_SYSTEM_PROCESSOR} REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${EMBER_QEMU} -L ${EMBER_CROSS_SYSROOT})
