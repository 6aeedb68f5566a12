# Bare-metal Cortex-M4 with single-precision FPU (hard float) and the DSP
# extension (SMLAD...), as on QEMU's mps2-an386 board:
#   cmake -S . -B build/cortex-m4 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi-cortex-m4.cmake
set(EMBER_CORTEX_M_CPU cortex-m4)
set(EMBER_CORTEX_M_CPU_FLAGS "-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
