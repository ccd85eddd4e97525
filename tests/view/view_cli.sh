#!/usr/bin/env bash
# The viewer and the strobe figure end to end: liesim run --view of the heavy top and of the
# quadrotor tracking manoeuvre opened, played and photographed in headless Chromium
# (browser_check.py); liesim view of run summaries and of a study (its reference first); the
# strobe figure of a pendulum; and the errors a user meets. Usage: view_cli.sh BUILD_DIR
set -u
build="$1"
here="$(cd "$(dirname "$0")" && pwd)"
liesim="$build/bin/liesim"
python=/usr/bin/python3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
# expect_error DESCRIPTION TEXT -- COMMAND...: the command exits 1 and says TEXT.
expect_error() {
  local what="$1" text="$2"
  shift 3
  local out status
  out="$("$@" 2>&1)"
  status=$?
  if [ "$status" -ne 1 ] || ! grep -qF -- "$text" <<<"$out"; then
    fail "$what: exit $status, wanted 1 and '$text'; got: $out"
  fi
}
cd "$work" || exit 1

# 1. The heavy top and the quadrotors carrying the load, each played in the browser.
"$liesim" run --model heavy_top --integrator rkmk4 --step 0.001 --t-end 0.5 --view top.html > /dev/null || fail "run --view heavy_top"
"$liesim" run --model quadrotor_load --param control=tracking --integrator rkmk4 --step 0.01 --t-end 5 --view quad.html \
  > /dev/null || fail "run --view quadrotor_load tracking"
[ -f top.html.series.csv ] && fail "run --view left its temporary series behind"
# With them, in the same Chromium, a synthetic page of every shape (tests/view/sample_view.py).
"$python" "$here/sample_view.py" shapes.html > /dev/null || fail "sample_view.py"
"$python" "$here/browser_check.py" top.html quad.html shapes.html || fail "browser_check"
for page in top.html quad.html; do
  # Self-contained: no external address in an attribute (browser_check checks it too), and three.js inside.
  grep -q "three.js r111" "$page" || fail "$page: three.js is not embedded"
done
# The quadrotor page draws the desired trajectory (a path through the tracking controller's observables).
"$python" - quad.html <<'PY' || fail "quad.html: no desired trajectory path"
import json, re, sys
text = open(sys.argv[1]).read()
doc = json.loads(re.search(r'<script id="liesim-data" type="application/json">(.*?)</script>', text, re.S).group(1))
paths = doc["scene"]["paths"]
assert paths and len(paths[0]["points"]) > 100, paths
PY

# 2. Two runs of one model from their summaries: one page, the second run's distance to the first.
"$liesim" run --model pendulum_chain --param N=3 --integrator rkmk4 --step 0.01 --t-end 2 --output a.csv --summary a.json > /dev/null
"$liesim" run --model pendulum_chain --param N=3 --integrator rk4 --step 0.01 --t-end 2 --output b.csv --summary b.json > /dev/null
"$liesim" view a.json b.json --out two.html > /dev/null || fail "view of two summaries"
"$python" - two.html <<'PY' || fail "two.html: runs or distances wrong"
import json, re, sys
text = open(sys.argv[1]).read()
doc = json.loads(re.search(r'<script id="liesim-data" type="application/json">(.*?)</script>', text, re.S).group(1))
runs = doc["runs"]
assert [r["label"] for r in runs] == ["rkmk4 h = 0.01", "rk4 h = 0.01"], runs
assert len(doc["times"]) == 201 and doc["thinned"] is None
d = runs[1]["distance"]
assert d[0] == 0 and 0 < d[-1] < 1e-3, d[-1]
PY
# --frames thins the page and says so.
"$liesim" view a.json --frames 50 --out thin.html > /dev/null || fail "view --frames"
grep -q '"thinned":{"frames":' thin.html || fail "view --frames: the page does not say it was thinned"

# 3. A study: a page per case with the reference first; the report links it.
cat > mini.toml <<'TOML'
name = "mini"
[reference]
integrator = "rkmk5"
step = 1e-3
[[case]]
name = "chain"
model = "pendulum_chain"
t_end = 1.0
parameters = { N = 2 }
[[case]]
name = "oscillator"
model = "harmonic_oscillator"
t_end = 1.0
[[runs]]
name = "fixed"
integrators = ["rkmk4", "rk4"]
steps = [0.02]
series = "all"
[[figure]]
name = "swing"
kind = "strobe"
exposures = 5
cases = ["chain"]
TOML
"$liesim" study mini.toml --out study > /dev/null 2>&1 || fail "study"
for ext in png pdf; do [ -s study/plots/figure_swing_chain.$ext ] || fail "study: no strobe figure figure_swing_chain.$ext"; done
grep -q "figure_swing_chain.png" study/report.md || fail "study: the report does not show its strobe figure"
ls study/plots/*.view.json > /dev/null 2>&1 && fail "study: the strobe figure's data was left behind"
[ -f study/view_chain.html ] || fail "study: no view_chain.html"
[ -f study/view_oscillator.html ] && fail "study: a page for a model without a scene"
grep -q "view_chain.html" study/report.md || fail "study: the report does not link its page"
grep -q '"label":"reference (rkmk5 h = 0.001)"' study/view_chain.html || fail "study page: the reference is not its first run"
"$liesim" view study --runs rk4 --out only > /dev/null || fail "view STUDY --runs"
grep -q '"label":"rkmk4' only/view_chain.html && fail "view --runs rk4 kept rkmk4"

# 4. The strobe figure of the pendulum, PNG and PDF.
"$liesim" figure strobe a.csv --model pendulum_chain --param N=3 --exposures 6 --out strobe.png > /dev/null || fail "figure strobe png"
"$liesim" figure strobe a.csv --model pendulum_chain --param N=3 --times 0,0.5,1,1.5 --out strobe.pdf > /dev/null || fail "figure strobe pdf"
head -c 5 strobe.pdf | grep -q "%PDF" || fail "strobe.pdf is no PDF"
"$python" - strobe.png <<'PY' || fail "strobe.png is blank"
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
ink = sum(1 for p in im.getdata() if min(p) < 200)
assert ink > 2000, ink
PY
ls strobe.png.* > /dev/null 2>&1 && fail "figure strobe left its data or log behind"

# 5. Errors say what is wrong and how to fix it.
sed 's/^exposures = 5$/columns = ["energy"]/' mini.toml > bad.toml
expect_error "a strobe figure with columns" "does not apply to a strobe figure" -- "$liesim" study bad.toml --out bad
expect_error "view of a model without a scene" "states no scene" -- \
  "$liesim" run --model harmonic_oscillator --integrator rk4 --step 0.1 --t-end 1 --view osc.html
expect_error "view of a summary without series" "wrote no time series" -- sh -c \
  "'$liesim' run --model pendulum_chain --integrator rk4 --step 0.1 --t-end 1 --summary c.json > /dev/null; '$liesim' view c.json"
expect_error "view of runs of two models" "different models or parameters" -- sh -c \
  "'$liesim' run --model pendulum_chain --integrator rk4 --step 0.1 --t-end 1 --output d.csv --summary d.json > /dev/null; '$liesim' view a.json d.json"
expect_error "view of nothing" "does not exist" -- "$liesim" view no-such-folder
expect_error "figure of an unknown kind" "unknown kind 'movie'" -- "$liesim" figure movie a.csv --model pendulum_chain --out x.png
expect_error "figure of the wrong model" "is not of this model" -- \
  "$liesim" figure strobe a.csv --model pendulum_chain --param N=2 --out x.png
expect_error "figure in an unknown format" "must end in .png or .pdf" -- \
  "$liesim" figure strobe a.csv --model pendulum_chain --param N=3 --out x.gif

if [ "$failures" -gt 0 ]; then
  echo "view_cli: $failures failure(s)"
  exit 1
fi
echo "view_cli: all checks passed"
