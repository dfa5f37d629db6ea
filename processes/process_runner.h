#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "processes/process_progress.h"
#include "writer/process_merge.h"

namespace gbx {

// The flags a parent keeps for itself (outputs, the process plan, progress) and never hands a child.
bool is_parent_only_flag(const std::string& arg);
std::vector<std::string> child_arguments(const std::vector<std::string>& args);

// A started child: its pid, its stdin (when asked for) and its stdout or report descriptor 3.
struct Spawned {
  pid_t pid = -1;
  int input = -1;
  int output = -1;
};

// Starts binary with args (closed-on-exec pipes). capture_stdout: the child's stdout comes back on
// `output`; otherwise its stdout goes to our stderr (what a benchmark prints must not mix with a
// record on stdout) and `output` is its descriptor 3, the report channel. Throws std::runtime_error.
Spawned spawn(const std::string& binary, const std::vector<std::string>& args, bool with_input, bool capture_stdout);

// How a child ended, e.g. "died of SIGSEGV" or "exited with code 3", from waitpid's status.
std::string exit_text(int status);

// The path of this process's own executable (/proc/self/exe), for re-executing it.
std::string self_executable();

// The benchmarks `binary` selects with `args`, in Google Benchmark's order (it runs with
// --benchmark_list_tests). Throws std::runtime_error naming the binary when it cannot list them.
std::vector<std::string> list_benchmarks(const std::string& binary, const std::vector<std::string>& args);

// What `binary --gbx_describe` reports: Google Benchmark's context, the environment and the peaks.
struct BinaryDescription {
  nlohmann::json context;
  nlohmann::json environment;  // with "peaks": {"cpu", "gpu"}
};
BinaryDescription describe_binary(const std::string& binary, const std::vector<std::string>& args);

// Process `process`'s order over `count` benchmarks: a permutation drawn from (seed, process) alone.
std::vector<std::size_t> process_order(std::size_t count, std::uint64_t seed, std::int64_t process);

// A signal's name, e.g. "SIGSEGV".
std::string signal_name(int signal);

// Runs the processes of one binary, one at a time, into `results`. A child that dies while running a
// benchmark gets that benchmark recorded as failed with the cause, and a new child continues with the
// rest of that process's order.
class ProcessRunner {
 public:
  ProcessRunner(std::string binary, const std::vector<std::string>& args, std::vector<std::string> names,
                std::int64_t processes, std::uint64_t order_seed, double benchmark_timeout_seconds);

  // Runs process `index` (0..processes-1) to the end of its order. Returns false when a signal
  // (SIGINT/SIGTERM, to this process or reported by the child) stopped it.
  bool run_process(std::int64_t index, Progress* progress);

  const ProcessRunResults& results() const { return results_; }
  // The interrupting signal, when run_process returned false.
  int interrupt_signal() const { return interrupt_signal_; }

 private:
  std::string binary_;
  std::vector<std::string> args_;
  double timeout_seconds_;
  ProcessRunResults results_;
  int interrupt_signal_ = 0;

  // One child over `pending` (positions into the process's order); removes what it finished or failed.
  bool launch(std::int64_t index, const std::vector<std::size_t>& order, std::vector<std::size_t>& pending,
              Progress* progress);
};

}  // namespace gbx
