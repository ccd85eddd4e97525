#!/usr/bin/env bash
# docs/plugin-guide.md's walk from nothing to a comparison study, run as a new author types it:
#   tests/cli/guide_walkthrough.sh BUILD
# The commands are read from the guide: the sh blocks of "0. Install liesim", "1.1 Create the
# folder", "1.9 Build, load, run" and "1.13 Compare it in a study", and the study file of 1.13
# (its toml block, saved as my_study.toml). They run as one bash -e script, in that order, in a
# scratch HOME where liesim/ is the sources and liesim/build is BUILD. Of section 0 only the
# configure and build commands are left out (BUILD is that build, made once by the test suite);
# its install and PATH commands run. Then the study's results are checked: every run of the
# author's model succeeded, its report exists, and the new model (the template as written) equals
# the shipped pendulum_chain with N = 1.
set -euo pipefail
build="$(cd "$1" && pwd)"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
guide="$source_dir/docs/plugin-guide.md"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/liesim"
for f in "$source_dir"/*; do ln -s "$f" "$work/liesim/$(basename "$f")"; done
rm -f "$work/liesim/build" && ln -s "$build" "$work/liesim/build"

# The first block of LANG after the heading that starts with HEADING.
block() {
  awk -v heading="$1" -v lang="$2" 'index($0, heading) == 1 { section = 1; next }
       section && $0 == "```" lang { inside = 1; next }
       inside && /^```/ { exit }
       inside { print }' "$guide"
}
script="$work/walkthrough.sh"
{
  echo "set -euxo pipefail"
  # Section 0 without its configure and build commands (continuation lines joined first).
  block "## 0. Install liesim" sh | sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' |
    grep -v -E '^cmake (-S liesim|--build liesim/build)'
  block "### 1.1 Create the folder" sh
  block "### 1.9 Build, load, run" sh
  block "### 1.13 Compare it in a study" sh
} > "$script"
block "### 1.13 Compare it in a study" toml > "$work/my_study.toml"
for part in "cmake --install liesim/build" "liesim new model my_pendulum" "liesim run --model my_pendulum" "liesim study my_study.toml"; do
  grep -q -F "$part" "$script" || { echo "FAILED: the guide no longer has '$part' where this test reads it:"; cat "$script"; exit 1; }
done
grep -q '^\[\[case\]\]' "$work/my_study.toml" || { echo "FAILED: no study file (toml block) in section 1.13"; exit 1; }

if ! (cd "$work" && env -u CMAKE_PREFIX_PATH -u liesim_DIR HOME="$work" PATH="/usr/bin:$PATH" LIESIM_PLUGIN_PATH= \
      timeout 1200 bash "$script") > "$work/out.log" 2>&1; then
  cat "$work/out.log"
  echo "FAILED: the plugin guide's walkthrough (the command is the last '+' line above)"
  exit 1
fi
results="$work/results/mine/results.csv"
[ -f "$results" ] && [ -f "$work/results/mine/report.md" ] || { cat "$work/out.log"; echo "FAILED: the study wrote no results.csv/report.md"; exit 1; }
# The template as written is pendulum_chain with N = 1: section 1.9's rk4 run against the shipped model's.
LIESIM_PLUGIN_PATH= "$work/opt/liesim/bin/liesim" run --model pendulum_chain --param N=1 --integrator rk4 --t-end 10 \
  --step 0.01 --summary "$work/shipped.json" > /dev/null
# Every run of the author's model in the study finished: the status column is "ok" on each row.
python3 - "$results" "$work/rk4.json" "$work/shipped.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if r["status"] != "ok" or r["model"] != "my_pendulum"]
assert len(rows) == 21 and not bad, (len(rows), bad[:3])
mine, shipped = (json.load(open(f))["final_state"] for f in sys.argv[2:4])
assert len(mine) == len(shipped) and max(abs(a - b) for a, b in zip(mine, shipped)) < 1e-10, (mine, shipped)
PY
echo "guide_walkthrough: $(grep -c '^+ ' "$work/out.log") commands ran; the study's 21 runs of my_pendulum ok"
