#include "processes/worker_client.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>

#include "model/interrupt.h"
#include "writer/run_record_wire.h"

namespace gbx {

namespace {

using Clock = std::chrono::steady_clock;

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    done += static_cast<std::size_t>(wrote);
  }
  return true;
}

}  // namespace

Worker::Worker(const std::string& binary, const std::vector<std::string>& args) {
  std::vector<std::string> worker_args = child_arguments(args);
  worker_args.push_back("--gbx_worker=3");
  try {
    child_ = spawn(binary, worker_args, true, false);
  } catch (const std::exception& error) {
    lost_ = error.what();
    return;
  }
  pid_ = child_.pid;
  alive_ = true;
  // The worker says it is ready once Google Benchmark is initialised; a binary that is no gbx bench
  // binary (or rejects the flags) ends before that, and says why on stderr.
  std::string line;
  const Read got = read_line(line, 120.0);
  if (got != Read::line || line.find("\"ready\"") == std::string::npos) {
    const std::string how = reap(got != Read::closed);
    lost_ = binary + " did not start as a worker (pid " + std::to_string(pid_) + " " + how + ")";
  }
}

Worker::~Worker() {
  if (alive_) reap(false);
}

std::string Worker::reap(bool kill_first) {
  if (child_.input >= 0) ::close(child_.input);
  child_.input = -1;
  if (kill_first) ::kill(child_.pid, SIGKILL);
  if (child_.output >= 0) ::close(child_.output);
  child_.output = -1;
  int status = 0;
  while (::waitpid(child_.pid, &status, 0) < 0 && errno == EINTR) {
  }
  alive_ = false;
  return exit_text(status);
}

Worker::Read Worker::read_line(std::string& line, double timeout_seconds) {
  const Clock::time_point start = Clock::now();
  bool forwarded = false;
  Clock::time_point forwarded_at{};
  for (;;) {
    const auto newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return Read::line;
    }
    pollfd watch{child_.output, POLLIN, 0};
    const int ready = ::poll(&watch, 1, 100);
    if (ready > 0) {
      char chunk[65536];
      const ssize_t got = ::read(child_.output, chunk, sizeof chunk);
      if (got == 0) return Read::closed;
      if (got > 0) buffer_.append(chunk, static_cast<std::size_t>(got));
      if (got < 0 && errno != EINTR) return Read::closed;
      continue;
    }
    // The worker shares our terminal's signals; one that did not get it is told after a second,
    // and one that does not stop (a benchmark that never checks) is given up after ten.
    if (interrupt_requested() && !forwarded) {
      forwarded = true;
      forwarded_at = Clock::now();
    }
    const double since_forward = std::chrono::duration<double>(Clock::now() - forwarded_at).count();
    if (forwarded && since_forward > 1.0 && since_forward < 1.2) ::kill(child_.pid, SIGTERM);
    if (forwarded && since_forward > 10.0) return Read::interrupted;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (timeout_seconds > 0.0 && elapsed > timeout_seconds) return Read::timed_out;
  }
}

WorkerBlock Worker::run_block(const std::string& name, std::int64_t samples, std::int64_t warmup,
                              double timeout_seconds, const std::string& memory_key) {
  WorkerBlock block;
  if (!alive_ || !lost_.empty()) {
    block.status = WorkerBlock::Status::failed;
    block.worker_lost = true;
    block.failure = lost_.empty() ? "the worker is gone" : lost_;
    return block;
  }
  const std::int64_t id = next_block_++;
  const nlohmann::json order = {
      {"block", id}, {"name", name}, {"samples", samples}, {"warmup", warmup}, {"memory_key", memory_key}};
  const bool sent = write_all(child_.input, order.dump() + "\n");
  for (;;) {
    std::string line;
    const Read got = sent ? read_line(line, timeout_seconds) : Read::closed;
    if (got == Read::line) {
      const auto event = nlohmann::json::parse(line, nullptr, false);
      if (!event.is_object()) continue;  // a stray line; the block's answer follows
      const std::string kind = event.value("event", std::string());
      if (kind == "interrupted") {
        block.status = WorkerBlock::Status::interrupted;
        block.signal = event.value("signal", SIGINT);
        reap(false);
        block.worker_lost = true;
        return block;
      }
      if (kind != "block" || event.value("block", std::int64_t{-1}) != id) continue;
      block.start_ns = event.value("start_ns", std::int64_t{0});
      block.end_ns = event.value("end_ns", std::int64_t{0});
      if (const auto memory = event.find("pair_memory"); memory != event.end() && memory->is_object()) {
        block.shared_bytes = memory->value("shared_bytes", std::int64_t{0});
        block.private_bytes = memory->value("private_bytes", std::int64_t{0});
        block.why_private = memory->value("why_private", std::string());
      }
      for (const auto& row : event.value("rows", nlohmann::json::array())) {
        ProcessRow parsed{row.value("benchmark", nlohmann::json::object()), std::nullopt};
        if (row.contains("record") && row["record"].is_object()) parsed.record = run_record_from_json(row["record"]);
        const bool skipped = parsed.record && parsed.record->skipped;
        if (parsed.benchmark.value("error_occurred", false) && !skipped && block.failure.empty()) {
          block.status = WorkerBlock::Status::failed;
          block.failure = parsed.benchmark.value("error_message", std::string("the benchmark failed"));
        }
        block.rows.push_back(std::move(parsed));
      }
      if (block.rows.empty()) {
        block.status = WorkerBlock::Status::failed;
        block.failure = "the worker found no benchmark called " + name;
      }
      return block;
    }
    block.status = got == Read::interrupted || (interrupt_requested() && got == Read::closed)
                       ? WorkerBlock::Status::interrupted
                       : WorkerBlock::Status::failed;
    block.signal = interrupt_requested() ? interrupt_signal() : SIGINT;
    block.worker_lost = true;
    const std::string how = reap(got != Read::closed);
    if (got == Read::timed_out) {
      char text[64];
      std::snprintf(text, sizeof text, "%g", timeout_seconds);
      block.failure = "a block was still running after " + std::string(text) + " s (--benchmark-timeout): worker pid " +
                      std::to_string(pid_) + " killed";
    } else {
      block.failure = "worker pid " + std::to_string(pid_) + " " + how + " while running this benchmark";
    }
    lost_ = block.failure;
    return block;
  }
}

}  // namespace gbx
