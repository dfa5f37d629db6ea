#include "cli/report_command.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "record/atomic_file.h"
#include "record/record_reader.h"
#include "report/history_page.h"
#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/report_model.h"

#ifndef GBX_REPORT_ASSETS_DIR
#define GBX_REPORT_ASSETS_DIR "report/node_modules"
#endif
// Where `cmake --install` puts the charting libraries, relative to the installed gbx binary.
#ifndef GBX_INSTALLED_REPORT_ASSETS
#define GBX_INSTALLED_REPORT_ASSETS "../share/gbx/report/node_modules"
#endif

namespace gbx::tools {

namespace {

// The installed libraries beside this binary, if it is an installed gbx that has them.
std::optional<std::string> installed_assets() {
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  const std::filesystem::path directory = (binary.parent_path() / GBX_INSTALLED_REPORT_ASSETS).lexically_normal();
  if (!std::filesystem::exists(directory / "vega" / "build" / "vega.min.js", error)) return std::nullopt;
  return directory.string();
}

}  // namespace

AssetsLocation locate_assets(const std::string& option) {
  if (!option.empty()) return {option, "--assets"};
  const char* variable = std::getenv("GBX_REPORT_ASSETS");
  if (variable != nullptr && *variable != '\0') return {variable, "GBX_REPORT_ASSETS"};
  if (auto installed = installed_assets()) return {*installed, "the installation"};
  return {GBX_REPORT_ASSETS_DIR, "the default"};
}

namespace {

// Why the report must not be written where options.output says, or "": it would replace one of its
// own inputs, or replace a symbolic link (rename() swaps the link for a file, and the file the link
// names, which the user meant, is left as it was).
std::string refuse_output(const ReportOptions& options) {
  std::string output = options.output;
  if (output.empty() && options.format == "html") output = "report.html";
  if (output.empty() || output == "-") return "";
  struct stat link {};
  if (::lstat(output.c_str(), &link) != 0) return "";
  if (S_ISLNK(link.st_mode)) {
    return "-o " + output + " is a symbolic link; give the file it names, or remove the link, to write there";
  }
  for (const std::string& input : options.inputs) {
    std::error_code error;
    if (std::filesystem::equivalent(input, output, error)) {
      // NOLINTNEXTLINE(performance-inefficient-string-concatenation): the message is built once, on the way out
      return "-o " + output + " is the input record " + input + "; the report would overwrite it";
    }
  }
  return "";
}

}  // namespace

int write_report(const ReportOptions& options, std::ostream& out, std::ostream& err) {
  if (options.format != "html" && options.format != "markdown") {
    err << "gbx report: invalid value '" << options.format << "' for --format: expected html or markdown\n";
    return 2;
  }
  if (options.inputs.empty()) {
    err << "gbx report: no record given\n";
    return 2;
  }
  const std::string refused = refuse_output(options);
  if (!refused.empty()) {
    err << "gbx report: " << refused << "\n";
    return 2;
  }
  // Everything is read and built before anything is written: a failure leaves no file behind.
  HtmlAssets assets;
  if (options.format == "html") {
    const AssetsLocation location = locate_assets(options.assets);
    try {
      assets = read_assets(location.directory);
    } catch (const std::runtime_error& error) {
      err << "gbx report: the charting libraries were not found in " << location.directory << " (from "
          << location.source << "): " << error.what()
          << "\nRun `npm ci --prefix report` in the gbx source tree, or point --assets (or GBX_REPORT_ASSETS) "
             "at a node_modules directory that holds vega and vega-lite.\n";
      return 2;
    }
  }
  ReportModel model;
  try {
    // The history page draws no distribution: its runs' samples need not be kept (report/history_page.h).
    const bool history = options.format == "html" && options.inputs.size() >= kHistoryRuns;
    model = build_report_model(options.inputs, !history);
  } catch (const BadRecord& error) {
    err << "gbx report: " << error.what() << "\n";
    return 2;
  }

  std::string content;
  if (options.format == "html") {
    // Many records are a history, not runs to read one by one (report/history_page.h).
    content = model.runs.size() >= kHistoryRuns ? history_page(model, assets) : html_report(model, assets);
  } else {
    std::ostringstream text;
    write_markdown_report(text, model);
    content = text.str();
  }
  std::string output = options.output;
  if (output.empty() && options.format == "html") output = "report.html";
  if (output.empty() || output == "-") {
    out << content;
    return 0;
  }
  try {
    write_file_atomically(output, content);
  } catch (const std::runtime_error& error) {
    err << "gbx report: " << error.what() << "\n";
    return 2;
  }
  out << "gbx report: wrote " << output << "\n";
  return 0;
}

}  // namespace gbx::tools
