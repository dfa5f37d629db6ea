#include "cli/slurm_command.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "cli/merge_command.h"
#include "record/atomic_file.h"

namespace gbx::tools {

namespace {

class BadOption : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// An #SBATCH value is one word of one line.
void check_word(const std::string& flag, const std::string& value) {
  if (value.find_first_of(" \t\r\n'\"\\") != std::string::npos) {
    throw BadOption("invalid value '" + value + "' for " + flag + ": expected one word without quotes");
  }
}

std::string absolute(const std::string& path) {
  if (path.empty() || path.front() == '/') return path;
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof cwd) == nullptr)
    throw BadOption(std::string("cannot read the working directory: ") + std::strerror(errno));
  return std::string(cwd) + "/" + path;
}

void check(const SlurmOptions& options) {
  if (options.shards < 1) throw BadOption("invalid value for --shards: expected a positive number of shards");
  if (options.bench.empty()) throw BadOption("no bench binary: gbx slurm [options] -- BENCH [FLAGS]");
  check_word("--partition", options.partition);
  check_word("--gres", options.gres);
  check_word("--time", options.time_limit);
  check_word("--job-name", options.job_name);
  if (options.time_limit.empty()) throw BadOption("invalid value '' for --time: expected a Slurm time limit");
  if (options.output_dir.empty()) throw BadOption("invalid value '' for --output-dir: expected a directory");
  for (const auto& arg : options.bench) {
    for (const char* taken : {"--gbx_shard", "--benchmark_out", "--gbx_out_dir"}) {
      const std::string flag = taken;
      if (arg == flag || arg.rfind(flag + "=", 0) == 0 || arg.rfind(flag + "_", 0) == 0) {
        throw BadOption("the bench flag '" + arg +
                        "' is for gbx slurm to set: each task gets its own shard and record (--plan gives "
                        "--gbx_shard_plan)");
      }
    }
  }
}

// Runs argv to its end with stdout captured (stderr passes through); returns the exit status.
int run_captured(const std::vector<std::string>& argv, std::string& output) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "gbx slurm: cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(fds[1]);
  char buffer[4096];
  for (ssize_t got; (got = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    output.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

// Once every task has ended: which shards failed, and the merge of the records there are.
int collect(const SlurmOptions& options, const std::string& dir, const std::string& job, std::ostream& out,
            std::ostream& err) {
  std::vector<std::string> records;
  bool failed = false;
  const std::string log_prefix = dir + "/slurm-" + job + "_";  // made once: the loop adds each shard's number
  for (std::int64_t i = 0; i < options.shards; ++i) {
    const std::string base = dir + "/shard-" + std::to_string(i);
    const std::string log = log_prefix + std::to_string(i) + ".out";
    std::ifstream exit_file(base + ".exit");
    int status = -1;
    if (!(exit_file >> status)) {
      failed = true;
      err << "gbx slurm: shard " << i << " did not end normally (cancelled, timed out or its node failed): see " << log
          << "\n";
    } else if (status != 0) {
      failed = true;
      err << "gbx slurm: shard " << i << " failed (exit " << status << "): see " << log << "\n";
    }
    if (exists(base + ".json")) {
      records.push_back(base + ".json");
    } else if (status != 0) {
      err << "gbx slurm: shard " << i << " wrote no record\n";
    }
  }
  if (records.empty()) {
    err << "gbx slurm: no shard wrote a record; nothing to merge\n";
    return 1;
  }
  MergeOptions merge;
  merge.inputs = records;
  merge.output = dir + "/merged.json";
  merge.allow_partial = failed;  // keep what the other shards measured
  const int merged = merge_command(merge, out, err);
  if (merged != 0) return merged;
  return failed ? 1 : 0;
}

}  // namespace

std::string sbatch_script(const SlurmOptions& options) {
  const std::string dir = absolute(options.output_dir);
  std::ostringstream script;
  script << "#!/bin/bash\n"
         << "# Written by gbx slurm: each task of the array runs one shard of the bench binary (docs/scale-out.md).\n"
         << "#SBATCH --job-name=" << options.job_name << "\n"
         << "#SBATCH --array=0-" << options.shards - 1 << "\n";
  if (!options.partition.empty()) script << "#SBATCH --partition=" << options.partition << "\n";
  if (!options.gres.empty()) script << "#SBATCH --gres=" << options.gres << "\n";
  if (options.exclusive) script << "#SBATCH --exclusive\n";
  script << "#SBATCH --time=" << options.time_limit << "\n"
         << "#SBATCH --output=" << dir << "/slurm-%A_%a.out\n"
         << "dir=" << quoted(dir) << "\n"
         << "shard=${SLURM_ARRAY_TASK_ID:?not a Slurm array task}\n"
         << "unset GBX_SHARD_INDEX GBX_SHARD_COUNT GBX_SHARD_RESOLVED  # the array task says which shard\n"
         << "rm -f \"$dir/shard-$shard.json\" \"$dir/shard-$shard.exit\"\n";
  std::string bench = options.bench.front();
  if (bench.find('/') != std::string::npos) bench = absolute(bench);
  script << quoted(bench);
  for (std::size_t i = 1; i < options.bench.size(); ++i) script << " " << quoted(options.bench[i]);
  if (!options.plan.empty()) script << " " << quoted("--gbx_shard_plan=" + absolute(options.plan));
  script << " \"--benchmark_out=$dir/shard-$shard.json\"\n"
         << "status=$?\n"
         << "echo \"$status\" > \"$dir/shard-$shard.exit\"\n"
         << "exit \"$status\"\n";
  return script.str();
}

int slurm_command(const SlurmOptions& options, std::ostream& out, std::ostream& err) {
  std::string script;
  std::string dir;
  try {
    check(options);
    script = sbatch_script(options);
    dir = absolute(options.output_dir);
  } catch (const std::exception& error) {
    err << "gbx slurm: " << error.what() << "\n";
    return 2;
  }
  if (options.dry_run) {
    out << script;
    return 0;
  }
  const std::string script_path = dir + "/gbx-shards.sbatch";
  std::string output;
  int status = 0;
  try {
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      throw std::runtime_error("cannot create --output-dir " + dir + ": " + std::strerror(errno));
    }
    write_file_atomically(script_path, script);
    std::vector<std::string> sbatch = {"sbatch", "--parsable"};
    if (options.wait) sbatch.push_back("--wait");
    sbatch.push_back(script_path);
    status = run_captured(sbatch, output);
  } catch (const std::exception& error) {
    err << "gbx slurm: " << error.what() << "\n";
    return 2;
  }
  const std::string job = output.substr(0, output.find_first_of(";\n"));
  if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos) {
    err << "gbx slurm: sbatch " << script_path << " did not submit the job (exit " << status << ")\n";
    return 2;
  }
  out << "gbx slurm: job " << job << ", " << options.shards << " shard(s); records go to " << dir << "\n";
  // sbatch --wait exits non-zero when a task failed: collect names which.
  return options.wait ? collect(options, dir, job, out, err) : 0;
}

}  // namespace gbx::tools
