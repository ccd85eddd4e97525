// Tests of the example_model plugin, run by `ctest`: the plugin loads into the liesim kernel,
// F agrees with psi_*(f) on M, invalid parameters are refused, and integrators keep what they must.
// Usage: test_model PLUGIN_DIR SHIPPED_PLUGIN_DIR (CMakeLists.txt passes both).
#include <liesim/plugin_testing.hpp>  // Checks, plugins, make_model, run (installed with the SDK)

#include <fmt/format.h>

#include <cmath>
#include <random>

using liesim::testing::contains;

int main(int argc, char** argv) {
  liesim::testing::Checks checks("example_model");
  const auto check = [&](bool ok, const std::string& what) { checks.expect(ok, what); };
  const liesim::Registry registry = liesim::testing::plugins(argc, argv, checks);

  // 1. The embedded field F equals psi_*(f(y))|_y at random points of M (q on S^2, w tangent).
  {
    std::string error;
    auto model = liesim::testing::make_model(registry, "example_model", {}, error);
    check(model != nullptr, "default parameters: " + error);
    if (!model) return 1;
    model->prepare();
    const int n = model->size(), d = model->space().algebra_dim();
    check(n == 6 && d == 6, "state size 6 and algebra dimension 6");
    std::mt19937 rng(1);
    std::normal_distribution<double> normal;
    Eigen::VectorXd y(n), xi(d), F(n), Fpsi(n);
    for (int k = 0; k < 20; ++k) {
      Eigen::Vector3d q(normal(rng), normal(rng), normal(rng)), w(normal(rng), normal(rng), normal(rng));
      q.normalize();
      w -= q.dot(w) * q;
      y << q, w;
      check(model->check_state(y).empty(), "random point lies on M");
      check(model->generator(0.0, y, xi) == liesim::Status::ok, "generator ok");
      check(model->space().generator(xi, y, Fpsi) == liesim::Status::ok, "psi_* ok");
      check(model->vector_field(0.0, y, F) == liesim::Status::ok, "vector field ok");
      check((F - Fpsi).norm() < 1e-12 * (1.0 + F.norm()), fmt::format("F = psi_*(f) (difference {:.3g})", (F - Fpsi).norm()));
    }
  }

  // 2. Parameter validation: each invalid value is refused with a message naming it.
  for (const auto& [params, expected] : std::vector<std::pair<std::map<std::string, std::string>, std::string>>{
           {{{"L", "-1"}}, "'L'"},
           {{{"m", "abc"}}, "'m'"},
           {{{"g", "-9.81"}}, "'g'"},
           {{{"q0", "0,0,0"}}, "'q0'"},
           {{{"q0", "1,0"}}, "'q0'"},
           {{{"w0", "1,0,0"}, {"q0", "1,0,0"}}, "q . w"},
           {{{"mass", "1"}}, "mass"}}) {
    std::string error;
    auto model = liesim::testing::make_model(registry, "example_model", params, error);
    check(model == nullptr && contains(error, expected), fmt::format("refused with '{}' in: {}", expected, error));
  }

  // 3. Runs: Lie group methods keep (q, w) on TS^2 to round-off; every method nearly keeps energy.
  for (const char* method : {"lie_euler", "rkmk4", "rk4"}) {
    const auto r = liesim::testing::run(registry, "example_model", method, 2.0, 0.001);
    const bool lie = std::string(method) != "rk4";
    if (lie) {
      check(std::abs(r.inv[1]) < 1e-13, fmt::format("{}: |q| - 1 = {:.3g} (round-off)", method, r.inv[1]));
      check(std::abs(r.inv[2]) < 1e-12, fmt::format("{}: q . w = {:.3g} (round-off)", method, r.inv[2]));
    }
    const double energy_tol = std::string(method) == "lie_euler" ? 0.5 : 1e-8;
    check(std::abs(r.inv[0] - r.inv0[0]) < energy_tol, fmt::format("{}: energy drift {:.3g}", method, r.inv[0] - r.inv0[0]));
  }

  return checks.finish();
}
