// Dynamics of the N-fold 3D pendulum (chain of spherical pendula) in O(N) per evaluation.
#pragma once
#include <Eigen/Core>

#include <vector>

namespace liesim::pendulum_chain {

/// Masses m_i, lengths L_i and gravity g of a chain; the pivot is fixed at the origin and
/// gravity points along -e3 (e3 up) [thesis §2.5, §3.4; Lee–Leok–McClamroch 2018].
struct Chain {
  std::vector<double> m;  ///< point masses, kg
  std::vector<double> L;  ///< link lengths, m
  double g = 9.81;        ///< gravitational acceleration, m/s^2
  int size() const { return static_cast<int>(m.size()); }
};

/// Workspace for the O(N) solve and its derivative (allocated once).
struct ChainWorkspace {
  explicit ChainWorkspace(int n)
      : lower(n), diag(n), upper(n), rhs(n), tension(n), mult(n), pivot(n), acc(3, n), qdd(3, n), z(n), dtension(n),
        dacc(3, n) {}
  Eigen::VectorXd lower, diag, upper, rhs, tension;  ///< the tension system T tension = rhs
  Eigen::VectorXd mult, pivot;  ///< its Thomas factorisation: multipliers and eliminated diagonal
  Eigen::Matrix3Xd acc;         ///< accelerations of the masses
  Eigen::Matrix3Xd qdd;         ///< q_i''
  Eigen::VectorXd z, dtension;  ///< directional derivatives (Jacobian)
  Eigen::Matrix3Xd dacc;
};

/// Angular accelerations wdot_i (tangent to S^2 at q_i) of the chain at state y = [q1, w1, ...].
/// Same solution as R(q) wdot = r of thesis (3.4.1)–(3.4.2), computed through the link tensions,
/// which satisfy a symmetric positive definite tridiagonal system (Thomas algorithm, O(N)).
void angular_accelerations(const Chain& chain, const double* y, double* wdot, ChainWorkspace& ws);

/// What chain_field writes, 6 numbers per link.
enum class ChainField {
  generator,    ///< xi = [w_1, q_1 x wdot_1, ...] in se(3)^N (the Lie group methods' f)
  vector_field  ///< F = [w_1 x q_1, wdot_1, ...] in R^6N (the classical methods' field)
};

/// The generator or the embedded field at y, written inside the pass over the links that follows
/// the tension solve (no second pass over the state).
void chain_field(const Chain& chain, const double* y, double* out, ChainField kind, ChainWorkspace& ws);

/// dF/dy of the embedded field F(y) = [w_1 x q_1, wdot_1, ...] (6N x 6N, column-major into J):
/// exact, by differentiating the tension solve (T dtau = d(rhs) - dT tau, with the factorisation of
/// T) along each unit vector; O(N) per column, O(N^2) in all, valid for every y in R^{6N}.
void vector_field_jacobian(const Chain& chain, const double* y, Eigen::Ref<Eigen::MatrixXd> J, ChainWorkspace& ws);

/// Total energy E = 1/2 sum m_i |x_i'|^2 + sum m_i g e3.x_i with x_i = sum_{a<=i} L_a q_a.
double energy(const Chain& chain, const double* y);

}  // namespace liesim::pendulum_chain
