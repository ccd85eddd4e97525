// O(N) dynamics of the N-fold 3D pendulum via link tensions.
//
// Newton for mass i (link i joins mass i-1 and mass i, mass 0 is the fixed pivot, q_i the unit
// direction of link i, tau_i its tension):  m_i x_i'' = m_i g_vec - tau_i q_i + tau_{i+1} q_{i+1}.
// The rigid-link constraint |x_i - x_{i-1}|^2 = L_i^2 differentiated twice gives
//   q_i . (x_i'' - x_{i-1}'') = -L_i |q_i'|^2,  q_i' = w_i x q_i,
// a tridiagonal system in tau (it is J M^{-1} J^T: symmetric positive definite). Then
//   q_i'' = (x_i'' - x_{i-1}'') / L_i  and  w_i' = q_i x q_i''  (the tangent angular acceleration).
#include "chain_dynamics.hpp"

#include <Eigen/Geometry>

namespace liesim::pendulum_chain {

namespace {
Eigen::Map<const Eigen::Vector3d> q_of(const double* y, int i) { return Eigen::Map<const Eigen::Vector3d>(y + 6 * i); }
Eigen::Map<const Eigen::Vector3d> w_of(const double* y, int i) { return Eigen::Map<const Eigen::Vector3d>(y + 6 * i + 3); }
}  // namespace

void angular_accelerations(const Chain& c, const double* y, double* wdot, ChainWorkspace& ws) {
  const int n = c.size();
  const Eigen::Vector3d gvec(0.0, 0.0, -c.g);
  // Row i of the tension system (0-based), from q_i . (x_i'' - x_{i-1}'') = -L_i |q_i'|^2.
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d qi = q_of(y, i);
    const double speed2 = w_of(y, i).cross(qi).squaredNorm();
    const double inv_mi = 1.0 / c.m[i];
    const double inv_mprev = i > 0 ? 1.0 / c.m[i - 1] : 0.0;
    ws.diag[i] = -(inv_mi + inv_mprev) * qi.squaredNorm();
    ws.upper[i] = i + 1 < n ? inv_mi * qi.dot(q_of(y, i + 1)) : 0.0;
    ws.lower[i] = i > 0 ? inv_mprev * qi.dot(q_of(y, i - 1)) : 0.0;
    // Gravity accelerates every mass equally, so it enters only the first link (pivot fixed).
    ws.rhs[i] = -c.L[i] * speed2 - (i == 0 ? qi.dot(gvec) : 0.0);
  }
  // Thomas algorithm (the matrix is negative definite: no pivoting needed).
  for (int i = 1; i < n; ++i) {
    const double f = ws.lower[i] / ws.diag[i - 1];
    ws.diag[i] -= f * ws.upper[i - 1];
    ws.rhs[i] -= f * ws.rhs[i - 1];
  }
  ws.tension[n - 1] = ws.rhs[n - 1] / ws.diag[n - 1];
  for (int i = n - 2; i >= 0; --i) ws.tension[i] = (ws.rhs[i] - ws.upper[i] * ws.tension[i + 1]) / ws.diag[i];
  // Accelerations of the masses, then of the links.
  for (int i = 0; i < n; ++i) {
    Eigen::Vector3d a = gvec - (ws.tension[i] / c.m[i]) * q_of(y, i);
    if (i + 1 < n) a += (ws.tension[i + 1] / c.m[i]) * q_of(y, i + 1);
    ws.acc.col(i) = a;
  }
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d qdd = (i == 0 ? ws.acc.col(0) : Eigen::Vector3d(ws.acc.col(i) - ws.acc.col(i - 1))) / c.L[i];
    Eigen::Map<Eigen::Vector3d>(wdot + 3 * i) = q_of(y, i).cross(qdd);
  }
}

double energy(const Chain& c, const double* y) {
  Eigen::Vector3d x = Eigen::Vector3d::Zero(), v = Eigen::Vector3d::Zero();
  double e = 0.0;
  for (int i = 0; i < c.size(); ++i) {
    x += c.L[i] * q_of(y, i);
    v += c.L[i] * w_of(y, i).cross(q_of(y, i));
    e += 0.5 * c.m[i] * v.squaredNorm() + c.m[i] * c.g * x.z();
  }
  return e;
}

}  // namespace liesim::pendulum_chain
