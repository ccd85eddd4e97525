// CSV time series, step log and invariant monitoring.
#include <liesim/io/output.hpp>
#include <liesim/status.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>

namespace liesim {

std::FILE* open_for_writing(const std::string& path, const char* what) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw Error(fmt::format("cannot write {} '{}': {}", what, path, std::strerror(errno)));
  return f;
}

InvariantMonitor::InvariantMonitor(const Model& model) : model_(model), info_(model.invariants()) {
  const auto k = static_cast<Eigen::Index>(info_.size());
  initial_ = current_ = drift_ = Eigen::VectorXd::Zero(k);
}

void InvariantMonitor::on_output(double, ConstVec y) {
  model_.evaluate_invariants(y, current_);
  if (first_) {
    initial_ = current_;
    first_ = false;
  }
  for (Eigen::Index i = 0; i < current_.size(); ++i) {
    const double d = std::abs(current_[i] - initial_[i]);
    // A NaN invariant is a drift that must show: keep it.
    if (d > drift_[i] || std::isnan(d)) drift_[i] = d;
  }
}

CsvWriter::CsvWriter(const std::string& path, const Model& model)
    : file_(open_for_writing(path, "output CSV")), model_(model), inv_(static_cast<Eigen::Index>(model.invariants().size())) {
  std::string header = "t";
  for (const auto& n : model.state_names()) header += "," + n;
  for (const auto& i : model.invariants()) header += "," + i.name;
  fmt::print(file_, "{}\n", header);
  ok_ = std::fflush(file_) == 0;
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

void CsvWriter::on_output(double t, ConstVec y) {
  fmt::memory_buffer row;
  fmt::format_to(std::back_inserter(row), "{:.17g}", t);
  for (Eigen::Index i = 0; i < y.size(); ++i) fmt::format_to(std::back_inserter(row), ",{:.17g}", y[i]);
  model_.evaluate_invariants(y, inv_);
  for (Eigen::Index i = 0; i < inv_.size(); ++i) fmt::format_to(std::back_inserter(row), ",{:.17g}", inv_[i]);
  row.push_back('\n');
  ok_ = ok_ && std::fwrite(row.data(), 1, row.size(), file_) == row.size() && std::fflush(file_) == 0;
}

StepLog::StepLog(const std::string& path) : file_(open_for_writing(path, "step log CSV")) {
  ok_ = std::fputs("t,h,error,accepted\n", file_) >= 0 && std::fflush(file_) == 0;
}

StepLog::~StepLog() {
  if (file_) std::fclose(file_);
}

void StepLog::on_step(double t, double h, double error, bool accepted) {
  if (!ok_) return;
  const auto row = fmt::format("{:.17g},{:.17g},{:.17g},{}\n", t, h, error, accepted ? 1 : 0);
  ok_ = std::fwrite(row.data(), 1, row.size(), file_) == row.size() && std::fflush(file_) == 0;
}

}  // namespace liesim
