// gbx: the command-line tool over gbx records.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "tools/env_command.h"
#include "tools/verify_command.h"

int main(int argc, char** argv) {
  CLI::App app{"gbx: tools over gbx benchmark records"};
  app.require_subcommand(1);

  std::string verify_path;
  CLI::App* verify = app.add_subcommand("verify", "Recompute a record's checksum: 0 intact, 1 mismatch, 2 unreadable");
  verify->add_option("FILE", verify_path, "the JSON record")->required();

  CLI::App* env = app.add_subcommand("env", "Print the environment a record would carry, as JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // Usage errors are bad input: exit 2, as every gbx tool does, rather than CLI11's own codes.
    const int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  if (verify->parsed()) return gbx::tools::verify_record(verify_path, std::cout, std::cerr);
  if (env->parsed()) return gbx::tools::print_environment(std::vector<std::string>(argv, argv + argc), std::cout);
  return 2;
}
