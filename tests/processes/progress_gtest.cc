// Progress on stderr (processes/process_progress.h): on a terminal one rewritten line naming the
// benchmark running; in a plain log a line at least every interval, naming it with its index and the
// time elapsed. A fake clock drives the interval, so nothing here waits ten seconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>

#include "processes/process_progress.h"

namespace gbx {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A clock that moves only when told.
struct FakeClock {
  Progress::Clock::time_point time{};
  Progress::Options options(Progress::Clock::duration interval = seconds(10)) {
    Progress::Options o;
    o.interval = interval;
    o.now = [this] { return time; };
    o.ticker = false;
    return o;
  }
};

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Progress, PlainLinesWhenNotATerminal) {
  std::ostringstream out;
  Progress progress(out, "on", false, 2);
  progress.started("gemm/naive/m:256/iterations:1/manual_time");
  progress.finished("gemm/naive/m:256/iterations:1/manual_time", false);
  progress.started("gemm/blocked/m:256/iterations:1/manual_time");
  progress.finished("gemm/blocked/m:256/iterations:1/manual_time", true);
  progress.close();
  const std::string text = out.str();
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.rfind("[1/2] gemm/naive/m:256 ", 0), 0u) << text;
  EXPECT_NE(text.find(", ETA "), std::string::npos) << text;
  EXPECT_NE(text.find("\n[2/2] gemm/blocked/m:256 "), std::string::npos) << text;
  EXPECT_NE(text.find(" FAILED\n"), std::string::npos) << text;
  std::ostringstream quiet;
  Progress off(quiet, "off", false, 2);
  off.started("x");
  off.finished("x", false);
  off.tick();
  EXPECT_TRUE(quiet.str().empty());
}

TEST(Progress, OneRewrittenLineOnATerminal) {
  std::ostringstream out;
  Progress progress(out, "auto", true, 3);
  progress.started("a");
  progress.finished("a", false);
  progress.close();
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("\r[1/3] a ...", 0), 0u) << text;
  EXPECT_NE(text.find("\r[1/3] a 0."), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
}

// A CI log: nothing for a short run, then a line every interval naming what runs, never two within one.
TEST(Progress, APlainLogGetsALineEveryIntervalNamingTheBenchmarkRunning) {
  FakeClock clock;
  std::ostringstream out;
  Progress progress(out, "auto", false, 3, clock.options());
  progress.started("gemm/naive/m:256/iterations:1/manual_time");
  clock.time += seconds(9);
  progress.tick();
  EXPECT_EQ(out.str(), "") << "under the interval: nothing";
  clock.time += seconds(1);
  progress.tick();
  EXPECT_EQ(out.str(), "[1/3] gemm/naive/m:256 running for 10s, 10s elapsed\n");
  progress.tick();
  EXPECT_EQ(lines(out.str()), 1u) << "one line per interval: " << out.str();
  clock.time += seconds(5);
  progress.finished("gemm/naive/m:256/iterations:1/manual_time", false);
  EXPECT_EQ(lines(out.str()), 1u) << "auto writes no line per benchmark: " << out.str();
  progress.started("gemm/blocked/m:256");
  clock.time += seconds(10);
  progress.tick();
  EXPECT_NE(out.str().find("\n[2/3] gemm/blocked/m:256 running for 10s, 25s elapsed, ETA 50s\n"), std::string::npos)
      << "its index of the total, the time elapsed and, once one finished, the ETA: " << out.str();
  progress.finished("gemm/blocked/m:256", false);
  clock.time += seconds(70);
  progress.tick();
  EXPECT_NE(out.str().find("\n[2/3] done, 1m35s elapsed, ETA 48s\n"), std::string::npos)
      << "between benchmarks (a process starting), the count and the time: " << out.str();
  progress.close();
  clock.time += seconds(60);
  const std::string before = out.str();
  progress.tick();
  EXPECT_EQ(out.str(), before) << "nothing after close()";
}

// In this process Google Benchmark tells only when a benchmark finished: the order names the next.
TEST(Progress, InThisProcessTheOrderNamesTheBenchmarkRunning) {
  std::ostringstream terminal;
  {
    Progress progress(terminal, "auto", true, 3);
    progress.run_in_order({"a", "b", "c"});
    progress.finished("a", false);
    progress.finished("b", false);
    progress.finished("c", false);
    progress.close();
  }
  const std::string text = terminal.str();
  EXPECT_EQ(text.rfind("\r[1/3] a ...", 0), 0u) << text;
  EXPECT_NE(text.find("\r[2/3] b ..., ETA "), std::string::npos) << "the one running, not the one done: " << text;
  EXPECT_NE(text.find("\r[3/3] c ..."), std::string::npos) << text;
  EXPECT_EQ(text.find("\r[1/3] a 0."), std::string::npos) << "the finished one is not shown over the next" << text;
  EXPECT_NE(text.find("\r[3/3] c 0."), std::string::npos) << "the last one's time stays: " << text;

  FakeClock clock;
  std::ostringstream log;
  Progress plain(log, "auto", false, 3, clock.options());
  plain.run_in_order({"a", "b", "c"});
  clock.time += seconds(4);
  plain.finished("a", false);
  clock.time += seconds(10);
  plain.tick();
  EXPECT_EQ(log.str(), "[2/3] b running for 10s, 14s elapsed, ETA 28s\n");
  plain.finished("x", false);  // out of order (random interleaving): what runs next is not known
  clock.time += seconds(10);
  plain.tick();
  EXPECT_NE(log.str().find("\n[2/3] done, 24s elapsed"), std::string::npos) << "unnamed, not misnamed: " << log.str();
}

// The thread writes the lines on its own while the caller is busy, and stops at close().
TEST(Progress, TheThreadWritesWhileTheBenchmarkRuns) {
  std::ostringstream out;
  Progress::Options options;
  options.interval = milliseconds(20);
  Progress progress(out, "auto", false, 1, options);
  progress.started("slow");
  std::this_thread::sleep_for(milliseconds(150));
  progress.close();
  const std::string text = out.str();
  EXPECT_GE(lines(text), 2u) << text;
  EXPECT_EQ(text.rfind("[1/1] slow running for ", 0), 0u) << text;
  std::this_thread::sleep_for(milliseconds(60));
  EXPECT_EQ(out.str(), text) << "nothing after close()";
}

TEST(Progress, EtaReadsAsAPersonWouldSayIt) {
  EXPECT_EQ(format_eta(0.4), "0s");
  EXPECT_EQ(format_eta(45.0), "45s");
  EXPECT_EQ(format_eta(80.0), "1m20s");
  EXPECT_EQ(format_eta(7380.0), "2h03m");
}

}  // namespace
}  // namespace gbx
