#include "reports/report_cli.h"

#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "reports/html_report.h"
#include "reports/journal_diff.h"
#include "reports/journal_merge.h"
#include "reports/json_summary.h"
#include "reports/junit_report.h"
#include "reports/markdown_report.h"
#include "reports/report_model.h"
#include "reports/waivers.h"

namespace opcts {
namespace {

constexpr char kUsage[] = R"(usage:
  opcts report [--json F] [--junit F] [--markdown F] [--html F] [--waivers F] [--strict]
               [--today YYYY-MM-DD] JOURNAL...
      Renders one or more journals (several backends allowed); F may be - for stdout.
  opcts report diff [--waivers F] [--strict] [--today YYYY-MM-DD] [--allow-missing] BASE NEW
      Lists regressions, fixes and status changes between two journals.
  opcts report merge -o OUT SHARD_JOURNAL...
      Joins the shard journals of one run into OUT.
exit status: 0 gate passed / no regression, 1 gate failed / regression, 2 bad input or usage.
)";

struct Arguments {
  std::map<std::string, std::string> values;
  std::set<std::string> flags;
  std::vector<std::string> positional;
  std::string error;
};

// Accepts "--name value", "--name=value", flags, and "--" before positionals that start with '-'.
Arguments Parse(const std::vector<std::string>& args, size_t begin,
                const std::set<std::string>& value_options, const std::set<std::string>& flags) {
  Arguments parsed;
  bool options_done = false;
  for (size_t i = begin; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_done || arg == "-" || arg.empty() || arg[0] != '-') {
      parsed.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    const size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    if (flags.count(name) && equals == std::string::npos) {
      parsed.flags.insert(name);
    } else if (value_options.count(name)) {
      if (equals != std::string::npos) {
        parsed.values[name] = arg.substr(equals + 1);
      } else if (i + 1 < args.size()) {
        parsed.values[name] = args[++i];
      } else {
        parsed.error = "option " + name + " needs a value";
      }
    } else {
      parsed.error = "unknown option " + arg;
    }
    if (!parsed.error.empty()) break;
  }
  return parsed;
}

int BadInput(std::ostream& err, const std::string& message) {
  err << "opcts report: " << message << "\n";
  return kReportExitBadInput;
}

int Usage(std::ostream& err, const std::string& message) {
  err << "opcts report: " << message << "\n" << kUsage;
  return kReportExitBadInput;
}

// Reads every journal, printing warnings; false (message printed) on the first error.
bool ReadAll(const std::vector<std::string>& paths, std::vector<SourcedJournal>& journals,
             std::ostream& err) {
  for (const auto& path : paths) {
    auto journal = ReadJournal(path);
    if (!journal.value) {
      err << "opcts report: " << journal.error << "\n";
      return false;
    }
    for (const auto& warning : journal.value->warnings) err << "warning: " << warning << "\n";
    journals.push_back({path, std::move(*journal.value)});
  }
  return true;
}

struct GateInputs {
  std::vector<Waiver> waivers;
  ReportOptions options;
};

// --waivers, --strict and --today, shared by rendering and diff; "" or an error message.
std::string ReadGateInputs(const Arguments& parsed, GateInputs& inputs) {
  inputs.options.strict = parsed.flags.count("--strict") > 0;
  inputs.options.today = TodayUtc();
  if (const auto it = parsed.values.find("--today"); it != parsed.values.end()) {
    if (!IsIsoDate(it->second)) return "--today: \"" + it->second + "\" is not a date YYYY-MM-DD";
    inputs.options.today = it->second;
  }
  if (const auto it = parsed.values.find("--waivers"); it != parsed.values.end()) {
    auto waivers = LoadWaivers(it->second);
    if (!waivers.value) return waivers.error;
    inputs.waivers = std::move(*waivers.value);
  }
  return "";
}

// Writes `text` to `path` ("-": stdout); false (message printed) when that fails.
bool WriteOutput(const std::string& path, const std::string& text, std::ostream& out,
                 std::ostream& err) {
  if (path == "-") {
    out << text;
    return true;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) err << "opcts report: " << path << ": cannot write\n";
  return static_cast<bool>(file);
}

void PrintVerdict(const Report& report, std::ostream& out, std::ostream& err) {
  out << "opcts report: " << report.cases.size() << " cases (";
  bool first = true;
  for (const auto& [status, count] : report.by_status) {
    out << (first ? "" : ", ") << status << " " << count;
    first = false;
  }
  out << "): gate " << (report.Passed() ? "passed" : "FAILED") << "\n";
  for (const auto& reason : report.gate_reasons) out << "  - " << reason << "\n";
  for (const auto& warning : report.warnings) err << "warning: " << warning << "\n";
}

int Render(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Arguments parsed = Parse(
      args, 0, {"--json", "--junit", "--markdown", "--html", "--waivers", "--today"}, {"--strict"});
  if (!parsed.error.empty()) return Usage(err, parsed.error);
  if (parsed.positional.empty()) return Usage(err, "no journal given");
  GateInputs inputs;
  if (std::string error = ReadGateInputs(parsed, inputs); !error.empty())
    return BadInput(err, error);
  std::vector<SourcedJournal> journals;
  if (!ReadAll(parsed.positional, journals, err)) return kReportExitBadInput;
  const auto report = BuildReport(journals, inputs.waivers, inputs.options);
  if (!report.value) return BadInput(err, report.error);

  using Renderer = std::string (*)(const Report&);
  const std::pair<const char*, Renderer> outputs[] = {{"--json", RenderJsonSummary},
                                                      {"--junit", RenderJunit},
                                                      {"--markdown", RenderMarkdown},
                                                      {"--html", RenderHtml}};
  bool to_stdout = false;
  for (const auto& [option, render] : outputs) {
    const auto it = parsed.values.find(option);
    if (it == parsed.values.end()) continue;
    to_stdout |= it->second == "-";
    if (!WriteOutput(it->second, render(*report.value), out, err)) return kReportExitBadInput;
  }
  // Keep stdout clean for a report written there.
  PrintVerdict(*report.value, to_stdout ? err : out, err);
  return report.value->Passed() ? kReportExitPass : kReportExitGateFailed;
}

int Diff(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Arguments parsed =
      Parse(args, 1, {"--waivers", "--today"}, {"--strict", "--allow-missing"});
  if (!parsed.error.empty()) return Usage(err, parsed.error);
  if (parsed.positional.size() != 2) return Usage(err, "diff needs exactly BASE and NEW");
  GateInputs inputs;
  if (std::string error = ReadGateInputs(parsed, inputs); !error.empty())
    return BadInput(err, error);
  std::vector<SourcedJournal> journals;
  if (!ReadAll(parsed.positional, journals, err)) return kReportExitBadInput;
  const auto base = BuildReport({journals[0]}, inputs.waivers, inputs.options);
  if (!base.value) return BadInput(err, base.error);
  const auto next = BuildReport({journals[1]}, inputs.waivers, inputs.options);
  if (!next.value) return BadInput(err, next.error);
  const bool allow_missing = parsed.flags.count("--allow-missing") > 0;
  const JournalDiff diff = DiffReports(*base.value, *next.value);
  out << RenderDiff(diff, allow_missing);
  return diff.Regressed(allow_missing) ? kReportExitGateFailed : kReportExitPass;
}

int Merge(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Arguments parsed = Parse(args, 1, {"-o", "--output"}, {});
  if (!parsed.error.empty()) return Usage(err, parsed.error);
  std::string output;
  for (const char* name : {"-o", "--output"}) {
    if (parsed.values.count(name)) output = parsed.values.at(name);
  }
  if (output.empty()) return Usage(err, "merge needs -o OUT");
  if (parsed.positional.empty()) return Usage(err, "merge needs shard journals");
  std::vector<SourcedJournal> shards;
  if (!ReadAll(parsed.positional, shards, err)) return kReportExitBadInput;
  const auto merged = MergeShards(shards);
  if (!merged.value) return BadInput(err, merged.error);
  auto writer = JournalWriter::Open(output, merged.value->header, /*append=*/false);
  if (!writer.value) return BadInput(err, writer.error);
  for (const auto& record : merged.value->cases) {
    if (!writer.value->Append(record)) return BadInput(err, output + ": write failed");
  }
  out << "opcts report merge: " << shards.size() << " shard(s), " << merged.value->cases.size()
      << " cases -> " << output << "\n";
  return kReportExitPass;
}

}  // namespace

int ReportMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return Usage(err, "nothing to do");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    out << kUsage;
    return kReportExitPass;
  }
  if (args[0] == "diff") return Diff(args, out, err);
  if (args[0] == "merge") return Merge(args, out, err);
  return Render(args, out, err);
}

int ReportMain(const std::vector<std::string>& args) {
  return ReportMain(args, std::cout, std::cerr);
}

}  // namespace opcts
