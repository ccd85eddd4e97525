// The double-well potential U(q) = 1/2 (q^4 - q^2) and the particle's mechanical description,
// generic in the scalar: the plugin evaluates it in double; the adaptive VI in 32 digits
// (integrators/variational/precision/) in an extended-precision number.
#pragma once
#include <liesim/sdk/status.hpp>

namespace liesim::double_well {

/// U(q) = 1/2 (q^4 - q^2) and dU/dq = 2 q^3 - q.
template <class Scalar>
void potential(const Scalar& q, Scalar& U, Scalar& dU_dq) {
  const Scalar q2 = q * q;
  U = (q2 * q2 - q2) / 2;
  dU_dq = 2 * q2 * q - q;
}

/// L(q, v) = 1/2 m v^2 - U(q) as a mechanical description in `Scalar` (variational::BasicDiscreteLagrangian's
/// Mechanics): one degree of freedom, mass m, no force, no explicit time dependence.
template <class Scalar>
struct Mechanics {
  Scalar m = 1;
  int dof() const noexcept { return 1; }
  template <class Matrix>
  void mass_matrix(Matrix& M) const noexcept {
    M(0, 0) = m;
  }
  template <class Q, class G>
  Status potential(const Scalar&, const Q& q, Scalar& U, G& dU_dq, Scalar& dU_dt) const noexcept {
    double_well::potential<Scalar>(q[0], U, dU_dq[0]);
    dU_dt = 0;
    return Status::ok;
  }
  template <class Q, class V, class F>
  Status force(const Scalar&, const Q&, const V&, F& f) const noexcept {
    f.setZero();
    return Status::ok;
  }
};

}  // namespace liesim::double_well
