# Bare-metal Cortex-M55 with Helium (MVE, integer and float) and the
# double-precision FPU (hard float), as on QEMU's mps3-an547 board:
#   cmake -S . -B build/cortex-m55 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-cortex-m55.cmake
# (-mfloat-abi=soft would turn MVE off.)
set(EMBER_CORTEX_M_CPU cortex-m55)
set(EMBER_CORTEX_M_CPU_FLAGS "-mcpu=cortex-m55 -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
