#!/usr/bin/env python3
"""Reads callgrind output files for benchmarks/lie_step_cost.sh: the cost of one step split by
function into categories, as the difference of two runs that differ only in their end time.

    python3 benchmarks/lie_step_cost.py profile DIR        one run's files DIR/cg.* -> JSON on stdout
    python3 benchmarks/lie_step_cost.py row N METHOD STEP A.json B.json SUM_A.json SUM_B.json
                                                            -> one JSON line: per-step categories
    python3 benchmarks/lie_step_cost.py table ROWS [CLASSICAL]   the rows' markdown tables

profile: every process's file (callgrind --trace-children=yes writes one per process) is read
with --dump-instr=no costs (one cost line per call site); functions are keyed by object and name.
For each function: its self cost, its inclusive cost (self + the costs of the calls it makes,
calls to itself left out) and how often it is called. Categories are inclusive costs of their
root functions (below), so that what a root calls (libm's sin under the exponential, the tension
solve under the field) counts with it; `other` is the total (all processes) minus the categories.
A root of one category that calls a root of another is an error (the split would count twice).
"""
import json
import os
import re
import sys

# Category roots: regular expressions on "object:function". The model plugin's C-ABI entries
# (liesim::sdk::detail::ModelFunctions, framework/include/liesim/sdk/model_plugin.hpp) are the
# functions the integrator calls through the plugin boundary: everything under them is the
# model's work for that operation (PowerSpace<SE3OnTS2>'s loop over the bodies is inlined into them).
CATEGORIES = [
    ("field", r"liesim_pendulum_chain\.so:liesim::sdk::detail::ModelFunctions::(generator|vector_field)\("),
    ("exp", r"liesim_pendulum_chain\.so:liesim::sdk::detail::ModelFunctions::act_exp\("),
    # Exact dexpinv: the model's closed form; dexpinv=series: the brackets and the series' sums,
    # both under RkmkStepper::stage_derivative (lie_rk).
    ("dexpinv", r"liesim_lie_rk\.so:liesim::lie_rk::RkmkStepper::stage_derivative\("),
    # sdk/stage_sum.hpp: out = base + h sum_j w_j K_j in passes of up to four columns
    # (the instantiations of detail::assign that the compiler kept out of line).
    ("sums", r":(void )?liesim::sdk::(detail::)?(assign|add_rest|next_terms|stage_sum)<"),
]
# Calls counted per step (the operations of the table's extra columns).
COUNTED = {
    "f": r"liesim_pendulum_chain\.so:liesim::sdk::detail::ModelFunctions::(generator|vector_field)\(",
    "exp": r"liesim_pendulum_chain\.so:liesim::sdk::detail::ModelFunctions::act_exp\(",
    "dexpinv": r"liesim_pendulum_chain\.so:liesim::sdk::detail::ModelFunctions::dexpinv\(",
    "bracket": r"liesim_pendulum_chain\.so:liesim::sdk::detail::ModelFunctions::bracket\(",
    "sin": r"libm\.so\.6:(__)?sin(_fma)?$",
    "cos": r"libm\.so\.6:(__)?cos(_fma)?$",
}
NAME = re.compile(r"^\((\d+)\)(?: (.*))?$")


def parse(path):
    """{key: [self, inclusive_calls, calls_in]} of one callgrind file, its call graph {caller: {callees}}
    and its summary."""
    names = {"ob": {}, "fn": {}}
    funcs = {}
    graph = {}
    ob = cob = fn = cfn = None
    pending_call = None  # (callee key, count) when the next cost line is a call's
    summary = 0

    def resolve(kind, text):
        m = NAME.match(text)
        if not m:
            return text
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind][m.group(1)]

    def entry(key):
        return funcs.setdefault(key, [0, 0, 0])

    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                parts = line.split()
                cost = int(parts[1]) if len(parts) > 1 else 0
                if pending_call is not None:
                    callee, count = pending_call
                    if callee != fn:  # recursion would count the callee twice
                        entry(fn)[1] += cost
                    entry(callee)[2] += count
                    pending_call = None
                    cob = None
                else:
                    entry(fn)[0] += cost
                continue
            key, _, value = line.partition("=")
            if key == "ob":
                ob = resolve("ob", value)
            elif key == "cob":
                cob = resolve("ob", value)
            elif key == "fn":
                fn = f"{os.path.basename(ob or '')}:{resolve('fn', value)}"
                cob = None
            elif key == "cfn":
                cfn = f"{os.path.basename(cob or ob or '')}:{resolve('fn', value)}"
                graph.setdefault(fn, set()).add(cfn)
            elif key == "calls":
                pending_call = (cfn, int(value.split()[0]))
            elif line.startswith("summary:"):
                summary = int(line.split()[1])
    return funcs, graph, summary


def profile(folder):
    """Every process's functions summed: {key: [self, inclusive, calls]} and the total, plus who calls whom."""
    total = 0
    funcs = {}
    graph = {}
    for name in sorted(os.listdir(folder)):
        if not name.startswith("cg."):
            continue
        f, g, s = parse(os.path.join(folder, name))
        total += s
        for k, v in f.items():
            e = funcs.setdefault(k, [0, 0, 0])
            for i in range(3):
                e[i] += v[i]
        for caller, called in g.items():
            graph.setdefault(caller, set()).update(called)
    return {"total": total, "graph": graph,
            "functions": {k: {"self": v[0], "inclusive": v[0] + v[1], "calls": v[2]} for k, v in funcs.items()}}


def categorise(prof):
    """{category: inclusive Ir} and {counted: calls} of a profile."""
    cats = {}
    for cat, rx in CATEGORIES:
        r = re.compile(rx)
        cats[cat] = sum(v["inclusive"] for k, v in prof["functions"].items() if r.search(k))
    counts = {}
    for what, rx in COUNTED.items():
        r = re.compile(rx)
        counts[what] = sum(v["calls"] for k, v in prof["functions"].items() if r.search(k))
    return cats, counts


def check_overlap(graph):
    """A category root that calls another category's root would be counted twice: an error."""
    roots = {cat: re.compile(rx) for cat, rx in CATEGORIES}
    seen = {}
    for fn in graph:
        for cat, r in roots.items():
            if r.search(fn):
                seen[fn] = cat
    # Transitive closure from every root: no other category's root below it.
    for fn, cat in seen.items():
        stack, visited = [fn], {fn}
        while stack:
            for callee in graph.get(stack.pop(), ()):
                if callee in visited:
                    continue
                visited.add(callee)
                for other, r in roots.items():
                    if other != cat and r.search(callee):
                        sys.exit(f"lie_step_cost: {fn} ({cat}) calls {callee} ({other}): the split would count it twice")
                stack.append(callee)


def short(name):
    """A function key without its argument list and object: for the notes."""
    obj, _, fn = name.partition(":")
    fn = fn.replace("(anonymous namespace)", "{anon}")
    depth, out = 0, []
    for ch in fn:  # drop template and call arguments
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return f"{''.join(out).strip()} [{obj}]"


def table(rows_file, classical):
    """Markdown: the split per step, the cost of each operation, the floors against `classical`."""
    rows = [json.loads(line) for line in open(rows_file) if line.strip()]
    cats = ["field", "exp", "dexpinv", "sums", "other"]
    print("| N | method | step | Ir/step | (a) field | (b) exp (action) | (c) dexpinv | (d) stage sums | (e) other |"
          " f evals/step | exps/step | dexpinv/step | brackets/step |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        c, t = r["categories"], r["total"]
        cells = " | ".join(f"{c[k]:.0f} ({100 * c[k] / t:.1f} %)" for k in cats)
        n = r["counts"]
        step = r["step"] + (f", {r['rejected']} rejected of {r['steps'][1] - r['steps'][0] + r['rejected']}" if r["rejected"] else "")
        print(f"| {r['N']} | {r['method']} | {step} | {t:.0f} | {cells} | {n['f']:g} | {n['exp']:g} | {n['dexpinv']:g} | {n['bracket']:g} |")
    print("\nPer operation (Ir per call, and per call and body: N bodies; libm's sin/cos calls under the exponential per step):\n")
    print("| N | method | step | field [Ir/eval] | per body | exp [Ir/call] | per body | dexpinv [Ir/call] | per body | sin+cos calls/step |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        c, n, N = r["categories"], r["counts"], r["N"]
        cell = lambda cat, cnt: (f"{c[cat] / n[cnt]:.0f} | {c[cat] / n[cnt] / N:.1f}" if n[cnt] else "- | -")  # noqa: E731
        dex = (f"{c['dexpinv'] / n['dexpinv']:.0f} | {c['dexpinv'] / n['dexpinv'] / N:.1f}" if n["dexpinv"] else
               (f"{c['dexpinv'] / (n['bracket'] / 6):.0f} (series) | {c['dexpinv'] / (n['bracket'] / 6) / N:.1f}" if n["bracket"] else "- | -"))
        print(f"| {N} | {r['method']} | {r['step']} | {cell('field', 'f')} | {cell('exp', 'exp')} | {dex} | {n['sin'] + n['cos']:g} |")
    print("\nThe Lie step against the classical one (" + classical + ", the same step or tolerances): the Lie step = the classical"
          " field + X, X split into the Lie field's excess (generator over vector_field), exp, dexpinv, sums and other; the floors"
          " are the ratio with parts of X taken away:\n")
    print("| N | Lie method | step | classical [Ir/step] | Lie [Ir/step] | ratio now | X | of X: field excess | exp | dexpinv | sums | other |"
          " (field + exp) / (field + sums) | dexpinv free, sums and other as classical | exp free, the rest as now |"
          " exp + dexpinv allowed for 1.2 (sums and other as classical) | exp per body for 1.2, dexpinv free |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if r["method"] == classical:
            continue
        base = next((b for b in rows if b["N"] == r["N"] and b["method"] == classical and b["step"] == r["step"]), None)
        if base is None:
            continue
        C, L = base["total"], r["total"]
        cc, lc = base["categories"], r["categories"]
        X = L - cc["field"]
        excess = lc["field"] - cc["field"]
        parts = " | ".join(f"{v:.0f} ({100 * v / X:.0f} %)" for v in (excess, lc["exp"], lc["dexpinv"], lc["sums"], lc["other"]))
        # The brief's floor: the Lie step at least its field and exponentials, the classical one at most its field and sums.
        floor1 = (lc["field"] + lc["exp"]) / (cc["field"] + cc["sums"])
        # dexpinv free, the sums and the bookkeeping no dearer than the classical step's.
        floor2 = (lc["field"] + lc["exp"] + cc["sums"] + cc["other"]) / C
        # The exponential free, everything else as measured.
        floor3 = (L - lc["exp"]) / C
        # What exp + dexpinv may cost together for a ratio of 1.2, sums and other as the classical step's.
        budget = 1.2 * C - (lc["field"] + cc["sums"] + cc["other"])
        n_exp = r["counts"]["exp"] * r["N"]
        print(f"| {r['N']} | {r['method']} | {r['step']} | {C:.0f} | {L:.0f} | {L / C:.2f} | {X:.0f} | {parts} | {floor1:.2f} | {floor2:.2f} |"
              f" {floor3:.2f} | {budget:.0f} Ir/step (now {lc['exp'] + lc['dexpinv']:.0f}) |"
              f" {budget / n_exp:.0f} Ir (now {lc['exp'] / n_exp:.0f}) |")
    print("\nLargest self costs per step (functions with at least 0.5 % of the step; inlined code counts with the function it is inlined into):\n")
    for r in rows:
        merged = {}  # the instantiations of one template under one name
        for k, v in r["top_self"].items():
            merged[short(k)] = merged.get(short(k), 0) + v
        items = ", ".join(f"{k} {v:.0f}" for k, v in sorted(merged.items(), key=lambda kv: -kv[1])[:10])
        print(f"- N = {r['N']}, {r['method']}, {r['step']}: {items}")


def main():
    cmd = sys.argv[1]
    if cmd == "profile":
        folder = sys.argv[2]
        prof = profile(folder)
        check_overlap(prof["graph"])
        cats, counts = categorise(prof)
        json.dump({"total": prof["total"], "categories": cats, "counts": counts,
                   "self": {k: v["self"] for k, v in prof["functions"].items() if v["self"]}}, sys.stdout)
    elif cmd == "row":
        n, method, h = sys.argv[2], sys.argv[3], sys.argv[4]  # h: the step's label ("h = 1/60", "rtol = ...")
        a, b = (json.load(open(p)) for p in sys.argv[5:7])
        sa, sb = (json.load(open(p)) for p in sys.argv[7:9])
        for s in (sa, sb):
            if s["status"] != "ok":
                sys.exit(f"lie_step_cost: {method} N = {n}: run ended with status {s['status']}")
            if h.startswith("h =") and s["stats"]["rejected_steps"]:
                sys.exit(f"lie_step_cost: {method} N = {n}: rejected steps at a fixed step")
        # Per accepted step; a controlled run's rejected steps count in its cost (their number is reported).
        steps = sb["stats"]["steps"] - sa["stats"]["steps"]
        rejected = sb["stats"]["rejected_steps"] - sa["stats"]["rejected_steps"]
        per = lambda x, y: (y - x) / steps  # noqa: E731
        total = per(a["total"], b["total"])
        cats = {c: per(a["categories"][c], b["categories"][c]) for c in a["categories"]}
        cats["other"] = total - sum(cats.values())
        counts = {c: per(a["counts"][c], b["counts"][c]) for c in a["counts"]}
        # The framework's own counters (the run summary's stats) against callgrind's call counts.
        stats = {"f": "f_evals", "exp": "exponentials", "dexpinv": "dexpinv_calls", "bracket": "brackets"}
        for c, s in stats.items():
            count = lambda st: st[s] + (st["rhs_evals"] if c == "f" else 0)  # noqa: E731 (classical: rhs_evals)
            framework = (count(sb["stats"]) - count(sa["stats"])) / steps
            if abs(framework - counts[c]) > 1e-9:
                print(f"lie_step_cost: {method} N = {n}: {c} per step {counts[c]} (callgrind) but {framework} (summary)", file=sys.stderr)
        # Self costs per step of the functions that changed most (for the notes under the table).
        top = {k: per(a["self"].get(k, 0), b["self"].get(k, 0)) for k in set(a["self"]) | set(b["self"])}
        top = dict(sorted(((k, v) for k, v in top.items() if abs(v) >= 0.005 * total), key=lambda kv: -kv[1]))
        json.dump({"N": int(n), "method": method, "step": h, "steps": [sa["stats"]["steps"], sb["stats"]["steps"]],
                   "rejected": rejected,
                   "total": total, "categories": cats, "counts": counts, "top_self": top}, sys.stdout)
        print()
    elif cmd == "table":
        table(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "verner87")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
