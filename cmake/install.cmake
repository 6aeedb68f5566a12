# Install rules and the CMake package, included at the end of the root
# CMakeLists.txt. `cmake --install <build> --component sdk` (make install)
# puts headers, the libraries and lib/cmake/ember/emberConfig.cmake under the
# prefix; the wheel gets the same under site-packages/ember/ (the Python
# extension and the tools stay in the default component, which the wheel
# installs to its own places).
#
# Imported targets (find_package(ember) then link them):
#   ember::runtime            Program, Method, the registries (runtime/)
#   ember::portable_kernels   every portable kernel, registered at start-up
#   ember::optimized_kernels  the SIMD kernels (and the portable ones)
#   ember::cpu_backend        Ember's CPU delegate, registered at start-up
#   ember::threadpool, ember::module (the C++ Module API), ember::devtools
#   ember::llm                LLM generation with the tokenizer (text_runner.h);
#                             ember::llm_runner and ember::llm_tokenizer alone
#   ember::c_api              libember.so, the C ABI (include/ember/ember.h)
# The static-registration trap: kernels and backends register from static
# initialisers, which a linker drops from a static library unless linked
# whole-archive. The targets that register are INTERFACE targets that link
# their archive through $<LINK_LIBRARY:WHOLE_ARCHIVE,...> (as the tree does),
# so an application links them as it would any library.
#
# What gets exported is found by walking the link dependencies of the
# targets below, so that libraries added or split later (selective builds)
# follow; each exported name is the target's without its ember_ prefix
# unless EMBER_EXPORT_NAMES says otherwise.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
include(${PROJECT_SOURCE_DIR}/cmake/version.cmake)

# --- targets only the package adds ---
# ember::cpu_backend: the backend plus an object that registers it at start-up.
add_library(ember_cpu_backend_autoregister STATIC
  ${PROJECT_SOURCE_DIR}/backends/cpu/runtime/autoregister/cpu_backend_autoregister.cpp)
target_link_libraries(ember_cpu_backend_autoregister PUBLIC ember_cpu_backend)
target_compile_options(ember_cpu_backend_autoregister PRIVATE ${EMBER_RUNTIME_FLAGS})
add_library(ember_cpu_backend_package INTERFACE)
target_link_libraries(ember_cpu_backend_package INTERFACE
  "$<LINK_LIBRARY:WHOLE_ARCHIVE,ember_cpu_backend_autoregister>" ember_cpu_backend)
# Applications include the runtime's headers as the tree does
# ("runtime/core/tensor.h") and need C++17.
target_compile_features(ember_runtime INTERFACE cxx_std_17)

set(EMBER_PACKAGE_ROOTS ember_module ember_devtools ember_optimized_kernels
    ember_cpu_backend_package ember_llm_text_runner ember_c)
set(EMBER_EXPORT_NAMES
  ember_cpu_backend=cpu_backend_lib
  ember_cpu_backend_package=cpu_backend
  ember_llm_text_runner=llm
  ember_c=c_api)

# --- where things go ---
if(SKBUILD_STATE STREQUAL "wheel")
  # Inside the package: CMAKE_PREFIX_PATH=$(python -m ember.sdk --prefix).
  set(EMBER_INSTALL_INCLUDEDIR ember/include)
  set(EMBER_INSTALL_LIBDIR ember/lib)
else()
  set(EMBER_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
  set(EMBER_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR})
endif()
set(EMBER_INSTALL_CMAKEDIR ${EMBER_INSTALL_LIBDIR}/cmake/ember)

# --- the exported targets: the roots and every target of ours they link ---
set(_ember_todo ${EMBER_PACKAGE_ROOTS})
set(EMBER_EXPORTED_TARGETS)
while(_ember_todo)
  list(POP_FRONT _ember_todo _target)
  if(_target IN_LIST EMBER_EXPORTED_TARGETS)
    continue()
  endif()
  list(APPEND EMBER_EXPORTED_TARGETS ${_target})
  # A static library's INTERFACE_LINK_LIBRARIES also lists its private
  # dependencies ($<LINK_ONLY:...>); a shared one's are inside it.
  get_target_property(_links ${_target} INTERFACE_LINK_LIBRARIES)
  get_target_property(_type ${_target} TYPE)
  if(_type STREQUAL "SHARED_LIBRARY")
    set(_links)
  endif()
  foreach(_item IN LISTS _links)
    # $<LINK_ONLY:a>, $<LINK_LIBRARY:WHOLE_ARCHIVE,a,b> -> a b
    string(REGEX REPLACE "\\$<LINK_ONLY:|\\$<LINK_LIBRARY:[A-Za-z_]+,|>" ";" _names "${_item}")
    string(REPLACE "," ";" _names "${_names}")
    foreach(_name IN LISTS _names)
      if(TARGET ${_name})
        get_target_property(_imported ${_name} IMPORTED)
        get_target_property(_aliased ${_name} ALIASED_TARGET)
        if(NOT _imported AND NOT _aliased)
          list(APPEND _ember_todo ${_name})
        endif()
      endif()
    endforeach()
  endforeach()
endwhile()

# The name a target of ours has in the package (ember::<name>).
function(_ember_export_name target out)
  foreach(_pair IN LISTS EMBER_EXPORT_NAMES)
    if(_pair MATCHES "^${target}=(.*)$")
      set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  string(REGEX REPLACE "^ember_" "" _name ${target})
  set(${out} ${_name} PARENT_SCOPE)
endfunction()

foreach(_target IN LISTS EMBER_EXPORTED_TARGETS)
  _ember_export_name(${_target} _name)
  set_target_properties(${_target} PROPERTIES EXPORT_NAME ${_name})
  # Paths into the source and build trees hold only while building here;
  # install(EXPORT) renames the targets an exported target links, but not
  # those inside $<LINK_LIBRARY:...>, which get their installed names here.
  foreach(_property INTERFACE_INCLUDE_DIRECTORIES INTERFACE_LINK_LIBRARIES)
    get_target_property(_items ${_target} ${_property})
    if(NOT _items)
      continue()
    endif()
    set(_rewritten)
    foreach(_item IN LISTS _items)
      if(_property STREQUAL "INTERFACE_INCLUDE_DIRECTORIES" AND NOT _item MATCHES "^\\$<")
        list(APPEND _rewritten "$<BUILD_INTERFACE:${_item}>")
      elseif(_item MATCHES "^\\$<LINK_LIBRARY:([A-Za-z_]+),([^$<>]+)>$")
        set(_feature ${CMAKE_MATCH_1})
        string(REPLACE "," ";" _names "${CMAKE_MATCH_2}")
        set(_installed)
        foreach(_name IN LISTS _names)
          if(_name IN_LIST EMBER_EXPORTED_TARGETS)
            _ember_export_name(${_name} _name)
            set(_name ember::${_name})
          endif()
          list(APPEND _installed ${_name})
        endforeach()
        list(JOIN _installed "," _installed)
        list(APPEND _rewritten "$<BUILD_INTERFACE:${_item}>"
             "$<INSTALL_INTERFACE:$<LINK_LIBRARY:${_feature},${_installed}>>")
      else()
        list(APPEND _rewritten "${_item}")
      endif()
    endforeach()
    set_target_properties(${_target} PROPERTIES ${_property} "${_rewritten}")
  endforeach()
endforeach()
target_include_directories(ember_runtime INTERFACE
  $<INSTALL_INTERFACE:${EMBER_INSTALL_INCLUDEDIR}/ember>)
set_property(TARGET ember_c PROPERTY INTERFACE_INCLUDE_DIRECTORIES
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${EMBER_INSTALL_INCLUDEDIR}>)

if(SKBUILD_STATE STREQUAL "wheel")
  # A wheel cannot hold symbolic links: one file, named by the soname.
  set_property(TARGET ember_c PROPERTY VERSION)
  set(_ember_namelink NAMELINK_SKIP)
else()
  set(_ember_namelink)
endif()
install(TARGETS ${EMBER_EXPORTED_TARGETS} EXPORT emberTargets
  ARCHIVE DESTINATION ${EMBER_INSTALL_LIBDIR} COMPONENT sdk
  LIBRARY DESTINATION ${EMBER_INSTALL_LIBDIR} COMPONENT sdk ${_ember_namelink}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT sdk)
install(EXPORT emberTargets NAMESPACE ember:: DESTINATION ${EMBER_INSTALL_CMAKEDIR}
        COMPONENT sdk)

# --- headers: the public API and what it includes ---
install(FILES ${PROJECT_SOURCE_DIR}/include/ember/ember.h
        DESTINATION ${EMBER_INSTALL_INCLUDEDIR}/ember COMPONENT sdk)
foreach(_dir runtime extension/module extension/threadpool extension/devtools
        extension/llm/runner extension/llm/sampler extension/llm/tokenizer)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_dir}/
          DESTINATION ${EMBER_INSTALL_INCLUDEDIR}/ember/${_dir} COMPONENT sdk
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/backends/cpu/runtime/cpu_backend.h
        DESTINATION ${EMBER_INSTALL_INCLUDEDIR}/ember/backends/cpu/runtime COMPONENT sdk)

# --- the tools, for a plain install (the wheel puts them on PATH itself) ---
if(NOT SKBUILD_STATE STREQUAL "wheel")
  foreach(_tool ember_run ember_llm ember_tokenize)
    if(TARGET ${_tool})
      install(TARGETS ${_tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT sdk)
    endif()
  endforeach()
endif()

# --- emberConfig.cmake and its version file ---
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/emberConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/emberConfig.cmake INSTALL_DESTINATION ${EMBER_INSTALL_CMAKEDIR})
# 0.x: a minor release may change the C++ API (the C ABI has its own version).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/emberConfigVersion.cmake
  VERSION ${EMBER_VERSION_NUMBERS} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/emberConfig.cmake
        ${PROJECT_BINARY_DIR}/cmake/emberConfigVersion.cmake
        DESTINATION ${EMBER_INSTALL_CMAKEDIR} COMPONENT sdk)
