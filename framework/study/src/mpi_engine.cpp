// The MPI engine: rank 0 coordinates, the other ranks run jobs (each in a child process).
// Built as a module of its own (liesim_mpi.so, linked with Open MPI) and loaded by the command
// only under an MPI launcher (mpi_module.cpp), so that no other command loads libmpi.
#include <liesim/study/engine.hpp>

#include <liesim/sdk/status.hpp>
#include <liesim/study/study_runner.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>

#include <mpi.h>
#include <unistd.h>

namespace liesim::study {

namespace {

// Message tags.
constexpr int tag_job = 1;        // coordinator -> worker: {"tag", "context"}
constexpr int tag_result = 2;     // worker -> coordinator: the outcome
constexpr int tag_phase_end = 3;  // coordinator -> worker: this phase has no more jobs
constexpr int tag_stop = 4;       // coordinator -> worker: stop (interrupted); kill the job in flight

void send_text(const std::string& text, int to, int tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

/// Receive a message already probed (`status`).
std::string receive_text(const MPI_Status& status) {
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(static_cast<std::size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

/// Probe without blocking the process (MPI_Probe would spin a core and ignore signals).
bool poll(int source, int tag, MPI_Status& status) {
  int flag = 0;
  MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &status);
  return flag != 0;
}

nlohmann::json outcome_json(int tag, const ChildOutcome& o) {
  return {{"tag", tag}, {"end", static_cast<int>(o.end)}, {"text", o.text}, {"code", o.code}, {"seconds", o.seconds}, {"stage", o.stage}};
}

ChildOutcome outcome_of(const nlohmann::json& j) {
  ChildOutcome o;
  o.end = static_cast<ChildOutcome::End>(j.at("end").get<int>());
  o.text = j.at("text").get<std::string>();
  o.code = j.at("code").get<int>();
  o.seconds = j.at("seconds").get<double>();
  o.stage = j.value("stage", std::string());
  return o;
}

std::string host_name() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

class MpiEngine final : public Engine {
 public:
  MpiEngine() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // Every rank's host name, for the manifest.
    const std::string mine = host_name();
    std::vector<char> all(static_cast<std::size_t>(size_) * 256, '\0');
    std::vector<char> buffer(256, '\0');
    mine.copy(buffer.data(), 255);
    MPI_Allgather(buffer.data(), 256, MPI_CHAR, all.data(), 256, MPI_CHAR, MPI_COMM_WORLD);
    for (int r = 0; r < size_; ++r) hosts_.insert(std::string(all.data() + static_cast<std::size_t>(r) * 256));
  }
  ~MpiEngine() override { MPI_Finalize(); }

  bool worker() const override { return rank_ != 0; }

  bool run(const std::vector<int>& tags, const RunOptions& opt, const Phase& phase) override {
    return rank_ == 0 ? coordinate(tags, opt, phase) : serve(phase);
  }

  std::string description(const RunOptions&) const override {
    std::string hosts;
    for (const auto& h : hosts_) hosts += (hosts.empty() ? "" : ", ") + h;
    return fmt::format("mpi: {} ranks (1 coordinator, {} workers) on {}", size_, size_ - 1, hosts);
  }

 private:
  /// Rank 0: hand out jobs one at a time to free ranks, collect outcomes, end the phase.
  bool coordinate(const std::vector<int>& tags, const RunOptions& opt, const Phase& phase) {
    std::vector<int> free_ranks;
    for (int r = size_ - 1; r >= 1; --r) free_ranks.push_back(r);
    std::map<int, int> busy;  // rank -> tag
    std::size_t next = 0;
    bool stopped = false;
    std::chrono::steady_clock::time_point grace_end;
    for (;;) {
      const bool stopping = opt.stop_requested && opt.stop_requested();
      if (stopping && !stopped) {
        stopped = true;
        if (opt.on_stop) opt.on_stop(static_cast<int>(busy.size()));
        grace_end = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(opt.grace_s));
      }
      if (stopped && (busy.empty() || std::chrono::steady_clock::now() >= grace_end)) break;
      while (!stopped && !free_ranks.empty() && next < tags.size()) {
        const int tag = tags[next++];
        const int to = free_ranks.back();
        free_ranks.pop_back();
        busy[to] = tag;
        send_text(nlohmann::json{{"tag", tag}, {"context", phase.context(tag)}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), to, tag_job);
      }
      if (!stopped && busy.empty() && next >= tags.size()) break;
      MPI_Status status;
      if (poll(MPI_ANY_SOURCE, tag_result, status)) {
        const auto j = nlohmann::json::parse(receive_text(status));
        busy.erase(status.MPI_SOURCE);
        free_ranks.push_back(status.MPI_SOURCE);
        phase.done(j.at("tag").get<int>(), outcome_of(j));
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    }
    for (int r = 1; r < size_; ++r) send_text("", r, stopped ? tag_stop : tag_phase_end);
    if (stopped) {
      // Outcomes still in flight from ranks told to stop: drain them so that no message is left.
      for (const auto& [r, tag] : busy) {
        MPI_Status status;
        MPI_Probe(r, tag_result, MPI_COMM_WORLD, &status);
        (void)receive_text(status);
      }
    }
    return !stopped;
  }

  /// Ranks 1..: run each job handed out, in a child process, until the phase ends.
  bool serve(const Phase& phase) {
    for (;;) {
      MPI_Status status;
      while (!poll(0, MPI_ANY_TAG, status)) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      const std::string text = receive_text(status);
      if (status.MPI_TAG == tag_phase_end) return true;
      if (status.MPI_TAG == tag_stop) return false;
      const auto j = nlohmann::json::parse(text);
      const int tag = j.at("tag").get<int>();
      ChildOutcome outcome;
      try {
        phase.apply(tag, j.at("context").get<std::string>());
        ChildPool pool;
        pool.start(tag, [&phase, tag] { return phase.job(tag); }, phase.limit(tag));
        for (;;) {
          if (auto r = pool.wait(std::chrono::milliseconds(50))) {
            outcome = r->second;
            break;
          }
          // A stop while the job runs: kill it, answer, and leave.
          if (poll(0, tag_stop, status)) {
            pool.kill_all();
            send_text(outcome_json(tag, outcome).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 0, tag_result);
            (void)receive_text(status);
            return false;
          }
        }
      } catch (const std::exception& e) {
        outcome.end = ChildOutcome::End::not_started;
        outcome.text = fmt::format("rank {}: {}", rank_, e.what());
      }
      send_text(outcome_json(tag, outcome).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 0, tag_result);
    }
  }

  int rank_ = 0, size_ = 1;
  std::set<std::string> hosts_;
};

}  // namespace

}  // namespace liesim::study

/// The module's entry point (mpi_module.cpp looks it up by this name): initialise MPI (once) and
/// return this rank's engine, owned by the caller.
extern "C" __attribute__((visibility("default"))) liesim::study::Engine* liesim_make_mpi_engine() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int argc = 0;
    char** argv = nullptr;
    MPI_Init(&argc, &argv);
  }
  return new liesim::study::MpiEngine();
}
