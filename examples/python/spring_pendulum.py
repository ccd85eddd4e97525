#!/usr/bin/env python3
"""A model prototyped in Python: a spherical pendulum on a spring (an elastic rod), on TS^2 x R^2.

State [q (3), w (3), r, r']: the rod's direction q on the unit sphere with angular velocity w
(q' = w x q, q . w = 0) under SE(3), and its length r with rate r' under translation. Mass m at
x = r q, spring k with rest length l0, gravity g along -e3:
    m r'' = m r |w|^2 - k (r - l0) + m g_vec . q,     w' = (q x g_vec) / r - 2 (r'/r) w,
    E = 1/2 m (r'^2 + r^2 |w|^2) + 1/2 k (r - l0)^2 - m g_vec . (r q)   (conserved).
The generator in se(3) x R^2 is (w, q x w', r', r'') (as for the rigid pendulum: the se(3) part
(u, v) moves (q, w) by (u x q, u x w + v x q)). It runs under every integrator; the Lie group
methods keep |q| = 1 and q . w = 0 exactly, a classical one does not.

Usage: PYTHONPATH=build/python python3 examples/python/spring_pendulum.py
"""
import math

import numpy as np

import liesim

m, k, l0, g = 1.0, 40.0, 1.0, np.array([0.0, 0.0, -9.81])


def accelerations(y):
    q, w, r, rd = y[0:3], y[3:6], y[6], y[7]
    rdd = r * (w @ w) - k / m * (r - l0) + g @ q
    wd = np.cross(q, g) / r - 2 * rd / r * w
    return wd, rdd


def f(t, y):
    wd, rdd = accelerations(y)
    return np.concatenate([y[3:6], np.cross(y[0:3], wd), [y[7], rdd]])


def invariants(y):
    q, w, r, rd = y[0:3], y[3:6], y[6], y[7]
    energy = 0.5 * m * (rd * rd + r * r * (w @ w)) + 0.5 * k * (r - l0) ** 2 - m * (g @ (r * q))
    return [energy, np.linalg.norm(q) - 1, q @ w]


a = math.radians(60)
model = liesim.Model("TS2 x R2", f, [math.sin(a), 0, -math.cos(a), 0.8 * math.cos(a), 1.5, 0.8 * math.sin(a), 1.1, 0], invariants=invariants,
                     invariant_names=["energy", "q_norm_minus_1", "q_dot_w"],
                     state_names=["q_x", "q_y", "q_z", "w_x", "w_y", "w_z", "r", "r_dot"], name="spring_pendulum")

if __name__ == "__main__":
    for method, settings in [("rkmk4", {"step": 0.002}), ("rk4", {"step": 0.002}), ("cvode_bdf", {"rtol": 1e-10, "atol": 1e-10})]:
        r = liesim.run(model, method, t_end=10.0, **settings)
        print(f"{method:10s} {r.stats['steps']:6d} steps: energy drift {r.max_drift['energy']:.2e}, "
              f"max ||q| - 1| {np.abs(r.invariants[:, 1]).max():.1e}, max |q . w| {np.abs(r.invariants[:, 2]).max():.1e}")
    print(r.to_pandas().tail(3) if hasattr(r, "to_pandas") else r.final_state)
