// Test support for studies: read a CSV table, compare results apart from timing columns.
#pragma once
#include <liesim/study/results_table.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace liesim::test {

/// A CSV file as header and rows of fields.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// Index of a column, -1 if absent.
  int column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return static_cast<int>(i);
    return -1;
  }
};

inline Table read_table(const std::filesystem::path& file) {
  Table t;
  std::ifstream in(file);
  std::string line;
  bool complete = true;
  if (std::getline(in, line)) t.header = study::split_csv(line, complete);
  while (std::getline(in, line)) t.rows.push_back(study::split_csv(line, complete));
  return t;
}

/// Same header and same values in every column except the timings (wall time, CPU time, paired
/// time ratio).
inline bool same_results(const std::filesystem::path& a, const std::filesystem::path& b) {
  const Table x = read_table(a), y = read_table(b);
  if (x.header != y.header || x.rows.size() != y.rows.size() || x.rows.empty()) return false;
  const int wall = x.column("wall_time_s"), cpu = x.column("cpu_time_s"), paired = x.column("paired_time_ratio");
  for (std::size_t r = 0; r < x.rows.size(); ++r) {
    if (x.rows[r].size() != y.rows[r].size()) return false;
    for (std::size_t c = 0; c < x.rows[r].size(); ++c)
      if (static_cast<int>(c) != wall && static_cast<int>(c) != cpu && static_cast<int>(c) != paired && x.rows[r][c] != y.rows[r][c])
        return false;
  }
  return true;
}

}  // namespace liesim::test
