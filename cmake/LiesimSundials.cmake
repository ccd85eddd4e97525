# SUNDIALS 6.4 for the sundials plugin: Debian's libsundials-dev (its CMake package) when it is
# installed; otherwise Debian's run-time libraries libsundials-cvode6, -arkode5, -ida6 with the
# headers of libsundials-dev unpacked into LIESIM_SUNDIALS_HEADERS (`scripts/install-deps.sh demo`
# does that: libsundials-dev depends on PETSc, hypre, Open MPI and gfortran, about 2 GB, while the
# three libraries need only libgfortran5). SUNDIALS 6 builds the serial N_Vector, the dense matrix
# and linear solver and the nonlinear solvers into each integrator's library, so those targets
# need no library of their own.
find_package(SUNDIALS 6.4 CONFIG QUIET)
if(SUNDIALS_FOUND)
  message(STATUS "liesim: SUNDIALS ${SUNDIALS_VERSION} (libsundials-dev)")
  return()
endif()
set(LIESIM_SUNDIALS_HEADERS "${CMAKE_SOURCE_DIR}/.deps/sundials" CACHE PATH
    "unpacked libsundials-dev (its usr/include) when libsundials-dev is not installed")
find_path(LIESIM_SUNDIALS_INCLUDE_DIR sundials/sundials_config.h
          PATHS ${LIESIM_SUNDIALS_HEADERS}/usr/include ${LIESIM_SUNDIALS_HEADERS}/include NO_DEFAULT_PATH)
if(NOT LIESIM_SUNDIALS_INCLUDE_DIR)
  message(FATAL_ERROR "SUNDIALS 6.4 not found: install libsundials-dev, or run scripts/install-deps.sh demo "
                      "(the run-time libraries and the headers unpacked into ${LIESIM_SUNDIALS_HEADERS})")
endif()
file(STRINGS ${LIESIM_SUNDIALS_INCLUDE_DIR}/sundials/sundials_config.h version_line REGEX "define SUNDIALS_VERSION ")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" SUNDIALS_VERSION "${version_line}")
if(SUNDIALS_VERSION VERSION_LESS 6.4 OR SUNDIALS_VERSION VERSION_GREATER_EQUAL 7)
  message(FATAL_ERROR "SUNDIALS headers in ${LIESIM_SUNDIALS_INCLUDE_DIR} are version ${SUNDIALS_VERSION}; liesim needs 6.4")
endif()
foreach(pair cvode:6 arkode:5 ida:6)
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 name)
  list(GET pair 1 soversion)
  find_library(LIESIM_SUNDIALS_${name} NAMES libsundials_${name}.so.${soversion} sundials_${name})
  if(NOT LIESIM_SUNDIALS_${name})
    message(FATAL_ERROR "libsundials_${name}.so.${soversion} not found: install libsundials-${name}${soversion}")
  endif()
  add_library(SUNDIALS::${name}_shared SHARED IMPORTED)
  set_target_properties(SUNDIALS::${name}_shared PROPERTIES IMPORTED_LOCATION ${LIESIM_SUNDIALS_${name}}
                        IMPORTED_NO_SONAME OFF INTERFACE_INCLUDE_DIRECTORIES ${LIESIM_SUNDIALS_INCLUDE_DIR})
endforeach()
foreach(name nvecserial sunmatrixdense sunlinsoldense sunnonlinsolfixedpoint)
  add_library(SUNDIALS::${name}_shared INTERFACE IMPORTED)
  set_target_properties(SUNDIALS::${name}_shared PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${LIESIM_SUNDIALS_INCLUDE_DIR})
endforeach()
set(SUNDIALS_FOUND TRUE)
message(STATUS "liesim: SUNDIALS ${SUNDIALS_VERSION} (Debian's run-time libraries, headers from ${LIESIM_SUNDIALS_INCLUDE_DIR})")
