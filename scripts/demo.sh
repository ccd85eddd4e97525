#!/usr/bin/env bash
# The default job: install what it needs, build the command and the quickstart study's plugins,
# run the study, then build the other plugins; a line per stage with the time since the start.
#   scripts/demo.sh                      ./build, results in results/quickstart
# LIESIM_BUILD_DIR and LIESIM_RESULTS choose other folders (scripts/test.sh builds the demo beside
# the full build that way).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${LIESIM_BUILD_DIR:-build}"
out="${LIESIM_RESULTS:-results/quickstart}"
start=$(date +%s)
stage() { echo "demo [$1/4, $(( $(date +%s) - start )) s] $2"; }
stage 1 "packages (Debian 12: about 200, 300 MB, with sudo unless root)"
scripts/install-deps.sh demo
stage 2 "building the command and the quickstart's plugins (about 4 min on 2 idle cores; log: $build/build.log)"
scripts/build.sh demo quickstart
stage 3 "running studies/quickstart.toml (about 10 s)"
"$build/bin/liesim" study studies/quickstart.toml --out "$out"
echo "demo: the quickstart's results are in $out: report.md (read it first), results.csv, the plots *.png"
stage 4 "building the other plugins (about 4 min more; the results above are complete)"
scripts/build.sh demo
stage 4 "done"
cat <<NEXT
Next:
  $build/bin/liesim list                           # every model and method
  $build/bin/liesim describe pendulum_chain        # a model's state, conventions and invariants
  $build/bin/liesim run --model heavy_top --integrator rkmk4 --step 0.001 --t-end 1 --summary /tmp/summary.json
  $build/bin/liesim study studies/fig5_convergence.toml --jobs 2   # one of the papers' experiments
More in README.md ("Using it"); scripts/test.sh builds and runs the tests (and the Python package).
NEXT
