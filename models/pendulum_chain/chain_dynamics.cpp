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
/// Solve T x = b in place with the Thomas factorisation kept in ws (mult, pivot, upper).
void solve_factorised(const ChainWorkspace& ws, Eigen::VectorXd& b) {
  const auto n = b.size();
  for (Eigen::Index i = 1; i < n; ++i) b[i] -= ws.mult[i] * b[i - 1];
  b[n - 1] /= ws.pivot[n - 1];
  for (Eigen::Index i = n - 2; i >= 0; --i) b[i] = (b[i] - ws.upper[i] * b[i + 1]) / ws.pivot[i];
}

/// The link tensions at y (ws.tension), with the Thomas factorisation of their system kept in ws.
void solve_tensions(const Chain& c, const double* y, ChainWorkspace& ws) {
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
  // Thomas algorithm (the matrix is negative definite: no pivoting needed); the factorisation is
  // kept for the Jacobian.
  ws.pivot[0] = ws.diag[0];
  ws.tension = ws.rhs;
  for (int i = 1; i < n; ++i) {
    ws.mult[i] = ws.lower[i] / ws.pivot[i - 1];
    ws.pivot[i] = ws.diag[i] - ws.mult[i] * ws.upper[i - 1];
  }
  solve_factorised(ws, ws.tension);
}

/// One pass over the links after the tension solve: the acceleration of mass i, q_i'' and
/// wdot_i = q_i x q_i'' (ws.acc, ws.qdd), each handed to emit(i, wdot_i).
template <class Emit>
void link_pass(const Chain& c, const double* y, ChainWorkspace& ws, Emit&& emit) {
  const int n = c.size();
  const Eigen::Vector3d gvec(0.0, 0.0, -c.g);
  for (int i = 0; i < n; ++i) {
    Eigen::Vector3d a = gvec - (ws.tension[i] / c.m[i]) * q_of(y, i);
    if (i + 1 < n) a += (ws.tension[i + 1] / c.m[i]) * q_of(y, i + 1);
    ws.acc.col(i) = a;
    ws.qdd.col(i) = (i == 0 ? a : Eigen::Vector3d(a - ws.acc.col(i - 1))) / c.L[i];
    emit(i, Eigen::Vector3d(q_of(y, i).cross(Eigen::Vector3d(ws.qdd.col(i)))));
  }
}
}  // namespace

void angular_accelerations(const Chain& c, const double* y, double* wdot, ChainWorkspace& ws) {
  solve_tensions(c, y, ws);
  link_pass(c, y, ws, [&](int i, const Eigen::Vector3d& wd) { Eigen::Map<Eigen::Vector3d>(wdot + 3 * i) = wd; });
}

void chain_field(const Chain& c, const double* y, double* out, ChainField kind, ChainWorkspace& ws) {
  solve_tensions(c, y, ws);
  if (kind == ChainField::generator) {
    // xi_i = (w_i, q_i x wdot_i) in se(3): the action's generator psi_*(xi) gives (w_i x q_i, wdot_i).
    link_pass(c, y, ws, [&](int i, const Eigen::Vector3d& wd) {
      Eigen::Map<Eigen::Vector3d>(out + 6 * i) = w_of(y, i);
      Eigen::Map<Eigen::Vector3d>(out + 6 * i + 3) = q_of(y, i).cross(wd);
    });
  } else {
    link_pass(c, y, ws, [&](int i, const Eigen::Vector3d& wd) {
      Eigen::Map<Eigen::Vector3d>(out + 6 * i) = w_of(y, i).cross(q_of(y, i));
      Eigen::Map<Eigen::Vector3d>(out + 6 * i + 3) = wd;
    });
  }
}

void vector_field_jacobian(const Chain& c, const double* y, Eigen::Ref<Eigen::MatrixXd> J, ChainWorkspace& ws) {
  const int n = c.size();
  const Eigen::Vector3d gvec(0.0, 0.0, -c.g);
  J.setZero();
  // The point itself: tensions, factorisation, accelerations and q_i'' (dacc as scratch for wdot).
  angular_accelerations(c, y, ws.dacc.data(), ws);
  for (int col = 0; col < 6 * n; ++col) {
    const int k = col / 6;           // the link whose q or w moves
    const bool moves_q = col % 6 < 3;
    Eigen::Vector3d e = Eigen::Vector3d::Zero();
    e[col % 3] = 1.0;
    const Eigen::Vector3d dq = moves_q ? e : Eigen::Vector3d::Zero(), dw = moves_q ? Eigen::Vector3d::Zero() : e;
    const Eigen::Vector3d qk = q_of(y, k), wk = w_of(y, k);
    // z = d(rhs) - dT tension, non-zero in rows k-1, k, k+1 only.
    ws.z.setZero();
    const Eigen::Vector3d vk = wk.cross(qk);
    const double inv_mk = 1.0 / c.m[k], inv_mprev = k > 0 ? 1.0 / c.m[k - 1] : 0.0;
    double drhs = -c.L[k] * 2.0 * vk.dot(dw.cross(qk) + wk.cross(dq)) - (k == 0 ? dq.dot(gvec) : 0.0);
    const double ddiag = -(inv_mk + inv_mprev) * 2.0 * qk.dot(dq);
    const double dupper = k + 1 < n ? inv_mk * dq.dot(q_of(y, k + 1)) : 0.0;
    const double dlower = k > 0 ? inv_mprev * dq.dot(q_of(y, k - 1)) : 0.0;
    ws.z[k] = drhs - ddiag * ws.tension[k] - (k + 1 < n ? dupper * ws.tension[k + 1] : 0.0) -
              (k > 0 ? dlower * ws.tension[k - 1] : 0.0);
    if (k > 0) ws.z[k - 1] -= inv_mprev * q_of(y, k - 1).dot(dq) * ws.tension[k];  // d upper_{k-1}
    if (k + 1 < n) ws.z[k + 1] -= inv_mk * q_of(y, k + 1).dot(dq) * ws.tension[k];  // d lower_{k+1}
    ws.dtension = ws.z;
    solve_factorised(ws, ws.dtension);
    // d acc_i = -(dtau_i q_i + tau_i dq_i) / m_i + (dtau_{i+1} q_{i+1} + tau_{i+1} dq_{i+1}) / m_i.
    for (int i = 0; i < n; ++i) {
      Eigen::Vector3d da = -(ws.dtension[i] / c.m[i]) * q_of(y, i);
      if (i == k) da -= (ws.tension[i] / c.m[i]) * dq;
      if (i + 1 < n) {
        da += (ws.dtension[i + 1] / c.m[i]) * q_of(y, i + 1);
        if (i + 1 == k) da += (ws.tension[i + 1] / c.m[i]) * dq;
      }
      ws.dacc.col(i) = da;
    }
    for (int i = 0; i < n; ++i) {
      const Eigen::Vector3d dqdd = (i == 0 ? ws.dacc.col(0) : Eigen::Vector3d(ws.dacc.col(i) - ws.dacc.col(i - 1))) / c.L[i];
      Eigen::Vector3d dwdot = q_of(y, i).cross(dqdd);
      if (i == k) dwdot += dq.cross(Eigen::Vector3d(ws.qdd.col(i)));
      J.block<3, 1>(6 * i + 3, col) = dwdot;
    }
    // d(w_k x q_k) = dw x q_k + w_k x dq.
    J.block<3, 1>(6 * k, col) = dw.cross(qk) + wk.cross(dq);
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
