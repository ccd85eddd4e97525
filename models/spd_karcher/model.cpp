// The spd_karcher plugin: the gradient flow of the Karcher-mean objective on symmetric
// positive-definite 3 x 3 matrices with the affine-invariant metric (E. Cokaj's thesis, seed 000,
// Example 11 and Fig. 4.2; notes §2.8, §3.6, §5.4): a non-expansive system on a manifold of
// non-positive curvature, where the geodesic implicit Euler method is B-stable (Thm 4.2).
#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/plugin.hpp>
#include <liesim/sdk/riemannian.hpp>

#include <fmt/format.h>

#include <cmath>

namespace liesim::spd_karcher {

namespace {

using Mat3 = Eigen::Matrix3d;
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

constexpr const char* conventions_text = R"(SPACE       S^3_++, symmetric positive-definite 3 x 3 matrices; state X = [X11 X12 X13 X21 .. X33] (row-major,
            9 numbers, symmetric).
GROUP       GL(3); gl(3) = R^9, a matrix's entries row by row; exp the matrix exponential, bracket the
            commutator, dexpinv the Bernoulli series to order 20 (not a closed form).
ACTION      congruence g . X = g X g^T (left); generator psi_*(Xi)|_X = Xi X + X Xi^T.
FIELD       the negative Riemannian gradient of f(X) = 1/2 sum_j d^2(X, Y_j) (Karcher mean of the data
            Y_1..Y_k): F(X) = sum_j log_X(Y_j) = sum_j X^1/2 logm(X^-1/2 Y_j X^-1/2) X^1/2 (thesis
            (4.3.10)); it flows to the Karcher mean, the unique minimiser, and is monotone with nu <= 0
            (f is geodesically convex on a manifold of curvature in [-1/2, 0]).
GENERATOR   f(X) = 1/2 F(X) X^-1, so that Xi X + X Xi^T = F(X).
METRIC      affine-invariant (ABI 2.3): g_X(U, V) = tr(X^-1 U X^-1 V); exp_X(V) = X^1/2 expm(X^-1/2 V X^-1/2) X^1/2,
            log_X(Y) = X^1/2 logm(X^-1/2 Y X^-1/2) X^1/2, d(X, Y) = sqrt(sum_i log^2 lambda_i(X^-1/2 Y X^-1/2))
            (thesis (4.3.7)-(4.3.9)). The model's distance is this one.
INVARIANTS  asymmetry ||X - X^T||_F (0 on the manifold); objective f(X) (decreasing, not conserved).
PARAMETERS  Y: the data, k symmetric positive-definite matrices as 9k numbers (row-major, k = 1..5);
            X0: the initial matrix (9 numbers). The thesis gives neither; the defaults are ours.
SOURCE      E. Cokaj, PhD thesis NTNU 2024 (seed 000) Example 11, §4.3.1, Fig. 4.2.)";

/// GL(3) acting by congruence, with the affine-invariant distance.
class SpdSpace final : public sdk::HomogeneousSpace {
 public:
  using Action = lie::GLCongruence<3>;
  using G = Action::Group;
  SpdSpace() : sdk::HomogeneousSpace(9, 9) {}
  bool has_exact_dexpinv() const noexcept override { return false; }
  double distance(ConstVec a, ConstVec b) const noexcept override {
    return riemannian::spd_distance<3>(Eigen::Map<const RowMajor3>(a.data()), Eigen::Map<const RowMajor3>(b.data()));
  }

 private:
  Status do_act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept override {
    out = Action::act_exp(G::Algebra(xi), Action::Point(y));
    return out.allFinite() ? Status::ok : Status::recoverable;
  }
  Status do_dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept override {
    out = G::dexpinv(G::Algebra(u), G::Algebra(v));
    return Status::ok;
  }
  Status do_bracket(ConstVec a, ConstVec b, Vec out) const noexcept override {
    out = G::bracket(G::Algebra(a), G::Algebra(b));
    return Status::ok;
  }
  Status do_generator(ConstVec xi, ConstVec y, Vec out) const noexcept override {
    out = Action::generator(G::Algebra(xi), Action::Point(y));
    return Status::ok;
  }
};

class AffineInvariantMetric final : public sdk::RiemannianMetric {
 public:
  Status exp(ConstVec p, ConstVec v, Vec out) const noexcept override {
    Eigen::Map<RowMajor3>(out.data()) = riemannian::spd_exp<3>(Eigen::Map<const RowMajor3>(p.data()), Eigen::Map<const RowMajor3>(v.data()));
    return out.allFinite() ? Status::ok : Status::recoverable;
  }
  Status log(ConstVec p, ConstVec q, Vec v) const noexcept override {
    Eigen::Map<RowMajor3>(v.data()) = riemannian::spd_log<3>(Eigen::Map<const RowMajor3>(p.data()), Eigen::Map<const RowMajor3>(q.data()));
    return v.allFinite() ? Status::ok : Status::fatal;
  }
  double distance(ConstVec p, ConstVec q) const noexcept override {
    return riemannian::spd_distance<3>(Eigen::Map<const RowMajor3>(p.data()), Eigen::Map<const RowMajor3>(q.data()));
  }
};

/// The smallest eigenvalue of the symmetric part (positive on the manifold).
double min_eigenvalue(const Mat3& X) {
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(0.5 * (X + X.transpose()), Eigen::EigenvaluesOnly);
  return eig.eigenvalues()[0];
}

class SpdKarcher final : public sdk::Model {
 public:
  SpdKarcher(std::vector<Mat3> data, const Mat3& X0) : sdk::Model(std::make_unique<SpdSpace>()), data_(std::move(data)), X0_(X0) {}

  void initial_state(Vec y) const override { Eigen::Map<RowMajor3>(y.data()) = X0_; }
  std::vector<std::string> state_names() const override {
    std::vector<std::string> n;
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j) n.push_back(fmt::format("X{}{}", i, j));
    return n;
  }
  std::vector<InvariantInfo> invariants() const override {
    return {{"asymmetry", "||X - X^T||_F (0 on the manifold)"}, {"objective", "f(X) = 1/2 sum_j d^2(X, Y_j) (decreasing along the flow)"}};
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    const Mat3 X = Eigen::Map<const RowMajor3>(y.data());
    out[0] = (X - X.transpose()).norm();
    double f = 0.0;
    for (const Mat3& Y : data_) f += 0.5 * std::pow(riemannian::spd_distance<3>(X, Y), 2);
    out[1] = f;
  }
  std::string check_state(ConstVec y) const override {
    const Mat3 X = Eigen::Map<const RowMajor3>(y.data());
    const double asym = (X - X.transpose()).norm(), scale = X.norm();
    if (!(asym <= 1e-12 * scale)) return fmt::format("X is not symmetric: ||X - X^T||_F = {:.3g} (relative {:.3g} > 1e-12)", asym, asym / scale);
    const double l = min_eigenvalue(X);
    if (!(l > 0)) return fmt::format("X is not positive definite: smallest eigenvalue {:.6g}", l);
    return {};
  }
  const sdk::RiemannianMetric* riemannian() const noexcept override { return &metric_; }

 private:
  Status field(ConstVec y, Mat3& F) const noexcept {
    const Mat3 X = Eigen::Map<const RowMajor3>(y.data());
    const Mat3 Xs = 0.5 * (X + X.transpose());
    if (!(min_eigenvalue(Xs) > 0)) return Status::recoverable;  // off the manifold: a smaller step may stay on it
    F.setZero();
    for (const Mat3& Y : data_) F += riemannian::spd_log<3>(Xs, Y);
    F = 0.5 * (F + F.transpose()).eval();
    return F.allFinite() ? Status::ok : Status::recoverable;
  }
  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    Mat3 F;
    const Status s = field(y, F);
    if (s != Status::ok) return fail(s, "the Karcher field needs a positive-definite X (the state left S^3_++)");
    Eigen::Map<RowMajor3>(dy.data()) = F;
    return Status::ok;
  }
  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    Mat3 F;
    const Status s = field(y, F);
    if (s != Status::ok) return fail(s, "the Karcher field needs a positive-definite X (the state left S^3_++)");
    const Mat3 X = Eigen::Map<const RowMajor3>(y.data());
    Eigen::Map<RowMajor3>(xi.data()) = 0.5 * F * X.inverse();
    return Status::ok;
  }

  std::vector<Mat3> data_;
  Mat3 X0_;
  AffineInvariantMetric metric_;
};

/// A symmetric positive-definite matrix from 9 numbers (row-major) for parameter `key`.
Mat3 spd_parameter(const double* v, const std::string& key) {
  const Mat3 X = Eigen::Map<const RowMajor3>(v);
  const double asym = (X - X.transpose()).cwiseAbs().maxCoeff();
  if (!(asym <= 1e-12 * X.cwiseAbs().maxCoeff()))
    throw Error(fmt::format("parameter '{}': the matrix is not symmetric (max |X_ij - X_ji| = {:.3g}); give 9 numbers row-major", key, asym));
  const double l = min_eigenvalue(X);
  if (!(l > 0) || !X.allFinite())
    throw Error(fmt::format("parameter '{}': not positive definite (smallest eigenvalue {:.6g}); give a symmetric positive-definite matrix", key, l));
  return X;
}

class SpdKarcherType final : public sdk::ModelTypeBase<SpdKarcherType> {
 public:
  std::string summary() const override {
    return "Karcher-mean gradient flow on symmetric positive-definite 3x3 matrices, affine-invariant metric (B-stability, curvature <= 0)";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"Y", "1,0,0,0,2,0,0,0,4, 2,0.5,0,0.5,1,0.2,0,0.2,0.5, 3,-1,0.5,-1,2,0,0.5,0,1", "",
             "the data: k symmetric positive-definite matrices, 9 numbers each (row-major), k = 1..5"},
            {"X0", "5,0,0,0,0.2,0,0,0,1", "", "initial matrix X(0), symmetric positive definite (9 numbers, row-major)"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const auto y = p.numbers("Y", {9, 18, 27, 36, 45});
    std::vector<Mat3> data;
    for (std::size_t j = 0; j < y.size() / 9; ++j) data.push_back(spd_parameter(y.data() + 9 * j, fmt::format("Y (matrix {})", j + 1)));
    const auto x0 = p.numbers("X0", {9});
    return std::make_unique<SpdKarcher>(std::move(data), spd_parameter(x0.data(), "X0"));
  }
};

}  // namespace

}  // namespace liesim::spd_karcher

LIESIM_PLUGIN(model, "spd_karcher", "0.1.0", "Karcher-mean gradient flow on SPD(3), affine-invariant metric",
              liesim::spd_karcher::SpdKarcherType)
