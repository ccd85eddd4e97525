// CSV time series, step log and invariant monitoring.
#include <liesim/host/output.hpp>
#include <liesim/sdk/status.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace liesim {

std::FILE* open_for_writing(const std::string& path, const char* what) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw Error(fmt::format("cannot write {} '{}': {}", what, path, std::strerror(errno)));
  return f;
}

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}

InvariantMonitor::InvariantMonitor(const ModelView& model, const std::vector<DiagnosticInfo>& diagnostics)
    : model_(model), info_(model.invariants()), diag_info_(diagnostics) {
  model_count_ = static_cast<Eigen::Index>(info_.size());
  for (std::size_t k = 0; k < diagnostics.size(); ++k)
    if (diagnostics[k].conserved) {
      info_.push_back({diagnostics[k].name, diagnostics[k].doc + " (the method's; drift from its value after the first step)"});
      conserved_.push_back(static_cast<Eigen::Index>(k));
      started_.push_back(false);
    }
  const auto k = static_cast<Eigen::Index>(info_.size());
  initial_ = current_ = drift_ = Eigen::VectorXd::Zero(k);
  initial_.tail(k - model_count_).setConstant(nan);
  current_.tail(k - model_count_).setConstant(nan);
  model_values_ = Eigen::VectorXd::Zero(model_count_);
  const auto d = static_cast<Eigen::Index>(diagnostics.size());
  diag_min_ = diag_max_ = diag_last_ = Eigen::VectorXd::Constant(d, nan);
  obs_info_ = model.observables();
  obs_min_ = obs_max_ = obs_last_ = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(obs_info_.size()), nan);
}

namespace {
/// Smallest and largest value seen, NaN skipped (NaN until a finite value arrives).
void widen(Eigen::VectorXd& lo, Eigen::VectorXd& hi, ConstVec values) {
  for (Eigen::Index k = 0; k < values.size(); ++k) {
    const double v = values[k];
    if (std::isnan(v)) continue;
    if (std::isnan(lo[k]) || v < lo[k]) lo[k] = v;
    if (std::isnan(hi[k]) || v > hi[k]) hi[k] = v;
  }
}
}  // namespace

void InvariantMonitor::track(Eigen::Index i, double value, bool first) {
  current_[i] = value;
  if (first) initial_[i] = value;
  const double d = std::abs(current_[i] - initial_[i]);
  // A NaN invariant is a drift that must show: keep it.
  if (d > drift_[i] || std::isnan(d)) drift_[i] = d;
}

void InvariantMonitor::on_output(double t, ConstVec y) {
  model_.evaluate_invariants(y, model_values_);
  for (Eigen::Index i = 0; i < model_count_; ++i) track(i, model_values_[i], first_);
  first_ = false;
  if (obs_last_.size() > 0) {
    (void)model_.evaluate_observables(t, y, obs_last_);  // NaN on failure
    widen(obs_min_, obs_max_, obs_last_);
  }
}

void InvariantMonitor::on_diagnostics(ConstVec values) {
  const Eigen::Index n = std::min(values.size(), diag_last_.size());
  diag_last_.head(n) = values.head(n);
  widen(diag_min_, diag_max_, diag_last_);
  for (std::size_t c = 0; c < conserved_.size(); ++c) {
    const Eigen::Index k = conserved_[c];
    if (k >= values.size()) continue;
    track(model_count_ + static_cast<Eigen::Index>(c), values[k], !started_[c]);
    started_[c] = true;
  }
}

CsvWriter::CsvWriter(const std::string& path, const ModelView& model, const std::vector<DiagnosticInfo>& diagnostics)
    : file_(open_for_writing(path, "output CSV")),
      model_(model),
      inv_(static_cast<Eigen::Index>(model.invariants().size())),
      obs_(static_cast<Eigen::Index>(model.observable_count())),
      diag_(Eigen::VectorXd::Constant(static_cast<Eigen::Index>(diagnostics.size()), nan)) {
  std::string header = "t";
  for (const auto& n : model.state_names()) header += "," + n;
  for (const auto& i : model.invariants()) header += "," + i.name;
  for (const auto& o : model.observables()) header += "," + o.name;
  for (const auto& d : diagnostics) header += "," + d.name;
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
  if (obs_.size() > 0) (void)model_.evaluate_observables(t, y, obs_);  // NaN on failure
  for (Eigen::Index i = 0; i < obs_.size(); ++i) fmt::format_to(std::back_inserter(row), ",{:.17g}", obs_[i]);
  for (Eigen::Index i = 0; i < diag_.size(); ++i) fmt::format_to(std::back_inserter(row), ",{:.17g}", diag_[i]);
  row.push_back('\n');
  ok_ = ok_ && std::fwrite(row.data(), 1, row.size(), file_) == row.size() && std::fflush(file_) == 0;
}

StepLog::StepLog(const std::string& path, const std::vector<DiagnosticInfo>& diagnostics)
    : file_(open_for_writing(path, "step log CSV")), diag_(Eigen::VectorXd::Constant(static_cast<Eigen::Index>(diagnostics.size()), nan)) {
  std::string header = "t,h,error,accepted";
  for (const auto& d : diagnostics) header += "," + d.name;
  header += "\n";
  ok_ = std::fputs(header.c_str(), file_) >= 0 && std::fflush(file_) == 0;
}

StepLog::~StepLog() {
  if (file_) std::fclose(file_);
}

void StepLog::on_step(double t, double h, double error, bool accepted) {
  if (!ok_) return;
  fmt::memory_buffer row;
  fmt::format_to(std::back_inserter(row), "{:.17g},{:.17g},{:.17g},{}", t, h, error, accepted ? 1 : 0);
  // The diagnostics belong to accepted steps (a rejected step leaves them empty).
  for (Eigen::Index i = 0; i < diag_.size(); ++i) {
    if (accepted) fmt::format_to(std::back_inserter(row), ",{:.17g}", diag_[i]);
    else row.push_back(',');
  }
  row.push_back('\n');
  ok_ = std::fwrite(row.data(), 1, row.size(), file_) == row.size() && std::fflush(file_) == 0;
}

}  // namespace liesim
