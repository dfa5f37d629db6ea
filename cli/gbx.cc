// gbx: the command-line tool over gbx records.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/ab_command.h"
#include "cli/compare_command.h"
#include "cli/env_command.h"
#include "cli/export_command.h"
#include "cli/merge_command.h"
#include "cli/pareto_command.h"
#include "cli/report_command.h"
#include "cli/slurm_command.h"
#include "cli/terminal_colour.h"
#include "cli/trend_command.h"
#include "cli/verify_command.h"
#include "cli/version_command.h"
#include "model/spelling.h"
#include "record/atomic_file.h"

namespace {

// CLI::Range lets NaN through (every comparison with it is false), and a NaN threshold silently
// turns the regression gate off.
const CLI::Validator kFinite(
    [](std::string& text) {
      double value = 0.0;
      if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value)) return std::string("not a finite number");
      return std::string();
    },
    "FINITE");

// What a command printed must all have reached stdout: a full disk or a closed pipe is a failure.
int checked_exit(int code, const std::string& command) {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << command << ": cannot write to standard output: " << std::strerror(errno) << "\n";
    return code == 0 ? 2 : code;
  }
  return code;
}

int run_command(int argc, char** argv);

// Every subcommand's name, in the order they were added.
std::vector<std::string> subcommand_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(command->get_name());
  }
  return names;
}

std::string subcommand_list(CLI::App& app) {
  std::string list;
  for (const std::string& name : subcommand_names(app)) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// Standard input holds one record: "-" twice would read it once and then find it empty.
bool reads_stdin_twice(const std::vector<std::string>& paths) {
  return std::count(paths.begin(), paths.end(), std::string("-")) > 1;
}

// CLI11 names an unknown option without a guess: each one gets the nearest spellings of the options of
// the command it was given to, as the bench binaries' --gbx_* flags do (model/spelling.h).
std::string option_suggestions(CLI::App& app, int argc, char** argv) {
  const bool in_subcommand = argc > 1 && argv[1][0] != '-';
  CLI::App* command = &app;
  if (in_subcommand) {
    const std::vector<std::string> names = subcommand_names(app);
    if (std::find(names.begin(), names.end(), std::string(argv[1])) == names.end()) return "";
    command = app.get_subcommand(argv[1]);
  }
  std::vector<std::string> known;
  for (const CLI::Option* option : command->get_options()) {
    for (const std::string& name : option->get_lnames()) known.push_back(name);
  }
  std::string text;
  for (int i = in_subcommand ? 2 : 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;  // what follows is for a bench binary, which checks its own
    if (arg.size() < 3 || arg.rfind("--", 0) != 0) continue;
    const std::string name = arg.substr(2, arg.find('=') - 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::vector<std::string> nearest = gbx::detail::nearest_spellings(name, known);
    if (!nearest.empty())
      text += "; for --" + name + ", did you mean " + gbx::detail::spelling_list(nearest, "--") + "?";
  }
  return text;
}

// Ends the process as the signal would, without leaving the temporary file of a report being written.
extern "C" void remove_temporary_and_die(int signal) {
  gbx::remove_temporary_file_now();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace

int main(int argc, char** argv) {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal, remove_temporary_and_die);
  const std::string command = argc > 1 && argv[1][0] != '-' ? std::string("gbx ") + argv[1] : "gbx";
  return checked_exit(run_command(argc, argv), command);
}

namespace {

// gbx ab's budget: given, or auto from the forecast (ab/forecast.h).
void add_budget_options(CLI::App& ab, gbx::tools::AbOptions& ab_options) {
  ab.add_option("--budget", ab_options.budget,
                "time budget of the interleaved run, e.g. 90s, 5m (default 120s), or auto: what the plan expects "
                "every row to need to reach --target-mde, at most --max-budget");
  ab.add_option("--target-mde", ab_options.target_mde,
                "the MDE the plan forecasts the budget for (default: the --equivalence margin)")
      ->check(kFinite & CLI::Range(0.001, 0.5));
  ab.add_option("--max-budget", ab_options.max_budget, "the most --budget=auto may plan (default 30m)");
}

int run_command(int argc, char** argv) {
  CLI::App app{"gbx: tools over gbx benchmark records. A record argument of - reads standard input."};
  app.require_subcommand(0, 1);
  bool show_version = false;
  app.add_flag("--version", show_version, "print gbx's version, source commit and Google Benchmark version");

  std::string verify_path;
  CLI::App* verify = app.add_subcommand("verify",
                                        "Recompute a record's checksum (and, with $GBX_SEAL_KEY, its keyed seal): "
                                        "0 intact, 1 mismatch, 2 unreadable");
  verify->add_option("FILE", verify_path, "the JSON record")->required();

  gbx::tools::CompareOptions compare_options;
  CLI::App* compare = app.add_subcommand(
      "compare",
      "Compare two records: 0 no regression, 1 a benchmark is slower or inaccurate, 2 bad input or incompatible "
      "records, 3 undecided (nothing slower, but a row is unreplicated or insufficient, or nothing was measured)");
  compare->add_option("BASE", compare_options.base, "the baseline record")->required();
  compare->add_option("CAND", compare_options.candidate, "the candidate record")->required();
  compare->add_option("--format", compare_options.format, "console (default), markdown or json");
  compare->add_flag("--allow-incompatible", compare_options.allow_incompatible,
                    "compare anyway when environments or protocols differ; every row is marked");
  compare
      ->add_option("--noise-band", compare_options.noise_band, "ratios within 1 +/- this are the same (default 0.02)")
      ->check(kFinite & CLI::Range(0.0, 1.0));
  compare
      ->add_option("--pair-test", compare_options.pair_test,
                   "two gbx ab records: redo the test across worker pairs with signed-rank, t or weighted-sign-flip "
                   "(default: as recorded)")
      ->check(CLI::IsMember({"signed-rank", "t", "weighted-sign-flip"}));
  compare->add_option("--fdr", compare_options.fdr, "Benjamini-Hochberg false-discovery rate q (default 0.05)")
      ->check(kFinite & CLI::Range(0.0, 1.0));

  gbx::tools::AbOptions ab_options;
  CLI::App* ab = app.add_subcommand(
      "ab",
      "Run two bench binaries side by side, block by block, in worker pairs within --budget, and decide "
      "slower/faster/same (docs/gating.md): 0 no regression, 1 slower or inaccurate, 2 bad input, 3 undecided, "
      "130/143 interrupted by SIGINT/SIGTERM (both records keep what finished)");
  ab->add_option("--base", ab_options.base, "the baseline bench binary")->required();
  ab->add_option("--candidate", ab_options.candidate,
                 "the candidate bench binary (the same one: an A/A check; default with --candidate-filter: the base)");
  CLI::Option* ab_processes =
      ab->add_option("--processes", ab_options.processes,
                     "worker pairs at most (interleaved; default: as the budget allows), or processes per binary "
                     "(--whole-processes; default 6)")
          ->check(CLI::PositiveNumber);
  add_budget_options(*ab, ab_options);
  ab->add_option("--equivalence", ab_options.equivalence, "margin of 'same' (default 0.02: +/-2%)")
      ->check(kFinite & CLI::Range(0.001, 0.5));
  ab->add_option("--pair-test", ab_options.pair_test,
                 "the test across worker pairs: weighted-sign-flip (default: each pair weighted by its precision, "
                 "robust to a slow process), signed-rank or t (docs/gating-statistics.md)")
      ->check(CLI::IsMember({"signed-rank", "t", "weighted-sign-flip"}));
  std::string futility = "on";
  ab->add_option("--futility", futility,
                 "on (default): at a look, a row that even the whole budget left would decide with a chance below "
                 "10% stops, inconclusive, and its time goes to the rest; off: every undecided row runs to the end")
      ->check(CLI::IsMember({"on", "off"}));
  CLI::Option* ab_blocks =
      ab->add_option("--blocks", ab_options.blocks_per_pair,
                     "interleaved block pairs per worker pair, fixed (default: 2 at first, then planned at each look "
                     "from the measured variance)")
          ->check(CLI::Range(1, 100));
  ab->add_option("--affinity", ab_options.affinity,
                 "the CPU every worker runs on, so that both blocks of a block pair share a core: auto (default: "
                 "the highest CPU gbx may use), none (unpinned) or a CPU number");
  ab->add_option("--pair-memory", ab_options.pair_memory,
                 "shared (default): the two workers of a pair measure on one copy of each large host array, so "
                 "that where the machine put it cancels in the pair; private: each on its own pages")
      ->check(CLI::IsMember({"shared", "private"}));
  ab->add_option("--pair-memory-dir", ab_options.pair_memory_root,
                 "the tmpfs in which the pairs' shared arrays are made (default /dev/shm)");
  ab->add_option("--base-filter", ab_options.base_filter,
                 "two variants of one binary: --benchmark_filter of the base's benchmarks (with --candidate-filter)");
  ab->add_option("--candidate-filter", ab_options.candidate_filter,
                 "the candidate's benchmarks, paired with the base's in listing order");
  bool whole_processes = false;
  ab->add_flag("--whole-processes", whole_processes,
               "the former design: K whole-suite processes per side, one after the other (no budget)");
  ab->add_option("--seed", ab_options.seed, "seed of the pair orders and the benchmark orders (default: drawn)");
  ab->add_option("--format", ab_options.format, "console (default), markdown or json");
  ab->add_option("-o,--output-dir", ab_options.out_dir, "directory for both records (default .)");
  ab->add_option("--progress", ab_options.progress, "auto (default), on or off")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  ab->add_option("--benchmark-timeout", ab_options.benchmark_timeout_seconds,
                 "kill a benchmark still running after this many seconds and record it failed")
      ->check(CLI::PositiveNumber);
  CLI::Option* ab_noise_band =
      ab->add_option(
            "--noise-band", ab_options.noise_band,
            "as for compare (default 0.005 interleaved: well below the equivalence margin; 0.02 whole processes)")
          ->check(CLI::Range(0.0, 1.0));
  ab->add_option("--fdr", ab_options.fdr, "as for compare (default 0.05)")->check(CLI::Range(0.0, 1.0));
  ab->add_flag("--allow-incompatible", ab_options.allow_incompatible, "as for compare");
  ab->add_option("BENCH_FLAGS", ab_options.bench_args, "after --: flags for both bench binaries");

  std::string env_binary;
  std::vector<std::string> env_args;
  CLI::App* env = app.add_subcommand(
      "env", "Print the environment a bench binary's record would carry, as JSON: 0 printed, 2 bad input");
  env->add_option("BENCH_BINARY", env_binary, "the bench binary (it describes its own build and devices)")->required();
  env->add_option("BENCH_FLAGS", env_args, "after --: flags for the bench binary");

  gbx::tools::ParetoCommandOptions pareto_options;
  CLI::App* pareto = app.add_subcommand(
      "pareto", "The Pareto analysis of a record's variants per problem: 0 when readable, 2 on bad input");
  pareto->add_option("FILE", pareto_options.path, "the JSON record")->required();
  pareto->add_option("--format", pareto_options.format, "console (default) or json");

  gbx::tools::ReportOptions report_options;
  CLI::App* report = app.add_subcommand(
      "report", "Write a self-contained HTML (or Markdown) report of one record or more: 0 written, 2 bad input");
  report->add_option("RUN", report_options.inputs, "the JSON records; two: a comparison, three or more: a trend")
      ->required();
  report->add_option("-o,--output", report_options.output,
                     "the file to write, atomically (default report.html; Markdown goes to stdout)");
  report->add_option("--format", report_options.format, "html (default) or markdown");
  report->add_option("--assets", report_options.assets,
                     "a node_modules directory with vega and vega-lite (default: $GBX_REPORT_ASSETS, else "
                     "report/node_modules)");

  gbx::tools::TrendOptions trend_options;
  CLI::App* trend = app.add_subcommand(
      "trend",
      "Change points of each benchmark over three records or more: 0 none slower, 1 the latest runs are "
      "slower, 2 bad input");
  trend->add_option("RUN", trend_options.inputs, "the JSON records, in any order (sorted by date)")->required();
  trend->add_option("--format", trend_options.format, "console (default) or markdown");
  trend->add_option("--alpha", trend_options.alpha, "the permutation test's level (default 0.05)")
      ->check(kFinite & CLI::Range(0.0, 1.0));
  trend->add_option("--seed", trend_options.seed, "seed of the permutations (default 1)");

  gbx::tools::MergeOptions merge_options;
  CLI::App* merge = app.add_subcommand(
      "merge",
      "Join the shard records of one sharded run into one sealed record: 0 written, 2 bad input or incomplete");
  merge->add_option("SHARD", merge_options.inputs, "the shard records (gbx.shard)")->required();
  merge->add_option("-o,--output", merge_options.output, "the merged record, written atomically")->required();
  merge->add_flag("--allow-partial", merge_options.allow_partial,
                  "write what is there even when benchmarks are missing or duplicated (exit 0)");

  gbx::tools::SlurmOptions slurm_options;
  bool slurm_cpu_only = false;
  bool slurm_shared = false;
  CLI::App* slurm = app.add_subcommand(
      "slurm",
      "Submit a bench binary as a Slurm job array, one shard per task: 0 submitted (or merged), 1 a shard "
      "failed, 2 bad input");
  slurm->add_option("--shards", slurm_options.shards, "tasks in the array, one shard each")
      ->required()
      ->check(CLI::PositiveNumber);
  slurm->add_option("--partition", slurm_options.partition, "the partition (default: the cluster's)");
  slurm->add_option("--gres", slurm_options.gres, "generic resources per task (default gpu:1)");
  slurm->add_flag("--cpu-only", slurm_cpu_only, "no --gres line: a CPU suite");
  slurm->add_flag("--shared", slurm_shared, "no --exclusive: let other jobs share the node (timings suffer)");
  slurm->add_option("--time", slurm_options.time_limit, "time limit per task (default 01:00:00)");
  slurm->add_option("-o,--output-dir", slurm_options.output_dir,
                    "where the script, logs and shard records go (default gbx-shards)");
  slurm->add_option("--job-name", slurm_options.job_name, "the job's name (default gbx)");
  slurm->add_option("--plan", slurm_options.plan, "a previous record: balance the shards by its costs");
  slurm->add_flag("--dry-run", slurm_options.dry_run, "print the sbatch script; submit nothing");
  slurm->add_flag("--wait", slurm_options.wait, "wait for every task, then merge into OUTPUT_DIR/merged.json");
  slurm->add_option("BENCH", slurm_options.bench, "after --: the bench binary and its flags");

  CLI::App* version = app.add_subcommand(
      "version", "Print gbx's version, source commit and Google Benchmark version: 0 printed, 2 not written");

  gbx::tools::ExportOptions export_options;
  CLI::App* export_ = app.add_subcommand(
      "export", "Write records for a dashboard (bencher, github-action-benchmark, conbench): 0 written, 2 bad input");
  export_->add_option("RECORD", export_options.inputs, "the JSON records")->required();
  export_->add_option("--format", export_options.format, "bencher, github-action-benchmark or conbench")->required();
  export_
      ->add_option("-o,--output", export_options.output,
                   "the file, written atomically; for github-action-benchmark a prefix of two files")
      ->required();
  export_->add_option("--repository", export_options.repository, "conbench: https://github.com/ORG/REPO");
  export_->add_option("--run-reason", export_options.run_reason, "conbench: the run's reason (commit, pull-request)");

  // CLI11 takes an unknown word for a stray argument, or asks for a subcommand without naming it.
  const std::vector<std::string> names = subcommand_names(app);
  if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), std::string(argv[1])) == names.end()) {
    std::cerr << "gbx: unknown subcommand '" << argv[1] << "'; the subcommands are " << subcommand_list(app)
              << " (gbx --help describes them)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help
    // Usage errors are bad input: exit 2, as every gbx tool does, with the subcommand's prefix.
    const bool in_subcommand = argc > 1 && argv[1][0] != '-';
    const std::string command = in_subcommand ? std::string("gbx ") + argv[1] : "gbx";
    std::cerr << command << ": " << error.what() << option_suggestions(app, argc, argv) << " (" << command
              << " --help for usage)\n";
    return 2;
  }
  if (show_version || version->parsed()) {
    gbx::tools::print_version(std::cout);
    return 0;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << "gbx: a subcommand is required: " << subcommand_list(app) << " (gbx --help describes them)\n";
    return 2;
  }
  using RecordArguments = std::pair<CLI::App*, std::vector<std::string>>;
  for (const auto& [command, paths] :
       {RecordArguments{compare, {compare_options.base, compare_options.candidate}},
        RecordArguments{report, report_options.inputs}, RecordArguments{trend, trend_options.inputs},
        RecordArguments{export_, export_options.inputs}}) {
    if (command->parsed() && reads_stdin_twice(paths)) {
      std::cerr << "gbx " << command->get_name() << ": - (standard input) is given twice; it holds one record\n";
      return 2;
    }
  }
  if (verify->parsed()) return gbx::tools::verify_record(verify_path, std::cout, std::cerr);
  if (ab->parsed()) {
    // gbx ab runs whole binaries and its records carry no gbx.shard: inside a Slurm array task or an
    // Indexed Job, their variables must not shard the binaries it starts (docs/scale-out.md).
    ::setenv("GBX_SHARD_RESOLVED", "1", 1);
    ab_options.interleaved = !whole_processes;
    ab_options.futility = futility == "on";
    if (ab_options.candidate.empty()) ab_options.candidate = ab_options.base;
    ab_options.processes_given = ab_processes->count() > 0;
    ab_options.blocks_given = ab_blocks->count() > 0;
    ab_options.noise_band_given = ab_noise_band->count() > 0;
    return gbx::tools::ab_command(ab_options, std::cout, std::cerr);
  }
  compare_options.colour = gbx::tools::colour_wanted(STDOUT_FILENO);
  if (compare->parsed()) return gbx::tools::compare_records(compare_options, std::cout, std::cerr);
  if (pareto->parsed()) return gbx::tools::pareto_command(pareto_options, std::cout, std::cerr);
  if (trend->parsed()) return gbx::tools::trend_command(trend_options, std::cout, std::cerr);
  if (report->parsed()) return gbx::tools::write_report(report_options, std::cout, std::cerr);
  if (export_->parsed()) return gbx::tools::export_command(export_options, std::cout, std::cerr);
  if (merge->parsed()) return gbx::tools::merge_command(merge_options, std::cout, std::cerr);
  if (slurm->parsed()) {
    if (slurm_cpu_only) slurm_options.gres.clear();
    slurm_options.exclusive = !slurm_shared;
    return gbx::tools::slurm_command(slurm_options, std::cout, std::cerr);
  }
  if (env->parsed()) return gbx::tools::print_environment(env_binary, env_args, std::cout, std::cerr);
  return 2;
}

}  // namespace
