#include "processes/process_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <random>
#include <stdexcept>

#include "model/clock.h"
#include "model/interrupt.h"
#include "writer/run_record_wire.h"

extern char** environ;

namespace gbx {

namespace {

using Clock = std::chrono::steady_clock;

// A pipe whose ends sit above the descriptors a child's dup2 targets, closed on exec.
void make_pipe(int fds[2]) {
  int raw[2];
  if (::pipe2(raw, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  for (int i = 0; i < 2; ++i) {
    fds[i] = ::fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
    ::close(raw[i]);
    if (fds[i] < 0) throw std::runtime_error(std::string("fcntl: ") + std::strerror(errno));
  }
}

std::string read_all(int fd) {
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      text.append(buffer, static_cast<std::size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fd);
  return text;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;  // the child died before reading: its exit status says why
    done += static_cast<std::size_t>(wrote);
  }
}

// SplitMix64: decorrelates the per-process seeds drawn from one order seed.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::string exit_text(int status) {
  if (WIFSIGNALED(status)) return "died of " + signal_name(WTERMSIG(status));
  return "exited with code " + std::to_string(WEXITSTATUS(status));
}

Spawned spawn(const std::string& binary, const std::vector<std::string>& args, bool with_input, bool capture_stdout) {
  int in[2] = {-1, -1};
  int out[2] = {-1, -1};
  if (with_input) make_pipe(in);
  make_pipe(out);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (with_input) posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  if (capture_stdout) {
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  } else {
    posix_spawn_file_actions_adddup2(&actions, 2, 1);
    posix_spawn_file_actions_adddup2(&actions, out[1], 3);
  }
  std::vector<std::string> argv_storage{binary};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  argv.reserve(argv_storage.size() + 1);
  for (auto& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int error = ::posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (with_input) ::close(in[0]);
  ::close(out[1]);
  if (error != 0) {
    if (with_input) ::close(in[1]);
    ::close(out[0]);
    throw std::runtime_error("cannot start " + binary + ": " + std::strerror(error));
  }
  return {pid, with_input ? in[1] : -1, out[0]};
}

bool is_parent_only_flag(const std::string& arg) {
  static const char* const kFlags[] = {"--gbx_processes",
                                       "--gbx_order_seed",
                                       "--gbx_benchmark_timeout",
                                       "--gbx_progress",
                                       "--gbx_out_dir",
                                       "--gbx_child",
                                       "--gbx_describe",
                                       "--benchmark_out",
                                       "--benchmark_out_format",
                                       "--benchmark_format",
                                       "--benchmark_display_aggregates_only",
                                       "--benchmark_report_aggregates_only",
                                       "--benchmark_list_tests"};
  for (const char* flag : kFlags) {
    const std::string name = flag;
    if (arg == name || arg.rfind(name + "=", 0) == 0) return true;
  }
  return false;
}

std::vector<std::string> child_arguments(const std::vector<std::string>& args) {
  std::vector<std::string> kept;
  for (const auto& arg : args) {
    if (!is_parent_only_flag(arg)) kept.push_back(arg);
  }
  return kept;
}

std::string self_executable() {
  char path[4096];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) throw std::runtime_error(std::string("cannot read /proc/self/exe: ") + std::strerror(errno));
  return std::string(path, static_cast<std::size_t>(length));
}

std::string signal_name(int signal) {
  const char* abbreviation = ::sigabbrev_np(signal);
  return abbreviation != nullptr ? std::string("SIG") + abbreviation : "signal " + std::to_string(signal);
}

std::vector<std::string> list_benchmarks(const std::string& binary, const std::vector<std::string>& args) {
  std::vector<std::string> list_args = child_arguments(args);
  list_args.push_back("--benchmark_list_tests=true");
  const Spawned child = spawn(binary, list_args, false, true);
  const std::string text = read_all(child.output);
  const int status = wait_for(child.pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("cannot list the benchmarks of " + binary + ": it " + exit_text(status));
  }
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) names.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

BinaryDescription describe_binary(const std::string& binary, const std::vector<std::string>& args) {
  std::vector<std::string> describe_args = child_arguments(args);
  describe_args.push_back("--gbx_describe=3");
  const Spawned child = spawn(binary, describe_args, false, false);
  const std::string text = read_all(child.output);
  const int status = wait_for(child.pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("cannot describe " + binary + ": it " + exit_text(status));
  }
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_object() || !json.contains("context") || !json.contains("environment")) {
    throw std::runtime_error(binary + " did not describe itself (is it a gbx bench binary?)");
  }
  return {json["context"], json["environment"]};
}

std::vector<std::size_t> process_order(std::size_t count, std::uint64_t seed, std::int64_t process) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  std::mt19937_64 rng(mix(seed ^ mix(static_cast<std::uint64_t>(process))));
  // Fisher-Yates with an unbiased bounded draw, so an order is the same under every standard library.
  for (std::size_t i = count; i > 1; --i) {
    const std::uint64_t bound = i;
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t draw = rng();
    while (draw >= limit) draw = rng();
    std::swap(order[i - 1], order[static_cast<std::size_t>(draw % bound)]);
  }
  return order;
}

ProcessRunner::ProcessRunner(std::string binary, const std::vector<std::string>& args, std::vector<std::string> names,
                             std::int64_t processes, std::uint64_t order_seed, double benchmark_timeout_seconds)
    : binary_(std::move(binary)), args_(child_arguments(args)), timeout_seconds_(benchmark_timeout_seconds) {
  results_.outcomes.resize(names.size());
  results_.names = std::move(names);
  results_.processes = processes;
  results_.order_seed = order_seed;
  std::signal(SIGPIPE, SIG_IGN);  // a child that dies before reading its order must not end us
}

bool ProcessRunner::run_process(std::int64_t index, Progress* progress) {
  const std::vector<std::size_t> order = process_order(results_.names.size(), results_.order_seed, index);
  std::vector<std::size_t> pending(order.size());
  for (std::size_t i = 0; i < pending.size(); ++i) pending[i] = i;
  while (!pending.empty()) {
    if (!launch(index, order, pending, progress)) return false;
  }
  return true;
}

bool ProcessRunner::launch(std::int64_t index, const std::vector<std::size_t>& order, std::vector<std::size_t>& pending,
                           Progress* progress) {
  ProcessLaunch launch;
  launch.process = index;
  launch.started_utc = utc_timestamp();
  std::string names_text;
  for (std::size_t position : pending) {
    launch.order.push_back(results_.names[order[position]]);
    names_text += results_.names[order[position]] + "\n";
  }
  std::vector<std::string> args = args_;
  args.push_back("--gbx_child=3");
  Spawned child;
  try {
    child = spawn(binary_, args, true, false);
  } catch (const std::exception& error) {
    // Nothing of this process's order can run: each benchmark left is failed with the cause.
    for (std::size_t at = 0; at < pending.size(); ++at) {
      ProcessOutcome outcome;
      outcome.process = index;
      outcome.started_utc = launch.started_utc;
      outcome.position = static_cast<std::int64_t>(pending[at]);
      outcome.failure = error.what();
      results_.outcomes[order[pending[at]]].push_back(std::move(outcome));
      if (progress != nullptr) progress->finished(results_.names[order[pending[at]]], true);
    }
    pending.clear();
    return true;
  }
  launch.pid = child.pid;
  write_all(child.input, names_text);
  ::close(child.input);

  std::size_t next = 0;  // into pending: the benchmark the child runs or will run next
  bool running = false;
  Clock::time_point benchmark_start = Clock::now();
  bool child_interrupted = false;
  bool restart_asked = false;  // the child stopped after a failure, for a fresh one to go on
  Clock::time_point forwarded_at{};
  bool forwarded = false;
  bool told = false;
  bool killed = false;
  std::string buffer;
  const auto outcome_at = [&](std::size_t at) {
    ProcessOutcome outcome;
    outcome.process = index;
    outcome.pid = child.pid;
    outcome.started_utc = launch.started_utc;
    outcome.position = static_cast<std::int64_t>(pending[at]);
    return outcome;
  };
  const auto handle = [&](const std::string& line) {
    const auto event = nlohmann::json::parse(line, nullptr, false);
    if (!event.is_object()) return;
    const std::string kind = event.value("event", std::string());
    if (kind == "start" && next < pending.size()) {
      running = true;
      benchmark_start = Clock::now();
      if (progress != nullptr) progress->started(results_.names[order[pending[next]]]);
    } else if (kind == "done" && next < pending.size()) {
      ProcessOutcome outcome = outcome_at(next);
      bool failed = false;
      for (const auto& row : event.at("rows")) {
        ProcessRow parsed{row.at("benchmark"), std::nullopt};
        if (row.contains("record") && row["record"].is_object()) parsed.record = run_record_from_json(row["record"]);
        failed =
            failed || (parsed.benchmark.value("error_occurred", false) && !(parsed.record && parsed.record->skipped));
        outcome.rows.push_back(std::move(parsed));
      }
      results_.outcomes[order[pending[next]]].push_back(std::move(outcome));
      if (progress != nullptr) progress->finished(results_.names[order[pending[next]]], failed);
      running = false;
      ++next;
    } else if (kind == "interrupted") {
      child_interrupted = true;
    } else if (kind == "restart") {
      restart_asked = true;
    }
  };

  pollfd watch{child.output, POLLIN, 0};
  for (;;) {
    const int ready = ::poll(&watch, 1, 100);
    if (ready > 0) {
      char chunk[65536];
      const ssize_t got = ::read(child.output, chunk, sizeof chunk);
      if (got == 0) break;
      if (got > 0) {
        buffer.append(chunk, static_cast<std::size_t>(got));
        for (auto newline = buffer.find('\n'); newline != std::string::npos; newline = buffer.find('\n')) {
          handle(buffer.substr(0, newline));
          buffer.erase(0, newline + 1);
        }
      } else if (errno != EINTR) {
        break;
      }
    }
    if (interrupt_requested() && !forwarded) {
      forwarded = true;
      forwarded_at = Clock::now();
    }
    // The child shares our terminal's signals; one that did not get it is told after a second, and
    // one that does not stop (a benchmark that never checks) is killed after ten.
    if (forwarded && !told && seconds_since(forwarded_at) > 1.0) {
      ::kill(child.pid, ::gbx::interrupt_signal() != 0 ? ::gbx::interrupt_signal() : SIGTERM);
      told = true;
    }
    if (forwarded && !killed && seconds_since(forwarded_at) > 10.0) {
      ::kill(child.pid, SIGKILL);
      killed = true;
    }
    if (running && !killed && timeout_seconds_ > 0.0 && seconds_since(benchmark_start) > timeout_seconds_) {
      ::kill(child.pid, SIGKILL);
      killed = true;
      launch.timed_out = true;
    }
  }
  ::close(child.output);
  const int status = wait_for(child.pid);
  if (WIFSIGNALED(status)) {
    launch.signal = signal_name(WTERMSIG(status));
  } else {
    launch.exit_code = WEXITSTATUS(status);
  }
  const bool interrupted = child_interrupted || interrupt_requested();
  std::string cause;
  if (launch.timed_out) {
    char text[64];
    std::snprintf(text, sizeof text, "%g", timeout_seconds_);
    cause = std::string("still running after ") + text + " s (--gbx_benchmark_timeout): process " +
            std::to_string(index) + " (pid " + std::to_string(child.pid) + ") killed";
  } else {
    cause = "process " + std::to_string(index) + " (pid " + std::to_string(child.pid) + ") " + exit_text(status);
  }
  const bool asked_and_clean = restart_asked && !running && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!interrupted && !asked_and_clean && next < pending.size()) {
    // It died, or left early: the benchmark it was running (or was to run next) failed. One that
    // died before finishing anything takes the rest of its order with it, so that a binary that
    // cannot start is not restarted for ever.
    const std::size_t failed_through = next == 0 && !running ? pending.size() : next + 1;
    for (std::size_t at = next; at < failed_through; ++at) {
      ProcessOutcome outcome = outcome_at(at);
      outcome.failure =
          at == next && running ? cause + " while running this benchmark" : cause + " before running this benchmark";
      results_.outcomes[order[pending[at]]].push_back(std::move(outcome));
      if (progress != nullptr) progress->finished(results_.names[order[pending[at]]], true);
    }
    next = failed_through;
  }
  results_.launches.push_back(std::move(launch));
  pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(next));
  if (interrupted) {
    interrupt_signal_ = interrupt_requested() ? ::gbx::interrupt_signal() : SIGINT;
    if (child_interrupted && !interrupt_requested()) {
      interrupt_signal_ = WIFEXITED(status) && WEXITSTATUS(status) > 128 ? WEXITSTATUS(status) - 128 : SIGINT;
    }
    return false;
  }
  return true;
}

}  // namespace gbx
