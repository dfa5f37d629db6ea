#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "processes/process_runner.h"
#include "writer/process_merge.h"

namespace gbx {

// What one block of a worker (runner/worker_child.h) gave back.
struct WorkerBlock {
  enum class Status { ok, failed, interrupted };
  Status status = Status::ok;
  std::string failure;        // with failed: why (the benchmark's error, or how the worker died)
  bool worker_lost = false;   // the worker died or was killed: start a fresh one to go on
  std::int64_t start_ns = 0;  // CLOCK_MONOTONIC, shared by every process of the machine
  std::int64_t end_ns = 0;
  std::vector<ProcessRow> rows;  // Google Benchmark's rows and the fixture's records, as a child's
  int signal = 0;                // with interrupted: the signal
  // Where the worker shares its pair's pages (processes/pair_memory_directory.h): the large host arrays
  // of the block's setup on the shared pages and on its own, and why any are its own; -1: not sharing.
  std::int64_t shared_bytes = -1;
  std::int64_t private_bytes = -1;
  std::string why_private;
};

// The parent's end of one worker process: started with --gbx_worker=3, it stays alive across
// blocks and benchmarks until this object is destroyed (its stdin closed, then waited for).
class Worker {
 public:
  Worker(const std::string& binary, const std::vector<std::string>& args);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Runs one block of `samples` samples of benchmark `name`, after at most `warmup` warm-up runs (0:
  // the declared warm-up). timeout_seconds > 0: a block that runs longer has its worker killed and is
  // failed with that cause. A SIGINT/SIGTERM to this process is passed on (the worker stops at its next
  // sample) and the block comes back interrupted.
  // memory_key names the arrays the pair shares (the row; both workers must give the same).
  WorkerBlock run_block(const std::string& name, std::int64_t samples, std::int64_t warmup, double timeout_seconds,
                        const std::string& memory_key = "");

  bool alive() const { return alive_; }
  std::int64_t pid() const { return pid_; }
  // Why the worker could not start or died, when !alive().
  const std::string& lost_because() const { return lost_; }

 private:
  Spawned child_;
  std::int64_t pid_ = 0;
  bool alive_ = false;
  std::string lost_;
  std::string buffer_;
  std::int64_t next_block_ = 0;

  // The next complete line from the worker, or false at its end, after a timeout or an interrupt.
  enum class Read { line, closed, timed_out, interrupted };
  Read read_line(std::string& line, double timeout_seconds);
  std::string reap(bool kill_first);
};

}  // namespace gbx
