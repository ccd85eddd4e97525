// Tests of the example_model plugin, run by `ctest`. They read everything they need from the
// model itself (its space, parameters, invariants and their kinds), so they stay about YOUR model
// when you rewrite it: the plugin loads; F = psi_*(f) at random points of M; random points of M
// pass the model's own state check; an unknown or malformed parameter is refused with its name;
// rkmk4 converges with order 4 (against a fine rkmk4 run) and rk4 too; Lie group methods keep
// the state on M; every invariant declared conserved drifts less as h shrinks.
// Add checks of your own below (an exact solution, a published value, a second formulation).
// Usage: test_model PLUGIN_DIR SHIPPED_PLUGIN_DIR (CMakeLists.txt passes both).
#include <liesim/testing/plugin_testing.hpp>  // Checks, plugins, make_model, run (installed with the SDK)

#include <fmt/format.h>

#include <cmath>
#include <random>

namespace {
constexpr const char* model_name = "example_model";
constexpr double t_end = 1.0;  // long enough to leave the start, short enough for fine reference runs
}  // namespace

int main(int argc, char** argv) {
  using namespace liesim::testing;
  Checks checks(model_name);
  const auto check = [&](bool ok, const std::string& what) { checks.expect(ok, what); };
  const liesim::Registry registry = plugins(argc, argv, checks);

  std::string error;
  auto model = make_model(registry, model_name, {}, error);
  check(model != nullptr, "default parameters: " + error);
  if (!model) return checks.finish();
  model->prepare();
  const int n = model->size(), d = model->space().algebra_dim();
  Eigen::VectorXd y0(n);
  model->initial_state(y0);
  check(model->check_state(y0).empty(), "the initial state lies on M: " + model->check_state(y0));

  // 1. F = psi_*(f(y))|_y at random points of M, reached from y0 through the action: y = exp(xi) . y0.
  {
    std::mt19937 rng(1);
    std::normal_distribution<double> normal;
    Eigen::VectorXd y(n), xi(d), F(n), Fpsi(n);
    for (int k = 0; k < 20; ++k) {
      for (int i = 0; i < d; ++i) xi[i] = normal(rng);
      check(model->space().act_exp(xi, y0, y) == liesim::Status::ok, "act_exp ok");
      check(model->check_state(y).empty(), "a point exp(xi) . y0 lies on M: " + model->check_state(y));
      check(model->generator(0.3, y, xi) == liesim::Status::ok, "generator ok");
      check(model->space().generator(xi, y, Fpsi) == liesim::Status::ok, "psi_* ok");
      check(model->vector_field(0.3, y, F) == liesim::Status::ok, "vector field ok");
      check((F - Fpsi).norm() < 1e-12 * (1.0 + F.norm()), fmt::format("F = psi_*(f) (difference {:.3g})", (F - Fpsi).norm()));
    }
  }

  // 2. Parameters: an unknown name, and a malformed value of each parameter, are refused naming it.
  {
    auto none = make_model(registry, model_name, {{"no_such_parameter", "1"}}, error);
    check(none == nullptr && contains(error, "no_such_parameter"), "an unknown parameter is refused: " + error);
    const auto& type = *registry.model(model_name).model;
    for (const auto& p : type.parameters()) {
      auto bad = make_model(registry, model_name, {{p.name, "not-a-value"}}, error);
      check(bad == nullptr && contains(error, p.name), fmt::format("parameter '{}' = not-a-value is refused naming it: {}", p.name, error));
    }
  }

  // 3. Order: rkmk4 and rk4 against a fine rkmk4 run (h / 64): halving h divides the error by ~16.
  for (const char* method : {"rkmk4", "rk4"}) {
    const auto ref = run(registry, model_name, "rkmk4", t_end, 0.01 / 64);
    std::vector<double> steps{0.04, 0.02, 0.01}, errors;
    for (double h : steps) errors.push_back((run(registry, model_name, method, t_end, h).y - ref.y).norm());
    const double p = liesim::loglog_slope(steps, errors);
    check(std::abs(p - 4) < 0.3, fmt::format("{}: observed order {:.3f} (errors {:.3g}, {:.3g}, {:.3g})", method, p, errors[0],
                                             errors[1], errors[2]));
  }

  // 4. Geometry and invariants: Lie group methods end on M (the model's own check); every invariant
  //    declared conserved drifts less at h / 2 than at h (or stays at round-off).
  const auto invariants = model->invariants();
  for (const char* method : {"lie_euler", "rkmk4", "cf4", "rk4"}) {
    const auto coarse = run(registry, model_name, method, t_end, 0.01);
    const auto fine = run(registry, model_name, method, t_end, 0.005);
    if (std::string(method) != "rk4") check(model->check_state(fine.y).empty(), fmt::format("{}: ends on M", method));
    for (std::size_t k = 0; k < invariants.size(); ++k) {
      if (invariants[k].kind != liesim::InvariantKind::conserved) continue;
      const auto i = static_cast<Eigen::Index>(k);
      const double dc = std::abs(coarse.inv[i] - coarse.inv0[i]), df = std::abs(fine.inv[i] - fine.inv0[i]);
      const double roundoff = 1e-12 * std::max(1.0, std::abs(fine.inv0[i]));
      check(df < dc || df < roundoff, fmt::format("{}: {} drifts less at h/2 ({:.3g} -> {:.3g})", method, invariants[k].name, dc, df));
    }
  }
  return checks.finish();
}
