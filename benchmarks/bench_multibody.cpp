// liesim's multibody model against Simbody's forward dynamics (issue 27), in one process: CPU time
// per model evaluation on the shipped 7-joint arm (models/multibody/examples/arm7.urdf) and on a
// 30-body chain of rods generated here (written as a TOML description for liesim, built from the
// same table with Simbody's pins).
//   liesim:  the multibody plugin loaded from this build, Model::generator(t, y, xi), the call the
//            Lie group integrators make (the C plugin boundary, the articulated-body algorithm,
//            the kinematics and the generator's packing included);
//   Simbody: PinChain::accelerations (tests/models/simbody_systems.cpp): new q and u written into
//            the State, then realize(Stage::Acceleration), Simbody's own forward dynamics.
// Both sides cycle through the same 16 random states, so neither can reuse a cached result. Before
// timing, the joint accelerations of both sides must agree on every state (else exit 1).
//   build/bin/bench_multibody [--rounds R] [--batch SECONDS]
//       R interleaved rounds (default 11; liesim first in even rounds, Simbody first in odd ones),
//       each timing one batch of about SECONDS (default 0.1) of CPU time per side and system
//       (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)); prints the medians and the median of the
//       per-round ratios Simbody / liesim.
//   build/bin/bench_multibody --count arm7|chain30 liesim|simbody N
//       the check, then N evaluations of one side (benchmarks/multibody.sh runs this under
//       callgrind at two values of N: the difference is the cost of the evaluations alone).
#include "models/simbody_systems.hpp"

#include <liesim/host/catalog.hpp>
#include <liesim/host/registry.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using simbody_systems::PinLink;

/// A system on both sides and the states it is evaluated at.
struct System {
  std::string name;
  std::unique_ptr<liesim::ModelView> model;
  std::unique_ptr<simbody_systems::PinChain> simbody;
  std::vector<Eigen::VectorXd> y;         ///< liesim's states: (q, v) per joint
  std::vector<std::vector<double>> q, u;  ///< the same states for Simbody
  Eigen::VectorXd xi;                     ///< liesim's generator: (v, qdd) per joint
  std::vector<double> udot;               ///< Simbody's accelerations
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "bench_multibody: %s\n", what.c_str());
  std::exit(1);
}

/// 30 uniform rods, 0.2 m and 0.5 kg each, hanging from one another; the pins turn about y and x
/// alternately, so that the chain moves in space.
std::vector<PinLink> chain_links(int n) {
  const double m = 0.5, h = 0.2, r = 0.01, across = m * (3 * r * r + h * h) / 12, along = m * r * r / 2;
  std::vector<PinLink> links;
  for (int k = 0; k < n; ++k)
    links.push_back({m, {0, 0, -h / 2}, {across, across, along}, {0, 0, k == 0 ? 0.0 : -h}, {k % 2 == 0 ? 0.0 : 1.0, k % 2 == 0 ? 1.0 : 0.0, 0}});
  return links;
}

std::string toml_array(const std::array<double, 3>& a) { return fmt::format("[{:.17g}, {:.17g}, {:.17g}]", a[0], a[1], a[2]); }

/// The chain as liesim's TOML description (link1..linkN, joints j1..jN).
std::string chain_toml(const std::vector<PinLink>& links) {
  std::string s = "name = \"benchmark chain\"\ngravity = [0.0, 0.0, -9.81]\n";
  for (std::size_t k = 0; k < links.size(); ++k)
    s += fmt::format("\n[[body]]\nname = \"link{}\"\nmass = {:.17g}\ncom = {}\ninertia = {}\n", k + 1, links[k].mass, toml_array(links[k].com),
                     toml_array(links[k].inertia));
  for (std::size_t k = 0; k < links.size(); ++k)
    s += fmt::format("\n[[joint]]\nname = \"j{}\"\ntype = \"revolute\"\nparent = \"{}\"\nchild = \"link{}\"\nxyz = {}\naxis = {}\n", k + 1,
                     k == 0 ? std::string("world") : fmt::format("link{}", k), k + 1, toml_array(links[k].origin), toml_array(links[k].axis));
  return s;
}

std::unique_ptr<liesim::ModelView> liesim_model(const std::string& file) {
  static liesim::Registry registry = [] {
    liesim::Registry r;
    r.load_directories({LIESIM_BENCH_PLUGIN_DIR});
    return r;
  }();
  std::string error;
  std::unique_ptr<liesim::ModelView> m = liesim::model_instance(registry.model("multibody"), error, {{"file", file}});
  if (!m) fail("multibody: " + error);
  if (m->prepare() != liesim::Status::ok) fail("multibody: prepare: " + m->last_error());
  return m;
}

System make_system(const std::string& name, const std::string& file, const std::vector<PinLink>& links) {
  System s;
  s.name = name;
  s.model = liesim_model(file);
  s.simbody = std::make_unique<simbody_systems::PinChain>(links);
  const int n = s.simbody->dof();
  if (s.model->size() != 2 * n) fail(fmt::format("{}: liesim's state has {} numbers, Simbody's chain {} joints", name, s.model->size(), n));
  std::mt19937 random(27);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int k = 0; k < 16; ++k) {
    Eigen::VectorXd y(2 * n);
    std::vector<double> q(n), u(n);
    for (int j = 0; j < n; ++j) {
      y[2 * j] = q[j] = uniform(random);
      y[2 * j + 1] = u[j] = uniform(random);
    }
    s.y.push_back(y);
    s.q.push_back(q);
    s.u.push_back(u);
  }
  s.xi.resize(2 * n);
  s.udot.resize(n);
  return s;
}

/// Both sides' joint accelerations on every state agree to 1e-9 of their size; else exit 1.
void check(System& s) {
  double worst = 0;
  for (std::size_t k = 0; k < s.y.size(); ++k) {
    if (s.model->generator(0.0, s.y[k], s.xi) != liesim::Status::ok) fail(s.name + ": generator: " + s.model->last_error());
    s.simbody->accelerations(s.q[k].data(), s.u[k].data(), s.udot.data());
    double scale = 1, diff = 0;
    for (std::size_t j = 0; j < s.udot.size(); ++j) {
      scale = std::max(scale, std::abs(s.udot[j]));
      diff = std::max(diff, std::abs(s.xi[static_cast<Eigen::Index>(2 * j + 1)] - s.udot[j]));
      if (s.xi[static_cast<Eigen::Index>(2 * j)] != s.u[k][j]) fail(s.name + ": the generator's first component of a joint is not its rate");
    }
    worst = std::max(worst, diff / scale);
    if (!(diff <= 1e-9 * scale))
      fail(fmt::format("{}: state {}: liesim's and Simbody's joint accelerations differ by {:.3e} (scale {:.3e}): not the same system", s.name, k,
                       diff, scale));
  }
  std::printf("%-8s %2zu joints: liesim and Simbody agree on 16 random states, max |qdd - udot| / max(1, |udot|) = %.1e\n", s.name.c_str(),
              s.udot.size(), worst);
}

/// n evaluations on each side, cycling through the states; the sum of the last joint's
/// accelerations (the same on both sides: it keeps every evaluation's result live).
double run_liesim(System& s, long n) {
  double sum = 0;
  const Eigen::Index last = s.xi.size() - 1;
  for (long i = 0; i < n; ++i) {
    if (s.model->generator(0.0, s.y[static_cast<std::size_t>(i % 16)], s.xi) != liesim::Status::ok) fail(s.model->last_error());
    sum += s.xi[last];
  }
  return sum;
}

double run_simbody(System& s, long n) {
  double sum = 0;
  for (long i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i % 16);
    s.simbody->accelerations(s.q[k].data(), s.u[k].data(), s.udot.data());
    sum += s.udot.back();
  }
  return sum;
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// One side's timings: evaluations per batch and CPU seconds per evaluation, one per round.
struct Side {
  explicit Side(double (*f)(System&, long)) : run(f) {}
  double (*run)(System&, long);
  long batch = 0;
  std::vector<double> per_eval;
  double checksum = 0;

  void time(System& s) {
    const double t0 = cpu_seconds();
    checksum = run(s, batch);
    per_eval.push_back((cpu_seconds() - t0) / static_cast<double>(batch));
  }
  /// Evaluations in `seconds` of CPU time (after 64 warm-up evaluations).
  void calibrate(System& s, double seconds) {
    run(s, 64);
    const double t0 = cpu_seconds();
    run(s, 256);
    batch = std::max(16L, static_cast<long>(seconds / ((cpu_seconds() - t0) / 256)) / 16 * 16);
  }
};

std::string count_mode(std::vector<System>& systems, const std::string& name, const std::string& side, long n) {
  for (System& s : systems)
    if (s.name == name) {
      if (side == "liesim") return fmt::format("{:.17g}", run_liesim(s, n));
      if (side == "simbody") return fmt::format("{:.17g}", run_simbody(s, n));
      fail("--count: the side is liesim or simbody, not '" + side + "'");
    }
  fail("--count: the system is arm7 or chain30, not '" + name + "'");
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 11;
  double batch_seconds = 0.1;
  std::vector<std::string> count;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (a == "--batch" && i + 1 < argc) batch_seconds = std::atof(argv[++i]);
    else if (a == "--count" && i + 3 < argc) count.assign(argv + i + 1, argv + i + 4), i += 3;
    else fail("usage: bench_multibody [--rounds R] [--batch SECONDS] | --count arm7|chain30 liesim|simbody N");
  }
  if (rounds < 1 || !(batch_seconds > 0)) fail("--rounds must be >= 1 and --batch > 0");

  const auto chain = chain_links(30);
  const std::filesystem::path toml = std::filesystem::temp_directory_path() / fmt::format("liesim_bench_chain30_{}.toml", getpid());
  std::ofstream(toml) << chain_toml(chain);
  std::vector<System> systems;
  systems.push_back(make_system("arm7", std::string(LIESIM_BENCH_SOURCE_DIR) + "/models/multibody/examples/arm7.urdf", simbody_systems::arm_links()));
  systems.push_back(make_system("chain30", toml.string(), chain));
  std::filesystem::remove(toml);
  for (System& s : systems) check(s);

  if (!count.empty()) {
    std::printf("checksum %s\n", count_mode(systems, count[0], count[1], std::atol(count[2].c_str())).c_str());
    return 0;
  }

  std::vector<Side> liesim(systems.size(), Side(run_liesim)), simbody(systems.size(), Side(run_simbody));
  for (std::size_t k = 0; k < systems.size(); ++k) {
    liesim[k].calibrate(systems[k], batch_seconds);
    simbody[k].calibrate(systems[k], batch_seconds);
  }
  for (int r = 0; r < rounds; ++r)
    for (std::size_t k = 0; k < systems.size(); ++k) {
      Side& first = r % 2 == 0 ? liesim[k] : simbody[k];
      Side& second = r % 2 == 0 ? simbody[k] : liesim[k];
      first.time(systems[k]);
      second.time(systems[k]);
    }

  std::printf("\nCPU time per evaluation, %d interleaved rounds (median; min-max), batches of ~%.2f s CPU per side:\n\n", rounds, batch_seconds);
  std::printf("| system | joints | liesim [us] | Simbody [us] | Simbody / liesim (median of round ratios) |\n|---|---|---|---|---|\n");
  for (std::size_t k = 0; k < systems.size(); ++k) {
    const Side &a = liesim[k], &b = simbody[k];
    std::vector<double> ratios;
    for (int r = 0; r < rounds; ++r) ratios.push_back(b.per_eval[static_cast<std::size_t>(r)] / a.per_eval[static_cast<std::size_t>(r)]);
    const auto [amin, amax] = std::minmax_element(a.per_eval.begin(), a.per_eval.end());
    const auto [bmin, bmax] = std::minmax_element(b.per_eval.begin(), b.per_eval.end());
    std::printf("| %s | %zu | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.2f |\n", systems[k].name.c_str(), systems[k].udot.size(), 1e6 * median(a.per_eval),
                1e6 * *amin, 1e6 * *amax, 1e6 * median(b.per_eval), 1e6 * *bmin, 1e6 * *bmax, median(ratios));
  }
  // Every evaluation's result was summed; printing the sums keeps them live.
  std::printf("\n(checksums:");
  for (std::size_t k = 0; k < systems.size(); ++k) std::printf(" %.6g %.6g", liesim[k].checksum, simbody[k].checksum);
  std::printf(")\n");
  return 0;
}
