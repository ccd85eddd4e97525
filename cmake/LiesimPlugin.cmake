# liesim_add_plugin(NAME [C] SOURCES src... [LIBRARIES lib...] [OUTPUT_DIRECTORY dir]
#                   [INSTALL_DESTINATION dir | NO_INSTALL])
#
# A run-time loadable model or integrator plugin, used in this tree and by third parties through
# find_package(liesim CONFIG) (this file is installed beside liesimConfig.cmake). It
#  * builds MODULE library liesim_NAME.so against the plugin SDK (liesim::sdk: header-only, the C
#    boundary liesim/plugin.h and its C++ adapters), compiled as C++20; nothing of the kernel is
#    linked, so any compiler that targets the platform's C ABI will do; with C, a plugin written
#    in C (C99) against liesim::c_sdk instead: liesim/plugin.h and liesim/lie.h, whose Lie group
#    functions it links from the kernel library (find_package(liesim COMPONENTS c_sdk) suffices);
#  * hides every symbol but the entry point `liesim_plugin_entry` (hidden visibility, inline too);
#  * puts the plugin into OUTPUT_DIRECTORY, else ${LIESIM_PLUGIN_OUTPUT_DIR} when set (this tree:
#    build/lib/liesim/plugins, beside bin/liesim), else ${CMAKE_BINARY_DIR}/plugins — the folder
#    to put into LIESIM_PLUGIN_PATH or --plugin-path;
#  * writes the manifest liesim_NAME.json beside it (`liesim manifest`, run after each build), by
#    which liesim finds the plugin's methods without loading it;
#  * installs both into INSTALL_DESTINATION, else lib/liesim/plugins (beside an installed
#    `liesim`, which finds them without LIESIM_PLUGIN_PATH when both share the prefix); NO_INSTALL
#    skips the install rule.
include_guard(GLOBAL)
include(GNUInstallDirs)

# The ABI version of the headers: read from liesim/plugin.h (the single source of truth).
if(NOT DEFINED LIESIM_PLUGIN_HEADER)
  set(LIESIM_PLUGIN_HEADER ${CMAKE_CURRENT_LIST_DIR}/../framework/include/liesim/plugin.h)
endif()
if(NOT EXISTS ${LIESIM_PLUGIN_HEADER})
  message(FATAL_ERROR "LiesimPlugin.cmake: liesim/plugin.h not found at ${LIESIM_PLUGIN_HEADER}")
endif()
file(STRINGS ${LIESIM_PLUGIN_HEADER} _liesim_abi_lines REGEX "^#define LIESIM_ABI_(MAJOR|MINOR) [0-9]+")
foreach(_line IN LISTS _liesim_abi_lines)
  if(_line MATCHES "^#define LIESIM_ABI_(MAJOR|MINOR) ([0-9]+)")
    set(LIESIM_ABI_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endif()
endforeach()
if(NOT DEFINED LIESIM_ABI_MAJOR OR NOT DEFINED LIESIM_ABI_MINOR)
  message(FATAL_ERROR "LiesimPlugin.cmake: no LIESIM_ABI_MAJOR/MINOR in ${LIESIM_PLUGIN_HEADER}")
endif()
set(LIESIM_ABI_VERSION ${LIESIM_ABI_MAJOR}.${LIESIM_ABI_MINOR})
unset(_liesim_abi_lines)
unset(_line)

# liesim_static_runtime(TARGET): link libstdc++ and libgcc into TARGET statically, their symbols
# hidden (-Wl,--exclude-libs,ALL), unless LIESIM_STATIC_RUNTIME is defined and OFF. A process that
# loads libstdc++.so spends ~2 M instructions and ~50 page faults mapping and relocating it. For the
# command and the MPI module (framework/), not for plugins: a plugin that links a C++ shared library
# (multibody: toml++, tinyxml2) would then have two run times, and an exception thrown by one and
# caught by the other ends the process (SIGABRT); and each static copy allocates an emergency
# exception pool that a plugin's dlclose leaks (test_sundials_leaks).
function(liesim_static_runtime target)
  if((NOT DEFINED LIESIM_STATIC_RUNTIME OR LIESIM_STATIC_RUNTIME) AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_link_options(${target} PRIVATE $<$<LINK_LANGUAGE:CXX>:-static-libstdc++ -static-libgcc -Wl,--exclude-libs,ALL>)
  endif()
endfunction()

function(liesim_add_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL;C" "OUTPUT_DIRECTORY;INSTALL_DESTINATION" "SOURCES;LIBRARIES" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "liesim_add_plugin(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS} "
                        "(known: SOURCES LIBRARIES OUTPUT_DIRECTORY INSTALL_DESTINATION NO_INSTALL)")
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "liesim_add_plugin(${name}): the name must be a C identifier ([A-Za-z_][A-Za-z0-9_]*)")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "liesim_add_plugin(${name}): SOURCES is empty")
  endif()
  if(ARG_C)
    set(sdk liesim::c_sdk)
  else()
    set(sdk liesim::sdk)
  endif()
  if(NOT TARGET ${sdk})
    message(FATAL_ERROR "liesim_add_plugin(${name}): no target ${sdk}; call find_package(liesim CONFIG REQUIRED) first")
  endif()

  if(ARG_OUTPUT_DIRECTORY)
    set(out ${ARG_OUTPUT_DIRECTORY})
  elseif(LIESIM_PLUGIN_OUTPUT_DIR)
    set(out ${LIESIM_PLUGIN_OUTPUT_DIR})
  else()
    set(out ${CMAKE_BINARY_DIR}/plugins)
  endif()

  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${sdk} ${ARG_LIBRARIES})
  if(ARG_C)
    set_target_properties(${name} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON LINKER_LANGUAGE C)
  else()
    target_compile_features(${name} PRIVATE cxx_std_20)
  endif()
  set_target_properties(${name} PROPERTIES
    PREFIX "liesim_"
    CXX_EXTENSIONS OFF
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${out}
    LIESIM_ABI_VERSION ${LIESIM_ABI_VERSION})
  set_property(GLOBAL APPEND PROPERTY LIESIM_PLUGIN_TARGETS ${name})

  # The manifest beside the library: the `liesim` of this tree, or the installed one.
  if(TARGET liesim::liesim)
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND liesim::liesim manifest $<TARGET_FILE:${name}>
      COMMENT "liesim manifest for plugin ${name}" VERBATIM)
    get_target_property(imported liesim::liesim IMPORTED)
    if(NOT imported)
      add_dependencies(${name} liesim)
    endif()
  endif()

  if(NOT ARG_NO_INSTALL)
    if(ARG_INSTALL_DESTINATION)
      set(dest ${ARG_INSTALL_DESTINATION})
    elseif(DEFINED LIESIM_PLUGIN_SUBDIR)
      set(dest ${LIESIM_PLUGIN_SUBDIR})
    else()
      set(dest ${CMAKE_INSTALL_LIBDIR}/liesim/plugins)
    endif()
    install(TARGETS ${name} LIBRARY DESTINATION ${dest})
    if(TARGET liesim::liesim)
      install(FILES ${out}/liesim_${name}.json DESTINATION ${dest})
    endif()
  endif()
endfunction()
