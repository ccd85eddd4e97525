// liesim-vi-precision: the adaptive energy-preserving VI (vi_adaptive_core.hpp, the method
// vi_adaptive's implementation) on the double well in double and in 32 significant digits
// (Boost.Multiprecision), side by side — seed 001 ch. 8, Figs. 8.1–8.2. Plugins exchange doubles, so
// the extended-precision run lives in this program: the same template, another scalar.
#include "../vi_adaptive_core.hpp"

#include <models/double_well/double_well.hpp>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/eigen.hpp>
#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>

namespace {

namespace po = boost::program_options;
using namespace liesim;
using namespace liesim::variational;

/// 32 significant decimal digits (the thesis' MATLAB vpa with digits(32)), without expression templates (Eigen).
using Digits32 = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<32>, boost::multiprecision::et_off>;

struct Setting {
  double m = 1, q0 = 0.5, v0 = 0, h0 = 0.01, t_end = 100;
  std::string solve = "converged";
};

/// What a run measured: max |E_k - E_1| and its steps.
struct Outcome {
  double worst = 0;
  long steps = 0;
  double cpu_s = 0;  ///< the run's CPU time (with its output rows)
};

/// One run to t_end in `Scalar`: a row per step (digits, k, t_k, h_k, E_k - E_1, q_k, v_k) into `out`;
/// throws with the method's reason when a step has no solution.
template <class Scalar>
Outcome run(const Setting& s, int digits, double newton_tol, std::ostream& out) {
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  double_well::Mechanics<Scalar> mech{Scalar(s.m)};
  AdaptiveVi<Scalar, double_well::Mechanics<Scalar>> vi;
  vi.configure(s.solve == "converged" ? AdaptiveSolve::converged : AdaptiveSolve::sequential, 1, newton_tol, 50);
  vi.init(mech, lagrangian_rule("midpoint"), Scalar(0), Vector::Constant(1, Scalar(s.q0)), Vector::Constant(1, Scalar(s.v0)), Scalar(s.h0));
  const std::clock_t start = std::clock();
  Scalar e1 = 0;
  double worst = 0;
  while (vi.t() < Scalar(s.t_end)) {
    if (vi.step() != Status::ok)
      throw std::runtime_error(fmt::format("{} digits: the adaptive VI stopped at t = {} after {} steps: {}", digits,
                                           static_cast<double>(vi.t()), vi.steps(), vi.why() ? vi.why() : "the model failed"));
    if (vi.steps() == 1) e1 = vi.energy();
    using std::abs;
    const double de = static_cast<double>(abs(vi.energy() - e1));
    worst = std::max(worst, de);
    out << fmt::format("{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", digits, vi.steps(), static_cast<double>(vi.t()),
                       static_cast<double>(vi.h()), static_cast<double>(vi.energy() - e1), static_cast<double>(vi.q()[0]),
                       static_cast<double>(vi.velocity()[0]));
  }
  return {worst, vi.steps(), static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC};
}

}  // namespace

int main(int argc, char** argv) {
  Setting s;
  std::string out_path;
  po::options_description options(
      "liesim-vi-precision: the adaptive energy-preserving variational integrator (vi_adaptive) on the double well\n"
      "U(q) = 1/2 (q^4 - q^2) in double and in 32 significant digits (seed 001 ch. 8, Figs. 8.1-8.2).\n"
      "Writes one row per step of each run (digits,k,t,h,energy_error,q,v; energy_error = E_k - E_1) and prints\n"
      "max |E_k - E_1| and the step counts of both runs.\n\nOptions");
  options.add_options()("help", "this text")("m", po::value(&s.m)->default_value(1.0), "mass")(
      "q0", po::value(&s.q0)->default_value(0.5), "initial position")("v0", po::value(&s.v0)->default_value(0.0), "initial velocity")(
      "h0", po::value(&s.h0)->default_value(0.01), "the first step (the discrete energy equation chooses the others)")(
      "t-end", po::value(&s.t_end)->default_value(100.0), "end time (the last step passes it)")(
      "solve", po::value(&s.solve)->default_value("converged"), "converged (Newton on (h, v) jointly) or sequential")(
      "out", po::value(&out_path), "CSV file of the steps (default: none)");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << options << "\n";
      return 0;
    }
    if (!(s.m > 0) || !std::isfinite(s.m)) throw std::runtime_error(fmt::format("--m {} must be positive and finite", s.m));
    if (!(s.h0 > 0) || !std::isfinite(s.h0)) throw std::runtime_error(fmt::format("--h0 {} must be positive and finite", s.h0));
    if (!(s.t_end > 0) || !std::isfinite(s.t_end)) throw std::runtime_error(fmt::format("--t-end {} must be positive and finite", s.t_end));
    if (!std::isfinite(s.q0) || !std::isfinite(s.v0)) throw std::runtime_error("--q0 and --v0 must be finite");
    if (s.solve != "converged" && s.solve != "sequential")
      throw std::runtime_error(fmt::format("--solve '{}': choose converged or sequential", s.solve));
    std::ofstream file;
    std::ostream null(nullptr);
    if (!out_path.empty()) {
      file.open(out_path);
      if (!file) throw std::runtime_error(fmt::format("cannot write '{}'", out_path));
      file << "digits,k,t,h,energy_error,q,v\n";
    }
    std::ostream& out = out_path.empty() ? null : file;
    // Newton stops when its correction is below tol (1 + |x|), then polishes once: tol about 5000 eps of the
    // scalar (vi_adaptive's default 1e-12 in double), above the round-off that the equations' condition amplifies.
    const Outcome d16 = run<double>(s, 16, 1e-12, out);
    const Outcome d32 = run<Digits32>(s, 32, 1e-28, out);
    out.flush();
    if (!out_path.empty() && !file) throw std::runtime_error(fmt::format("writing '{}' failed", out_path));
    std::cout << fmt::format("double well (q0, v0) = ({}, {}), m = {}, h0 = {}, T = {}, {} solve\n", s.q0, s.v0, s.m, s.h0, s.t_end, s.solve)
              << fmt::format("double:    {} steps, max |E_k - E_1| = {:.3g}, CPU {:.3f} s\n", d16.steps, d16.worst, d16.cpu_s)
              << fmt::format("32 digits: {} steps, max |E_k - E_1| = {:.3g}, CPU {:.3f} s\n", d32.steps, d32.worst, d32.cpu_s);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "liesim-vi-precision: error: " << e.what() << "\n";
    return 2;
  }
}
