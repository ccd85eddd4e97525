# A manifest beside LIBRARY that says it is the model NAME, with the library's real size.
file(SIZE ${LIBRARY} size)
get_filename_component(dir ${LIBRARY} DIRECTORY)
file(WRITE ${dir}/liesim_${NAME}.json
  "{\"liesim_manifest\": 1, \"kind\": \"model\", \"name\": \"${NAME}\", \"version\": \"1.0.0\", \"summary\": \"\", \"abi\": [2, 4], \"methods\": [], \"library_size\": ${size}}\n")
