// Observers that leave the program: CSV time series, adaptive step log, invariant drift.
#pragma once
#include <liesim/model.hpp>
#include <liesim/observer.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace liesim {

/// Tracks each invariant of a model over a run: initial and final value, max |I(t) - I(0)|.
class InvariantMonitor final : public Observer {
 public:
  explicit InvariantMonitor(const Model& model);
  void on_output(double t, ConstVec y) override;
  const std::vector<InvariantInfo>& info() const { return info_; }
  const Eigen::VectorXd& initial() const { return initial_; }
  const Eigen::VectorXd& current() const { return current_; }
  const Eigen::VectorXd& max_abs_drift() const { return drift_; }

 private:
  const Model& model_;
  std::vector<InvariantInfo> info_;
  Eigen::VectorXd initial_, current_, drift_;
  bool first_ = true;
};

/// Writes the CSV time series: header `t, <state names>, <invariant names>`, one row per
/// output point, each row flushed at once so that a failed run keeps what it computed.
class CsvWriter final : public Observer {
 public:
  /// Opens `path` for writing (throws liesim::Error naming the file on failure).
  CsvWriter(const std::string& path, const Model& model);
  ~CsvWriter() override;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  void on_output(double t, ConstVec y) override;
  /// False once a write failed (disk full, file not writable).
  bool ok() const { return ok_; }

 private:
  std::FILE* file_ = nullptr;
  bool ok_ = true;
  const Model& model_;
  Eigen::VectorXd inv_;
};

/// Writes every step attempt of an adaptive run: t, h, error, accepted (`--steps FILE.csv`).
class StepLog final : public Observer {
 public:
  explicit StepLog(const std::string& path);
  ~StepLog() override;
  StepLog(const StepLog&) = delete;
  StepLog& operator=(const StepLog&) = delete;
  void on_output(double, ConstVec) override {}
  void on_step(double t, double h, double error, bool accepted) override;
  /// False once a write failed (disk full, file not writable).
  bool ok() const { return ok_; }

 private:
  std::FILE* file_ = nullptr;
  bool ok_ = true;
};

/// Open a file for writing or throw liesim::Error naming it.
std::FILE* open_for_writing(const std::string& path, const char* what);

}  // namespace liesim
