# The fault-isolation corpus (issue 26): c_pendulum.c built once per misbehaviour, each plugin in
# a folder of its own (test_plugins_corpus/NAME/liesim_NAME.so) so that a command sees one of them
# at a time. tests/plugins/test_corpus.cpp runs each through study, run, describe, list and
# mpirun. The table is NAME FAULT (the FAULT_* numbers of c_pendulum.c).
set(corpus_dir ${CMAKE_BINARY_DIR}/test_plugins_corpus)
set(corpus_faults
  null_prepare 7 null_act_exp 8 huge_size 9 negative_size 10 bad_utf8 11 null_names 12 project_flag 13
  crash_create 14 abort_create 15 exit_create 16 hang_create 17 fork_create 18 crash_prepare 19 huge_alloc 20
  crash_step 21 exit_step 22 hang_step 23 abort_step 24 exit_load 25 hang_load 26 fork_load 27 crash_info 28
  bad_utf8_names 29 fork_step 30 crash_load 6 entry_fails 1 newer_major 2)
set(corpus_targets)
list(LENGTH corpus_faults corpus_length)
math(EXPR corpus_last "${corpus_length} - 1")
foreach(i RANGE 0 ${corpus_last} 2)
  math(EXPR j "${i} + 1")
  list(GET corpus_faults ${i} name)
  list(GET corpus_faults ${j} fault)
  c_test_plugin(corpus_${name} ${corpus_dir}/corpus_${name} ${fault})
  list(APPEND corpus_targets test_c_corpus_${name})
endforeach()
# Under the sanitizers (scripts/sanitize.sh) the corpus misbehaves as built normally: its undefined
# behaviour is deliberate (huge_alloc writes through the NULL of a failed malloc), and must reach
# the host as SIGSEGV, not as UBSan's report and exit status 1. AddressSanitizer stays on.
if(LIESIM_SANITIZE)
  foreach(t ${corpus_targets})
    target_compile_options(${t} PRIVATE -fno-sanitize=undefined)
  endforeach()
endif()
# A library that crashes at load with a current manifest beside it: the manifest must never let
# it skip the safe probe (the manifest states the library's real size, written after each build).
c_test_plugin(corpus_manifest_crash ${corpus_dir}/corpus_manifest_crash 6)
add_custom_command(TARGET test_c_corpus_manifest_crash POST_BUILD
  COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:test_c_corpus_manifest_crash> -DNAME=corpus_manifest_crash
          -P ${CMAKE_CURRENT_SOURCE_DIR}/write_manifest.cmake VERBATIM)
list(APPEND corpus_targets test_c_corpus_manifest_crash)
