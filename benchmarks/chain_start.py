#!/usr/bin/env python3
"""The non-planar start of the N-fold pendulum that the benchmarks share (fused_loops.hpp's
chain_state): q_i = normalised (sin(0.3 i + 1), cos(0.7 i), 0.5), w_i = q_i x (0.1, 0.2, 0.3).

    python3 benchmarks/chain_start.py N      prints q0=... w0=... (liesim run's --param values)
"""
import math
import sys


def chain_start(n):
    """(q0, w0): 3N numbers each."""
    q, w = [], []
    for i in range(n):
        v = (math.sin(0.3 * i + 1), math.cos(0.7 * i), 0.5)
        r = math.sqrt(sum(x * x for x in v))
        qi = [x / r for x in v]
        c = (0.1, 0.2, 0.3)
        q += qi
        w += [qi[1] * c[2] - qi[2] * c[1], qi[2] * c[0] - qi[0] * c[2], qi[0] * c[1] - qi[1] * c[0]]
    return q, w


if __name__ == "__main__":
    q0, w0 = chain_start(int(sys.argv[1]))
    print("q0=" + ",".join(repr(x) for x in q0), "w0=" + ",".join(repr(x) for x in w0))
