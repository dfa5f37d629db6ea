#include "extensions/protocol.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>

namespace gbx {

const char* to_string(CacheMode mode) { return mode == CacheMode::cold ? "cold" : "hot"; }

namespace {

Protocol& protocol_storage() {
  static Protocol protocol;
  return protocol;
}

PrecisionEstimate& estimate_storage() {
  static PrecisionEstimate estimate;
  return estimate;
}

[[noreturn]] void refuse(const std::string& flag, const std::string& value, const std::string& expected) {
  throw FlagError("invalid value '" + value + "' for --" + flag + ": expected " + expected);
}

std::int64_t parse_count(const std::string& flag, const std::string& value, std::int64_t least) {
  const std::string expected = least == 0 ? "a non-negative integer" : "a positive integer";
  if (value.empty() || value.find_first_not_of("0123456789+-") != std::string::npos) refuse(flag, value, expected);
  errno = 0;
  char* end = nullptr;
  const long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || parsed < least) refuse(flag, value, expected);
  return parsed;
}

double parse_positive(const std::string& flag, const std::string& value, const std::string& expected) {
  errno = 0;
  char* end = nullptr;
  const double parsed = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
  if (value.empty() || errno != 0 || *end != '\0' || !std::isfinite(parsed) || parsed <= 0.0) {
    refuse(flag, value, expected);
  }
  return parsed;
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
  // CLI11 tokenises; the values are checked here so that each message names the flag and the value.
  CLI::App app{"gbx benchmark flags"};
  app.allow_extras();
  app.set_help_flag();
  app.allow_windows_style_options(false);
  std::optional<std::string> warmup, min_samples, max_samples, max_time, cache, out_dir, target_rel_ci;
  app.add_option("--gbx_warmup", warmup);
  app.add_option("--gbx_min_samples", min_samples);
  app.add_option("--gbx_max_samples", max_samples);
  app.add_option("--gbx_max_time", max_time);
  app.add_option("--gbx_cache", cache);
  app.add_option("--gbx_out_dir", out_dir);
  app.add_option("--gbx_target_rel_ci", target_rel_ci);

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& error) {
    throw FlagError(error.what());
  }

  CommandLine line;
  for (const auto& extra : app.remaining()) {
    if (extra.rfind("--gbx_", 0) == 0) {
      throw FlagError("unknown flag '" + extra + "'; the gbx flags are:\n" + flags_help());
    }
    line.passthrough.push_back(extra);
  }
  Protocol& p = line.protocol;
  if (warmup) p.warmup_runs = parse_count("gbx_warmup", *warmup, 0);
  if (min_samples) p.min_samples = parse_count("gbx_min_samples", *min_samples, 1);
  if (max_samples) p.max_samples = parse_count("gbx_max_samples", *max_samples, 1);
  if (max_time) p.max_time_seconds = parse_positive("gbx_max_time", *max_time, "a positive number of seconds");
  if (cache) {
    if (*cache == "cold") {
      p.cache = CacheMode::cold;
    } else if (*cache == "hot") {
      p.cache = CacheMode::hot;
    } else {
      refuse("gbx_cache", *cache, "cold or hot");
    }
  }
  if (target_rel_ci) {
    p.target_rel_ci = parse_positive("gbx_target_rel_ci", *target_rel_ci, "a relative half-width in (0, 1]");
    if (p.target_rel_ci > 1.0) refuse("gbx_target_rel_ci", *target_rel_ci, "a relative half-width in (0, 1]");
  }
  if (p.min_samples > p.max_samples) {
    throw FlagError("--gbx_min_samples=" + std::to_string(p.min_samples) +
                    " is greater than --gbx_max_samples=" + std::to_string(p.max_samples));
  }
  if (out_dir) {
    if (out_dir->empty()) throw FlagError("invalid value '' for --gbx_out_dir: expected a directory");
    line.out_dir = *out_dir;
  }
  return line;
}

std::string flags_help() {
  const Protocol defaults;
  std::ostringstream out;
  out << "  --gbx_warmup=N         runs before sampling, discarded (default " << defaults.warmup_runs << ")\n"
      << "  --gbx_min_samples=N    samples taken per benchmark (default " << defaults.min_samples << ")\n"
      << "  --gbx_max_samples=N    most samples per benchmark (default " << defaults.max_samples << ")\n"
      << "  --gbx_max_time=S       wall-time bound per benchmark, seconds (default " << defaults.max_time_seconds
      << ")\n"
      << "  --gbx_cache=cold|hot   cold flushes caches before every sample, untimed (default hot)\n"
      << "  --gbx_target_rel_ci=R  sample until the median's 95% CI half-width / median <= R (default off)\n"
      << "  --gbx_out_dir=DIR      write the JSON record to DIR/<UTC time>-<run id>.json\n";
  return out.str();
}

const Protocol& active_protocol() { return protocol_storage(); }

void set_active_protocol(const Protocol& protocol) { protocol_storage() = protocol; }

void set_precision_estimate(PrecisionEstimate estimate) { estimate_storage() = std::move(estimate); }

const PrecisionEstimate& precision_estimate() { return estimate_storage(); }

}  // namespace gbx
