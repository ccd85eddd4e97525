# The comparison systems built with Simbody (tests/models/simbody_systems.*), an independent
# multibody engine: a static library `liesim_simbody_systems` shared by the test
# test_multibody_simbody and the benchmark bench_multibody. Test- and benchmark-only dependency
# (Debian: libsimbody-dev); without Simbody the target does not exist and both are skipped.
include_guard(GLOBAL)
find_package(Simbody CONFIG QUIET)
if(Simbody_FOUND)
  add_library(liesim_simbody_systems STATIC ${CMAKE_SOURCE_DIR}/tests/models/simbody_systems.cpp)
  target_link_libraries(liesim_simbody_systems PUBLIC ${Simbody_LIBRARIES})
  target_include_directories(liesim_simbody_systems PUBLIC ${CMAKE_SOURCE_DIR}/tests)
  # Simbody 3.7's headers do not compile as C++20 (ambiguous rewritten operator==): its side is C++17.
  set_target_properties(liesim_simbody_systems PROPERTIES CXX_STANDARD 17 CXX_EXTENSIONS ON)
  # Debian's Simbody is built without NDEBUG, and the layout of its inline State internals depends
  # on it: code that writes a State's q and u (PinChain) must see the same layout, else the library
  # and this code disagree about StateImpl and realizeTopology crashes.
  target_compile_options(liesim_simbody_systems PRIVATE -UNDEBUG)
else()
  message(STATUS "liesim: Simbody comparisons (test_multibody_simbody, bench_multibody): no (Debian: apt-get install libsimbody-dev)")
endif()
