# liesim_add_plugin(NAME SOURCES ...): a run-time loadable model or integrator plugin.
# Hidden visibility (only the entry point is exported), output in the plugin folder, linked to
# the kernel. The ABI metadata (version numbers, build token) is compiled in by LIESIM_PLUGIN.
function(liesim_add_plugin name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE liesim::kernel ${ARG_LIBRARIES})
  set_target_properties(${name} PROPERTIES
    PREFIX "liesim_"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${LIESIM_PLUGIN_OUTPUT_DIR})
  if(DEFINED LIESIM_PLUGIN_SUBDIR)
    install(TARGETS ${name} LIBRARY DESTINATION ${LIESIM_PLUGIN_SUBDIR})
  endif()
endfunction()
