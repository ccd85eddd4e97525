// The geometric tracking controller of the two-quadrotor experiment (thesis of E. Cokaj §2.6, seed
// 002 §6; controller of Lee, Sreenath, Kumar, IEEE CDC 2013, as the authors' code applies it):
// the load follows a desired trajectory y_d(t), the links a formation Q_d r_id, with the forces
// u_i^par and u_i^perp prescribed directly (../shared/spec/quadrotor-tracking.md §4, steps 1-9).
// Nothing here depends on the attitudes R_i or Omega_i.
#pragma once
#include <Eigen/Dense>

#include <array>

namespace liesim::quadrotor_load {

using V3 = Eigen::Vector3d;

/// A unit vector n = w/|w| and its first two time derivatives, from w, w', w'':
/// n' = (w' - (n . w') n)/|w|, n'' = (w'' - r'' n - 2 r' n')/|w| with r' = n . w', r'' = n' . w' + n . w''.
struct UnitJet {
  V3 n, dn, ddn;
};
inline UnitJet unit_jet(const V3& w, const V3& dw, const V3& ddw) {
  const double r = w.norm();
  UnitJet j;
  j.n = w / r;
  const double dr = j.n.dot(dw);
  j.dn = (dw - dr * j.n) / r;
  const double ddr = j.dn.dot(dw) + j.n.dot(ddw);
  j.ddn = (ddw - ddr * j.n - 2.0 * dr * j.dn) / r;
  return j;
}

/// The desired load trajectory y_d(t) = p0 + p1 s + p2 s^2, s = t - t_c (derivatives of order >= 3 vanish).
struct Parabola {
  double t_c = 0;
  V3 p0, p1, p2;
  V3 position(double t) const { return p0 + (t - t_c) * (p1 + (t - t_c) * p2); }
  V3 velocity(double t) const { return p1 + 2.0 * (t - t_c) * p2; }
  V3 acceleration() const { return 2.0 * p2; }
};

/// The controller's data: masses, lengths, gravity (along +e3, down), gains, desired trajectory and formation.
struct Tracking {
  double m_y = 0, g = 0;
  std::array<double, 2> m{}, L{};
  double k_y = 0, k_v = 0, k_q = 0, k_w = 0;
  Parabola y_d;
  std::array<V3, 2> r_d;  ///< formation directions in the formation frame (unit, r_1d + r_2d parallel to e3)
  V3 s_d;                 ///< heading vector fixing the formation frame about the vertical
  std::array<double, 2> c{};  ///< tension split c_i = 1 / ((r_id . e3) |r_1d + r_2d|)

  /// What the controller computes at (t, y, v, q_i, w_i).
  struct Output {
    std::array<V3, 2> u_par, u_perp;  ///< forces of the vehicles along and across the links (inertial frame)
    std::array<V3, 2> q_d;            ///< desired link directions Q_d r_id
    V3 y_d;                           ///< desired load position
    V3 F;                             ///< desired total link force on the load
  };

  /// Steps 1-9 of spec §4, used exactly as stated with the current (possibly slightly non-unit)
  /// q_i. Non-finite when F = 0 or F is parallel to s_d (the formation frame is undefined there).
  Output operator()(double t, const V3& y, const V3& v, const std::array<V3, 2>& q, const std::array<V3, 2>& w) const {
    const V3 e3 = V3::UnitZ();
    Output o;
    // 1-2: tracking errors and the desired force; y_d''' = y_d'''' = 0.
    o.y_d = y_d.position(t);
    const V3 yd2 = y_d.acceleration();
    const V3 e_y = y - o.y_d, e_v = v - y_d.velocity(t);
    const V3 F = m_y * (-k_y * e_y - k_v * e_v + yd2 - g * e3);
    o.F = F;
    // 3-4: tension shares and the parallel forces.
    std::array<V3, 2> mu, dq;
    for (int i = 0; i < 2; ++i) {
      mu[i] = c[i] * F.dot(q[i]) * q[i];
      dq[i] = w[i].cross(q[i]);
    }
    const V3 mu_sum = mu[0] + mu[1];
    for (int i = 0; i < 2; ++i)
      o.u_par[i] = m[i] * L[i] * w[i].squaredNorm() * q[i] + mu[i] + (m[i] / m_y) * q[i].dot(mu_sum) * q[i];
    // 5: F' and F'' along the closed loop (the load's acceleration is exactly g e3 + (mu_1 + mu_2)/m_y).
    const V3 e_a = mu_sum / m_y + g * e3 - yd2;
    const V3 dF = m_y * (-k_y * e_v - k_v * e_a);
    V3 dmu_sum = V3::Zero();
    for (int i = 0; i < 2; ++i) dmu_sum += c[i] * ((dF.dot(q[i]) + F.dot(dq[i])) * q[i] + F.dot(q[i]) * dq[i]);
    const V3 e_j = dmu_sum / m_y;
    const V3 ddF = m_y * (-k_y * e_a - k_v * e_j);
    // 6: the formation frame Q_d = [b1 | b2 | b3] and its derivatives, a function of F alone.
    const UnitJet b3 = unit_jet(-F, -dF, -ddF);
    const UnitJet b2 = unit_jet(s_d.cross(F), s_d.cross(dF), s_d.cross(ddF));
    const double Fs = F.dot(s_d), dFs = dF.dot(s_d), ddFs = ddF.dot(s_d);
    const UnitJet b1 = unit_jet(F.squaredNorm() * s_d - Fs * F, 2.0 * F.dot(dF) * s_d - dFs * F - Fs * dF,
                                2.0 * (dF.squaredNorm() + F.dot(ddF)) * s_d - ddFs * F - 2.0 * dFs * dF - Fs * ddF);
    for (int i = 0; i < 2; ++i) {
      // 7: desired link directions and their angular velocity and acceleration.
      const V3& r = r_d[i];
      o.q_d[i] = r[0] * b1.n + r[1] * b2.n + r[2] * b3.n;
      const V3 dq_d = r[0] * b1.dn + r[1] * b2.dn + r[2] * b3.dn;
      const V3 ddq_d = r[0] * b1.ddn + r[1] * b2.ddn + r[2] * b3.ddn;
      const V3 w_d = o.q_d[i].cross(dq_d), dw_d = o.q_d[i].cross(ddq_d);
      // 8-9: link errors and the normal forces.
      const V3 e_q = o.q_d[i].cross(q[i]);
      const V3 e_w = w[i] + q[i].cross(q[i].cross(w_d));
      const V3 X = -k_q * e_q - k_w * e_w - q[i].dot(w_d) * dq[i] - q[i].cross(q[i].cross(dw_d));
      o.u_perp[i] = m[i] * L[i] * q[i].cross(X) - (m[i] / m_y) * q[i].cross(q[i].cross(mu[1 - i]));
    }
    return o;
  }
};

}  // namespace liesim::quadrotor_load
