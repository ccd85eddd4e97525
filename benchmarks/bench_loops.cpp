// The hand-written loops of fused_loops.hpp as a program, for instruction counts under callgrind
// (benchmarks/classical_path.sh): runs one loop on the N-fold pendulum from the non-planar start
// and prints the final state, 17 significant digits, one number per line.
//   bench_loops rk4|rk4_lean|rkmk4 N STEPS H
#include "fused_loops.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: bench_loops rk4|rk4_lean|rkmk4 N STEPS H\n");
    return 2;
  }
  const std::string method = argv[1];
  const int n = std::atoi(argv[2]), steps = std::atoi(argv[3]);
  const double h = std::strtod(argv[4], nullptr);
  const auto chain = fused::unit_chain(n);
  Eigen::VectorXd y = fused::chain_state(n);
  if (method == "rk4_lean") fused::rk4_lean(chain, y, h, steps);
  else if (method == "rk4") fused::rk4(chain, y, h, steps);
  else if (method == "rkmk4") fused::rkmk4(chain, y, h, steps);
  else {
    std::fprintf(stderr, "bench_loops: unknown loop '%s' (rk4, rk4_lean, rkmk4)\n", method.c_str());
    return 2;
  }
  for (int i = 0; i < y.size(); ++i) std::printf("%.17g\n", y[i]);
  return 0;
}
