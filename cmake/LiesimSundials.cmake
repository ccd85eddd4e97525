# SUNDIALS 6.4 for the sundials plugin and its tests, as one target: liesim::sundials (and its
# headers' folder in LIESIM_SUNDIALS_INCLUDE_DIR).
#
# LIESIM_SUNDIALS_LIBRARIES below is the one list of the SUNDIALS libraries liesim links; the
# plugin and the tests link liesim::sundials, never a SUNDIALS:: target of their own, so a solver
# added to the list is available on both paths:
#  * Debian's libsundials-dev (its CMake package), when it is installed;
#  * otherwise (or with -DLIESIM_SUNDIALS_RUNTIME=ON, which forces this path even where
#    libsundials-dev is installed: scripts/test.sh builds the demo that way) Debian's run-time
#    libraries libsundials-cvode6, -arkode5, -ida6 with the headers of libsundials-dev unpacked into
#    LIESIM_SUNDIALS_HEADERS (`scripts/install-deps.sh demo` does that: libsundials-dev depends on
#    PETSc, hypre, Open MPI and gfortran, about 2 GB, while the three libraries need only
#    libgfortran5). SUNDIALS 6 builds the serial N_Vector, the dense matrix and linear solver and
#    the nonlinear solvers into each integrator's library, so those need no library of their own.
include_guard(GLOBAL)
option(LIESIM_SUNDIALS_RUNTIME "SUNDIALS from Debian's run-time libraries and unpacked headers, even where libsundials-dev is installed" OFF)

# NAME[:SOVERSION]: the integrators (a library of their own, with its Debian soversion) and the
# modules built into them.
set(LIESIM_SUNDIALS_LIBRARIES cvode:6 arkode:5 ida:6
    nvecserial sunmatrixdense sunlinsoldense sunnonlinsolfixedpoint sunnonlinsolnewton)

add_library(liesim_sundials INTERFACE)
add_library(liesim::sundials ALIAS liesim_sundials)

if(NOT LIESIM_SUNDIALS_RUNTIME)
  find_package(SUNDIALS 6.4 CONFIG QUIET)
  if(SUNDIALS_FOUND)
    foreach(entry ${LIESIM_SUNDIALS_LIBRARIES})
      string(REGEX REPLACE ":.*" "" name ${entry})
      if(NOT TARGET SUNDIALS::${name}_shared)
        message(FATAL_ERROR "libsundials-dev ${SUNDIALS_VERSION} has no target SUNDIALS::${name}_shared "
                            "(LIESIM_SUNDIALS_LIBRARIES in cmake/LiesimSundials.cmake)")
      endif()
      target_link_libraries(liesim_sundials INTERFACE SUNDIALS::${name}_shared)
    endforeach()
    get_target_property(LIESIM_SUNDIALS_INCLUDE_DIR SUNDIALS::arkode_shared INTERFACE_INCLUDE_DIRECTORIES)
    message(STATUS "liesim: SUNDIALS ${SUNDIALS_VERSION} (libsundials-dev)")
    return()
  endif()
  # The package is there but refused (e.g. Debian's SUNDIALSConfig.cmake needs OpenMP, which clang
  # has only with libomp-14-dev): say why instead of falling back in silence.
  if(SUNDIALS_CONSIDERED_CONFIGS)
    set(reason "${SUNDIALS_NOT_FOUND_MESSAGE}")
    if(NOT reason)
      set(reason "its version (${SUNDIALS_CONSIDERED_VERSIONS}) is not 6.4")
    endif()
    message(FATAL_ERROR "SUNDIALS' CMake package ${SUNDIALS_CONSIDERED_CONFIGS} was found but not usable: ${reason}\n"
                        "With clang, OpenMP needs libomp-14-dev (scripts/install-deps.sh installs it); "
                        "or configure with -DLIESIM_SUNDIALS_RUNTIME=ON to use the run-time libraries and unpacked headers.")
  endif()
endif()

set(LIESIM_SUNDIALS_HEADERS "${CMAKE_SOURCE_DIR}/.deps/sundials" CACHE PATH
    "unpacked libsundials-dev (its usr/include) for the run-time-library path")
find_path(LIESIM_SUNDIALS_INCLUDE_DIR sundials/sundials_config.h
          PATHS ${LIESIM_SUNDIALS_HEADERS}/usr/include ${LIESIM_SUNDIALS_HEADERS}/include NO_DEFAULT_PATH NO_CACHE)
if(NOT LIESIM_SUNDIALS_INCLUDE_DIR)
  message(FATAL_ERROR "SUNDIALS 6.4 headers not found in ${LIESIM_SUNDIALS_HEADERS}: run scripts/install-deps.sh demo "
                      "(the run-time libraries, and the headers of libsundials-dev unpacked there), or install libsundials-dev "
                      "and configure without -DLIESIM_SUNDIALS_RUNTIME=ON")
endif()
file(STRINGS ${LIESIM_SUNDIALS_INCLUDE_DIR}/sundials/sundials_config.h version_line REGEX "define SUNDIALS_VERSION ")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" SUNDIALS_VERSION "${version_line}")
if(SUNDIALS_VERSION VERSION_LESS 6.4 OR SUNDIALS_VERSION VERSION_GREATER_EQUAL 7)
  message(FATAL_ERROR "SUNDIALS headers in ${LIESIM_SUNDIALS_INCLUDE_DIR} are version ${SUNDIALS_VERSION}; liesim needs 6.4")
endif()
target_include_directories(liesim_sundials SYSTEM INTERFACE ${LIESIM_SUNDIALS_INCLUDE_DIR})
foreach(entry ${LIESIM_SUNDIALS_LIBRARIES})
  if(entry MATCHES "^([a-z]+):([0-9]+)$")
    set(name ${CMAKE_MATCH_1})
    set(soversion ${CMAKE_MATCH_2})
    find_library(LIESIM_SUNDIALS_${name} NAMES libsundials_${name}.so.${soversion} NO_CACHE)
    if(NOT LIESIM_SUNDIALS_${name})
      message(FATAL_ERROR "libsundials_${name}.so.${soversion} not found: install libsundials-${name}${soversion} "
                          "(scripts/install-deps.sh demo)")
    endif()
    target_link_libraries(liesim_sundials INTERFACE ${LIESIM_SUNDIALS_${name}})
  endif()
endforeach()
message(STATUS "liesim: SUNDIALS ${SUNDIALS_VERSION} (Debian's run-time libraries, headers from ${LIESIM_SUNDIALS_INCLUDE_DIR})")
