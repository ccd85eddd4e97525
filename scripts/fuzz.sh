#!/usr/bin/env bash
# Fuzz the input parsers (study files, KEY=VALUE settings) with libFuzzer for SECONDS each
# (default 60): scripts/fuzz.sh [SECONDS]. Needs clang (scripts/install-deps.sh installs it).
# A finding stops the run with the crashing input saved as build-fuzz/crash-*; see tests/fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (scripts/install-deps.sh installs clang)" >&2; exit 1; }
cmake -S tests/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-fuzz -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
# Seeds: the shipped studies, and a few settings values; the corpora grow in build-fuzz.
mkdir -p build-fuzz/corpus/study build-fuzz/corpus/settings
cp studies/*.toml build-fuzz/corpus/study/
cp tests/fuzz/corpus_settings/* build-fuzz/corpus/settings/
cd build-fuzz
for harness in study_file settings; do
  if [ "$harness" = study_file ]; then corpus=corpus/study; else corpus=corpus/settings; fi
  echo "fuzz: fuzz_${harness} for ${seconds} s"
  ./fuzz_${harness} -max_total_time="${seconds}" -max_len=16384 -timeout=10 -print_final_stats=1 "$corpus" 2>fuzz_${harness}.log ||
    { tail -40 fuzz_${harness}.log >&2; echo "fuzz: fuzz_${harness} found a problem: input saved in build-fuzz/ (crash-*, timeout-*)" >&2; exit 1; }
  grep -E "stat::number_of_executed_units" fuzz_${harness}.log || true
done
