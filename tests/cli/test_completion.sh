#!/usr/bin/env bash
# The bash completion script: commands, names, a model's parameters and a method's options come
# from liesim itself. Usage: test_completion.sh BUILD_DIR
set -u
build="$1"
export PATH="$build/bin:$PATH" LIESIM_PLUGIN_PATH=
source "$build/share/bash-completion/completions/liesim"
failures=0
# complete WORDS... : COMPREPLY for the last word of `liesim WORDS...`
complete_words() {
  COMP_WORDS=(liesim "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  _liesim
  printf '%s\n' "${COMPREPLY[@]}"
}
expect() {  # expect DESCRIPTION WORD -- WORDS...
  local what="$1" want="$2"
  shift 3
  if ! complete_words "$@" | grep -qx -- "$want"; then
    echo "FAILED: $what: '$want' not offered for: liesim $*"
    failures=$((failures + 1))
  fi
}
expect "commands" run -- r
expect "commands" study -- ""
expect "commands" view -- v
expect "commands" figure -- fig
expect "figure kinds" strobe -- figure s
expect "figure's models" pendulum_chain -- figure strobe x.csv --model pend
expect "view options" --runs -- view dir --r
expect "models" pendulum_chain -- run --model pend
expect "methods" rkmk45 -- run --model pendulum_chain --integrator rkmk4
expect "methods of SUNDIALS" cvode_bdf -- describe cvode
expect "a model's parameters" "N=" -- run --model pendulum_chain --integrator rkmk4 --param ""
expect "a method's options" "error_norm=" -- run --model pendulum_chain --integrator rkmk45 --option err
expect "a method's family options" "dexpinv=" -- run --integrator rkmk45 --option de
expect "run options" --t-end -- run --t
expect "study options" --no-plots -- study s.toml --no
expect "new kinds" integrator -- new i
expect "new options" --lang -- new model foo --l
expect "new languages" c++ -- new model foo --lang ""
expect "describe --param" "control=" -- describe quadrotor_load --param con
if ((failures)); then
  echo "$failures completion check(s) failed"
  exit 1
fi
echo "bash completion: all checks passed"
