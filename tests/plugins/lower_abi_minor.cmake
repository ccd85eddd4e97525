# cmake -DSOURCE=include -DDEST=copy -DMINOR=m -P lower_abi_minor.cmake: copy the SDK headers and
# set LIESIM_ABI_MINOR to m in the copy of liesim/plugin.h (as an older SDK's headers would say).
file(REMOVE_RECURSE ${DEST})
file(COPY ${SOURCE}/ DESTINATION ${DEST})
file(READ ${DEST}/liesim/plugin.h text)
string(REGEX REPLACE "#define LIESIM_ABI_MINOR [0-9]+" "#define LIESIM_ABI_MINOR ${MINOR}" lowered "${text}")
if(lowered STREQUAL text)
  message(FATAL_ERROR "lower_abi_minor.cmake: no '#define LIESIM_ABI_MINOR' in ${SOURCE}/liesim/plugin.h")
endif()
file(WRITE ${DEST}/liesim/plugin.h "${lowered}")
