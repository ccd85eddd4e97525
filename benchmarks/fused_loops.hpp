// The baseline of the framework-overhead benchmarks: RK4 and RKMK4 on the N-fold pendulum written
// as one hand-fused loop each (the model's own O(N) tension recursion, static types, no plugin, no
// virtual call, no allocation in the loop), and the non-planar start they share with liesim's runs.
#pragma once
#include <liesim/lie/actions.hpp>

#include <models/pendulum_chain/chain_dynamics.hpp>

#include <Eigen/Dense>

#include <cmath>

namespace fused {

/// Initial state of the chain: a fixed non-planar configuration.
inline Eigen::VectorXd chain_state(int n) {
  Eigen::VectorXd y(6 * n);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d q = Eigen::Vector3d(std::sin(0.3 * i + 1), std::cos(0.7 * i), 0.5).normalized();
    y.segment<3>(6 * i) = q;
    y.segment<3>(6 * i + 3) = q.cross(Eigen::Vector3d(0.1, 0.2, 0.3));
  }
  return y;
}

/// A chain of n unit masses on unit links (liesim's pendulum_chain defaults).
inline liesim::pendulum_chain::Chain unit_chain(int n) {
  liesim::pendulum_chain::Chain c;
  c.m.assign(n, 1.0);
  c.L.assign(n, 1.0);
  return c;
}

/// Hand-written classical RK4 on the chain's vector field (no plugin, no virtual call); y is
/// advanced in place.
inline void rk4(const liesim::pendulum_chain::Chain& c, Eigen::VectorXd& y, double h, int steps) {
  const int n = c.size();
  liesim::pendulum_chain::ChainWorkspace ws(n);
  Eigen::VectorXd k1(6 * n), k2(6 * n), k3(6 * n), k4(6 * n), Y(6 * n);
  auto F = [&](const Eigen::VectorXd& x, Eigen::VectorXd& dx) {
    liesim::pendulum_chain::chain_field(c, x.data(), dx.data(), liesim::pendulum_chain::ChainField::vector_field, ws);
  };
  for (int s = 0; s < steps; ++s) {
    F(y, k1);
    Y = y + 0.5 * h * k1;
    F(Y, k2);
    Y = y + 0.5 * h * k2;
    F(Y, k3);
    Y = y + h * k3;
    F(Y, k4);
    y += (h / 6) * (k1 + 2 * k2 + 2 * k3 + k4);
  }
}

/// The leanest RK4 loop on the chain we could write: one stage vector k, and each stage's sum fused
/// with the update's accumulation in a single pass over raw arrays (four passes per step, three
/// vectors live). Steps run on the time grid t_k = k h (h_k = t_{k+1} - t_k, no drift of a summed
/// t), and the update is accumulated left to right with the weights h_k b_i, as liesim's driver and
/// ERK stepper do, so its final state equals liesim's rk4 bit for bit (checked by
/// benchmarks/classical_path.sh before it counts). y0 is advanced in place.
inline void rk4_lean(const liesim::pendulum_chain::Chain& c, Eigen::VectorXd& y0, double h, int steps) {
  const int n = c.size(), m = 6 * n;
  liesim::pendulum_chain::ChainWorkspace ws(n);
  Eigen::VectorXd kv(m), Yv(m), accv(m);
  double* __restrict y = y0.data();
  double* __restrict k = kv.data();
  double* __restrict Y = Yv.data();
  double* __restrict acc = accv.data();
  using liesim::pendulum_chain::ChainField;
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    const double t_next = static_cast<double>(s + 1) * h, hs = t_next - t;
    const double half = hs * 0.5, third = hs * (1.0 / 3), sixth = hs * (1.0 / 6);
    liesim::pendulum_chain::chain_field(c, y, k, ChainField::vector_field, ws);
    for (int i = 0; i < m; ++i) {
      Y[i] = y[i] + half * k[i];
      acc[i] = y[i] + sixth * k[i];
    }
    liesim::pendulum_chain::chain_field(c, Y, k, ChainField::vector_field, ws);
    for (int i = 0; i < m; ++i) {
      Y[i] = y[i] + half * k[i];
      acc[i] += third * k[i];
    }
    liesim::pendulum_chain::chain_field(c, Y, k, ChainField::vector_field, ws);
    for (int i = 0; i < m; ++i) {
      Y[i] = y[i] + hs * k[i];
      acc[i] += third * k[i];
    }
    liesim::pendulum_chain::chain_field(c, Y, k, ChainField::vector_field, ws);
    for (int i = 0; i < m; ++i) y[i] = acc[i] + sixth * k[i];
    t = t_next;
  }
}

/// Hand-written RKMK4 with exact dexpinv on (TS^2)^N under SE(3)^N, static types only; y is
/// advanced in place.
inline void rkmk4(const liesim::pendulum_chain::Chain& c, Eigen::VectorXd& y, double h, int steps) {
  const int n = c.size();
  liesim::pendulum_chain::ChainWorkspace ws(n);
  Eigen::VectorXd Y(6 * n), u(6 * n), sigma(6 * n);
  Eigen::MatrixXd K(6 * n, 4);
  using A = liesim::lie::SE3OnTS2;
  auto f = [&](const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> xi) {
    liesim::pendulum_chain::chain_field(c, x.data(), xi.data(), liesim::pendulum_chain::ChainField::generator, ws);
  };
  auto act = [&](const Eigen::VectorXd& s, const Eigen::VectorXd& x, Eigen::VectorXd& out) {
    for (int i = 0; i < n; ++i) out.segment<6>(6 * i) = A::act_exp(s.segment<6>(6 * i), x.segment<6>(6 * i));
  };
  const double a[4] = {0, 0.5, 0.5, 1};
  for (int s = 0; s < steps; ++s) {
    f(y, K.col(0));
    for (int st = 1; st < 4; ++st) {
      u = (h * a[st]) * K.col(st - 1);
      act(u, y, Y);
      f(Y, K.col(st));
      for (int i = 0; i < n; ++i)
        K.col(st).segment<6>(6 * i) = liesim::lie::SE3::dexpinv(u.segment<6>(6 * i), K.col(st).segment<6>(6 * i));
    }
    sigma = (h / 6) * (K.col(0) + 2 * K.col(1) + 2 * K.col(2) + K.col(3));
    act(sigma, y, Y);
    y = Y;
  }
}

}  // namespace fused
