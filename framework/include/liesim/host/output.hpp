// Observers that leave the program: CSV time series, adaptive step log, invariant drift.
#pragma once
#include <liesim/sdk/method_info.hpp>
#include <liesim/sdk/model_view.hpp>
#include <liesim/host/observer.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace liesim {

/// Tracks each invariant of a model over a run: initial and final value, max |I(t) - I(0)|; and
/// the method's diagnostics: the conserved ones as invariants (drift measured from their value
/// after the first step, as the variational literature does), the others by their range; and the
/// model's observables by their range and last value.
class InvariantMonitor final : public Observer {
 public:
  explicit InvariantMonitor(const ModelView& model, const std::vector<DiagnosticInfo>& diagnostics = {});
  void on_output(double t, ConstVec y) override;
  void on_diagnostics(ConstVec values) override;
  /// The model's invariants, then the method's conserved diagnostics.
  const std::vector<InvariantInfo>& info() const { return info_; }
  const Eigen::VectorXd& initial() const { return initial_; }
  const Eigen::VectorXd& current() const { return current_; }
  const Eigen::VectorXd& max_abs_drift() const { return drift_; }
  /// Every diagnostic of the method, with its smallest, largest and last value (NaN before the first step).
  const std::vector<DiagnosticInfo>& diagnostics() const { return diag_info_; }
  const Eigen::VectorXd& diagnostic_min() const { return diag_min_; }
  const Eigen::VectorXd& diagnostic_max() const { return diag_max_; }
  const Eigen::VectorXd& diagnostic_last() const { return diag_last_; }
  /// The model's observables, with their smallest, largest and last value over the output points.
  const std::vector<ObservableInfo>& observables() const { return obs_info_; }
  const Eigen::VectorXd& observable_min() const { return obs_min_; }
  const Eigen::VectorXd& observable_max() const { return obs_max_; }
  const Eigen::VectorXd& observable_last() const { return obs_last_; }

 private:
  void track(Eigen::Index i, double value, bool first);
  const ModelView& model_;
  std::vector<InvariantInfo> info_;
  Eigen::VectorXd initial_, current_, drift_;
  Eigen::Index model_count_ = 0;
  std::vector<DiagnosticInfo> diag_info_;
  std::vector<Eigen::Index> conserved_;  // diagnostic index of each conserved entry of info_ past the model's
  std::vector<bool> started_;            // a conserved diagnostic has its reference value
  Eigen::VectorXd diag_min_, diag_max_, diag_last_, model_values_;
  std::vector<ObservableInfo> obs_info_;
  Eigen::VectorXd obs_min_, obs_max_, obs_last_;
  bool first_ = true;
};

/// Writes the CSV time series: header `t, <state names>, <invariant names>, <observable names>,
/// <diagnostic names>`,
/// one row per output point (diagnostics: their values after the last step, nan before the
/// first), each row flushed at once so that a failed run keeps what it computed.
class CsvWriter final : public Observer {
 public:
  /// Opens `path` for writing (throws liesim::Error naming the file on failure).
  CsvWriter(const std::string& path, const ModelView& model, const std::vector<DiagnosticInfo>& diagnostics = {});
  ~CsvWriter() override;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  void on_output(double t, ConstVec y) override;
  void on_diagnostics(ConstVec values) override { diag_ = values; }
  /// False once a write failed (disk full, file not writable).
  bool ok() const { return ok_; }

 private:
  std::FILE* file_ = nullptr;
  bool ok_ = true;
  const ModelView& model_;
  Eigen::VectorXd inv_, obs_, diag_;
};

/// Writes every step attempt of an adaptive run, and every step a self-controlled solver reports:
/// t, h, error, accepted, then the method's diagnostics after that step (`--steps FILE.csv`).
class StepLog final : public Observer {
 public:
  explicit StepLog(const std::string& path, const std::vector<DiagnosticInfo>& diagnostics = {});
  ~StepLog() override;
  StepLog(const StepLog&) = delete;
  StepLog& operator=(const StepLog&) = delete;
  void on_output(double, ConstVec) override {}
  void on_step(double t, double h, double error, bool accepted) override;
  void on_diagnostics(ConstVec values) override { diag_ = values; }
  /// False once a write failed (disk full, file not writable).
  bool ok() const { return ok_; }

 private:
  std::FILE* file_ = nullptr;
  bool ok_ = true;
  Eigen::VectorXd diag_;
};

/// Open a file for writing or throw liesim::Error naming it.
std::FILE* open_for_writing(const std::string& path, const char* what);

}  // namespace liesim
