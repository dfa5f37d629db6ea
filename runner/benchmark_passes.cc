#include "runner/benchmark_passes.h"

#include <algorithm>
#include <sstream>

#include "extensions/registrations.h"
#include "model/protocol.h"
#include "processes/shard.h"
#include "reporters/plain_protocol.h"

namespace gbx {

namespace {

using Reporter = benchmark::BenchmarkReporter;

// Sets Google Benchmark's flags for the next pass. Initialize parses only the flags it is given
// and keeps the rest; argv[0] is the program name it already holds.
void set_flags(std::vector<std::string> flags) {
  std::vector<char*> argv{const_cast<char*>(Reporter::Context::executable_name)};
  for (std::string& flag : flags) argv.push_back(flag.data());
  int argc = static_cast<int>(argv.size());
  argv.push_back(nullptr);
  benchmark::Initialize(&argc, argv.data());
}

// Writes the names --benchmark_list_tests lists, and nothing else.
class Lister : public Reporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// Hands the passes' runs to one reporter, with the first pass's context and no Finalize.
class Passes : public Reporter {
 public:
  explicit Passes(Reporter& to) : to_(to) {
    SetOutputStream(&to.GetOutputStream());
    SetErrorStream(&to.GetErrorStream());
  }
  bool ReportContext(const Context& context) override {
    if (!reported_) {
      context_ok_ = to_.ReportContext(context);
      reported_ = true;
    }
    return context_ok_;
  }
  void ReportRuns(const std::vector<Run>& runs) override { to_.ReportRuns(runs); }
  void Finalize() override {}

 private:
  Reporter& to_;
  bool reported_ = false;
  bool context_ok_ = true;
};

std::vector<std::string> pass_flags(bool gbx) {
  const PlainLayout& layout = plain_layout();
  return {"--benchmark_repetitions=" + std::to_string(gbx ? layout.groups : layout.total()),
          "--benchmark_min_warmup_time=" + (gbx ? std::string("0") : layout.min_warmup_time)};
}

}  // namespace

std::vector<std::string> list_instances(const std::string& spec) {
  Lister lister;
  std::ostringstream names;
  lister.SetOutputStream(&names);
  lister.SetErrorStream(&names);
  set_flags({"--benchmark_list_tests=true"});
  const std::size_t count = benchmark::RunSpecifiedBenchmarks(&lister, spec);
  set_flags({"--benchmark_list_tests=false"});
  std::vector<std::string> listed;
  if (count == 0) return listed;
  std::istringstream lines(names.str());
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) listed.push_back(line);
  }
  return listed;
}

void check_plain_only_flags(const std::vector<std::string>& args, const std::string& spec, std::ostream& note) {
  struct PlainOnly {
    const char* flag;
    const char* instead;
  };
  static const PlainOnly flags[] = {
      {"benchmark_min_time",
       "use --gbx_min_time=SECONDS (sample until the samples span this long), --gbx_max_time=SECONDS (the time "
       "bound per benchmark), --gbx_min_samples=N or --gbx_target_rel_ci=R (sample until the median is this "
       "precise)"},
      {"benchmark_min_warmup_time", "use --gbx_warmup=N (runs discarded before sampling)"}};
  std::vector<std::string> names;
  bool listed = false;
  for (const PlainOnly& plain : flags) {
    const auto flag = given_flag(args, plain.flag);
    if (!flag) continue;
    const std::string& given = flag->second;
    if (!listed) {
      names = list_instances(spec);
      listed = true;
    }
    const auto gbx = static_cast<std::size_t>(std::count_if(names.begin(), names.end(), detail::is_gbx_instance));
    if (gbx < names.size() && !flag->first.empty() && flag->first.back() == 'x' &&
        !google_benchmark_takes_iteration_counts()) {
      throw detail::FlagError(given + ": an iteration count needs Google Benchmark 1.8 or later; this binary " +
                              "has an earlier one, which takes seconds (--benchmark_min_time=0.5)");
    }
    if (gbx == 0) continue;
    const std::string why = " sample by gbx's protocol, one Google Benchmark iteration per repetition; ";
    if (gbx == names.size()) {
      std::string message = given;
      message += " does not apply: the " + std::to_string(gbx) + " selected benchmarks are gbx's, which";
      message += why;
      message += plain.instead;
      message += ". It applies to plain Google Benchmark benchmarks";
      throw detail::FlagError(message);
    }
    note << "gbx: " << given << " applies to the " << names.size() - gbx << " plain benchmarks selected; the " << gbx
         << " gbx benchmarks" << why << plain.instead << "\n";
  }
}

std::size_t run_benchmarks(Reporter& reporter, const std::string& spec) {
  // A plain benchmark takes as many samples as the protocol now asks: gbx ab's worker sizes each block.
  PlainLayout layout = plain_layout();
  layout.samples = std::max<std::int64_t>(detail::active_protocol().min_samples, 1);
  set_plain_layout(layout);
  const std::vector<std::string> names = list_instances(spec);
  if (names.empty()) return benchmark::RunSpecifiedBenchmarks(&reporter, spec);  // its own message
  Passes passes(reporter);
  std::size_t run = 0;
  for (std::size_t begin = 0; begin < names.size();) {
    const bool gbx = detail::is_gbx_instance(names[begin]);
    std::size_t end = begin;
    while (end < names.size() && detail::is_gbx_instance(names[end]) == gbx) ++end;
    set_flags(pass_flags(gbx));
    const bool whole = begin == 0 && end == names.size();
    const std::vector<std::string> batch(names.begin() + static_cast<std::ptrdiff_t>(begin),
                                         names.begin() + static_cast<std::ptrdiff_t>(end));
    run += benchmark::RunSpecifiedBenchmarks(&passes, whole ? spec : exact_names_filter(batch));
    begin = end;
  }
  set_flags(pass_flags(true));
  reporter.Finalize();
  return run;
}

}  // namespace gbx
