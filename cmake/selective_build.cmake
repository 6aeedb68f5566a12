# Selective builds (docs/size.md): a runtime with only what the deployed
# programs use. Any of
#   -DEMBER_SELECT_FROM="m1.pte;m2.pte"    read from the programs (ember selective)
#   -DEMBER_SELECT_YAML=selection.yaml     a selection written before
#   -DEMBER_SELECT_OPS="aten::add.out,..." operators, every dtype
# (combined: their union) selects the kernels that register, the dtypes the
# kernels compile, the backends that link and the CPU backend's ops.
#
# Sets EMBER_SELECTIVE_BUILD, EMBER_SELECTED_BACKENDS and
# EMBER_SELECTED_CPU_OPS for the rest of the build.

set(EMBER_SELECT_FROM "" CACHE STRING ".pte files whose needs a selective build keeps")
set(EMBER_SELECT_YAML "" CACHE STRING "selection files (ember selective) of a selective build")
set(EMBER_SELECT_OPS "" CACHE STRING "operators a selective build keeps, with every dtype")

set(EMBER_SELECTIVE_BUILD OFF)
if(NOT (EMBER_SELECT_FROM OR EMBER_SELECT_YAML OR EMBER_SELECT_OPS))
  return()
endif()
set(EMBER_SELECTIVE_BUILD ON)

# The interpreter that runs `ember selective`: the project's venv when there
# is one (it has ember and PyYAML), else the first python3.
if(NOT EMBER_PYTHON)
  if(EXISTS ${CMAKE_SOURCE_DIR}/.venv/bin/python)
    set(EMBER_PYTHON ${CMAKE_SOURCE_DIR}/.venv/bin/python)
  else()
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    set(EMBER_PYTHON ${Python3_EXECUTABLE})
  endif()
endif()

set(selection_files ${EMBER_SELECT_YAML})
if(EMBER_SELECT_FROM)
  set(from_yaml ${CMAKE_BINARY_DIR}/selection.yaml)
  message(STATUS "selective build: reading ${EMBER_SELECT_FROM}")
  execute_process(
    COMMAND ${EMBER_PYTHON} -m ember.selective ${EMBER_SELECT_FROM} -o ${from_yaml}
    RESULT_VARIABLE result ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "ember selective failed on ${EMBER_SELECT_FROM}:\n${error}"
                        "(EMBER_PYTHON=${EMBER_PYTHON} must have ember installed)")
  endif()
  list(APPEND selection_files ${from_yaml})
endif()
# Reconfigure when a program or selection file changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${EMBER_SELECT_FROM}
             ${EMBER_SELECT_YAML})

set(selected_header ${CMAKE_BINARY_DIR}/gen/ember_selected_kernels.h)
set(selected_cmake ${CMAKE_BINARY_DIR}/selection.cmake)
set(yaml_args)
foreach(file IN LISTS selection_files)
  list(APPEND yaml_args --yaml ${file})
endforeach()
string(REPLACE ";" "," ops_arg "${EMBER_SELECT_OPS}")
execute_process(
  COMMAND ${EMBER_PYTHON} ${CMAKE_SOURCE_DIR}/tools/gen_selected_kernels.py ${yaml_args}
          --ops "${ops_arg}" --header ${selected_header} --cmake ${selected_cmake}
  RESULT_VARIABLE result ERROR_VARIABLE error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "tools/gen_selected_kernels.py failed:\n${error}")
endif()
include(${selected_cmake})

# Every target sees the selection: the registry is sized by it, the
# registration macros consult it and the dtype switches compile only its dtypes.
add_compile_definitions(EMBER_SELECTED_KERNELS_HEADER="${selected_header}"
                        EMBER_KERNEL_DTYPES_MASK=${EMBER_SELECTED_DTYPES_MASK})
# Executor features no program of the selection uses (features.h).
foreach(feature IN LISTS EMBER_FEATURES_LEFT_OUT)
  string(TOUPPER ${feature} name)
  add_compile_definitions(EMBER_FEATURE_${name}=0)
endforeach()
message(STATUS "selective build: ${EMBER_SELECTED_NUM_OPS} operators, dtype mask "
               "${EMBER_SELECTED_DTYPES_MASK}, backends [${EMBER_SELECTED_BACKENDS}], "
               "CPU backend ops [${EMBER_SELECTED_CPU_OPS}], executor features left out "
               "[${EMBER_FEATURES_LEFT_OUT}]")
