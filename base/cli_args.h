// A small argument reader shared by the subcommands: `--flag`, `--key value`, positionals, and
// `--help`/`-h` for every command. Errors are sentences; a command prints them with its usage
// (PrintUsage) and exits 2.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace opcts {

class CliArgs {
 public:
  // `flags` take no value; `options` take one (and may repeat).
  CliArgs(const std::vector<std::string>& args, const std::set<std::string>& flags,
          const std::set<std::string>& options);

  bool help() const { return help_; }  // --help or -h was given
  bool Has(const std::string& flag) const;
  std::optional<std::string> Get(const std::string& option) const;  // the last one given
  std::vector<std::string> GetAll(const std::string& option) const;
  std::optional<uint64_t> GetNumber(const std::string& option);  // sets error() when malformed
  const std::vector<std::string>& positionals() const { return positionals_; }
  const std::string& error() const { return error_; }

 private:
  std::vector<std::pair<std::string, std::string>> given_;
  std::vector<std::string> positionals_;
  std::string error_;
  bool help_ = false;
};

// `--help`: the usage on stdout, exit 0. An error: the error and the usage on stderr, exit 2.
int PrintUsage(const char* usage, const std::string& error = "");

// The files a command's FILE|DIR arguments name: directories expanded to the files with
// `extension` inside them (recursively, sorted); plain files kept as given.
std::vector<std::string> ExpandPaths(const std::vector<std::string>& paths,
                                     const std::string& extension);

}  // namespace opcts
