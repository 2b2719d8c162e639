#include "cli/cmd_report.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <utility>

#include "base/result.h"
#include "cli/commands.h"
#include "reports/atomic_file.h"
#include "reports/html_report.h"
#include "reports/journal_diff.h"
#include "reports/journal_merge.h"
#include "reports/json_summary.h"
#include "reports/junit_report.h"
#include "reports/markdown_report.h"
#include "reports/report_model.h"
#include "reports/text_escape.h"
#include "reports/waivers.h"

namespace opcts {
namespace {

constexpr char kUsage[] = R"(usage:
  opcts report [--json F] [--junit F] [--markdown F] [--html F] [--waivers F]... [--strict]
               [--today YYYY-MM-DD] [--require-level LEVEL]... [--require OP=LEVEL]...
               JOURNAL...
      Renders one or more journals (several backends allowed); F may be - for stdout.
      --require-level fails the gate unless, for every operator with levels like LEVEL, every
      case up to LEVEL passes; --require OP=LEVEL does so for one operator.
  opcts report diff [--waivers F]... [--strict] [--today YYYY-MM-DD] [--allow-missing]
                    [--allow-coverage-loss] [--require-level LEVEL]... [--require OP=LEVEL]...
                    BASE NEW
      Lists regressions, missing cases, lost coverage, fixes and status changes.
  opcts report merge -o OUT SHARD_JOURNAL...
      Joins the shard journals of one run into OUT.
  -h or --help anywhere prints this.
exit status: 0 gate passed / no regression, 1 gate failed / regression, 2 bad input or usage.
)";

// The files WriteReportSet writes, and what renders each.
using Renderer = std::string (*)(const Report&);
constexpr std::pair<const char*, Renderer> kReportFiles[] = {{"summary.json", RenderJsonSummary},
                                                             {"junit.xml", RenderJunit},
                                                             {"summary.md", RenderMarkdown},
                                                             {"report.html", RenderHtml}};

struct OptionSet {
  std::set<std::string> single;    // one value; given twice is an error
  std::set<std::string> repeated;  // every value kept, in order
  std::set<std::string> flags;
};

struct Arguments {
  std::map<std::string, std::vector<std::string>> values;
  std::set<std::string> flags;
  std::vector<std::string> positional;

  // The value of a single-valued option; nullptr when not given.
  const std::string* Value(const std::string& name) const {
    const auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second.front();
  }
  std::vector<std::string> All(const std::string& name) const {
    const auto it = values.find(name);
    return it == values.end() ? std::vector<std::string>{} : it->second;
  }
};

bool WantsHelp(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    if (arg == "--") return false;
    if (arg == "--help" || arg == "-h") return true;
  }
  return false;
}

// Accepts "--name value", "--name=value", flags, and "--" before positionals that start with '-'.
Result<Arguments> Parse(const std::vector<std::string>& args, size_t begin,
                        const OptionSet& options) {
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
    if (options.flags.count(name) && equals == std::string::npos) {
      parsed.flags.insert(name);
    } else if (!options.single.count(name) && !options.repeated.count(name)) {
      return InvalidInput("unknown option " + arg);
    } else if (equals == std::string::npos && i + 1 == args.size()) {
      return InvalidInput("option " + name + " needs a value");
    } else if (options.single.count(name) && parsed.values.count(name)) {
      return InvalidInput("option " + name + " given twice");
    } else {
      parsed.values[name].push_back(equals == std::string::npos ? args[++i]
                                                                : arg.substr(equals + 1));
    }
  }
  return parsed;
}

int BadInput(std::ostream& err, const std::string& message) {
  err << "opcts report: " << message << "\n";
  return kReportExitBadInput;
}

// A failed Result of the reports API: an unreadable file is bad input as much as a bad line.
int BadInput(std::ostream& err, const Error& error) { return BadInput(err, error.message); }

int Usage(std::ostream& err, const std::string& message) {
  err << "opcts report: " << message << "\n" << kUsage;
  return kReportExitBadInput;
}

// Reads every journal, printing their warnings to `err`.
Result<std::vector<SourcedJournal>> ReadAll(const std::vector<std::string>& paths,
                                            std::ostream& err) {
  std::vector<SourcedJournal> journals;
  for (const auto& path : paths) {
    OPCTS_ASSIGN_OR_RETURN(Journal journal, ReadJournal(path));
    for (const auto& warning : journal.warnings) {
      err << "warning: " << TerminalSafe(warning) << "\n";
    }
    journals.push_back({path, std::move(journal)});
  }
  return journals;
}

// --require-level LEVEL and --require OP=LEVEL; an error is a usage error.
Result<std::vector<LevelRequirement>> ReadRequirements(const Arguments& parsed) {
  std::vector<LevelRequirement> required;
  for (const std::string option : {"--require-level", "--require"}) {
    const bool per_operator = option == "--require";
    for (const auto& text : parsed.All(option)) {
      Result<LevelRequirement> requirement = ParseLevelRequirement(text);
      if (!requirement) return InvalidInput(option + " " + requirement.error().message);
      if (per_operator && requirement->op.empty()) {
        return InvalidInput("--require takes OP=LEVEL (e.g. dml_scatter_nd=4_1), not \"" + text +
                            "\"");
      }
      if (!per_operator && !requirement->op.empty()) {
        return InvalidInput(
            "--require-level takes a LEVEL; use --require OP=LEVEL for one operator");
      }
      required.push_back(std::move(requirement).value());
    }
  }
  return required;
}

struct GateInputs {
  std::vector<Waiver> waivers;
  ReportOptions options;
};

// --waivers, --strict and --today, shared by rendering and diff; an error is bad input.
Result<GateInputs> ReadGateInputs(const Arguments& parsed) {
  GateInputs inputs;
  inputs.options.strict = parsed.flags.count("--strict") > 0;
  inputs.options.today = TodayUtc();
  if (const std::string* today = parsed.Value("--today")) {
    if (!IsIsoDate(*today)) {
      return InvalidInput("--today: \"" + *today + "\" is not a date YYYY-MM-DD");
    }
    inputs.options.today = *today;
  }
  for (const auto& path : parsed.All("--waivers")) {
    OPCTS_ASSIGN_OR_RETURN(std::vector<Waiver> waivers, LoadWaivers(path));
    inputs.waivers.insert(inputs.waivers.end(), waivers.begin(), waivers.end());
  }
  return inputs;
}

// Writes `text` to `path` ("-": stdout) atomically.
Result<void> WriteOutput(const std::string& path, const std::string& text, std::ostream& out) {
  if (path == "-") {
    out << text;
    return {};
  }
  return WriteFileAtomically(path, text);
}

// The coverage table, then the verdict and its reasons last, where a reader looks.
void PrintVerdict(const Report& report, std::ostream& out, std::ostream& err) {
  out << RenderCoverageTable(report);
  out << "opcts report: " << report.cases.size() << " cases (";
  bool first = true;
  for (const auto& [status, count] : CountsByName(report.by_status)) {
    out << (first ? "" : ", ") << status << " " << count;
    first = false;
  }
  out << "): gate " << (report.Passed() ? "passed" : "FAILED") << "\n";
  for (const auto& reason : report.gate_reasons) out << "  - " << TerminalSafe(reason) << "\n";
  for (const auto& warning : report.warnings) err << "warning: " << TerminalSafe(warning) << "\n";
}

int GateExit(const Report& report) {
  return report.Passed() ? kReportExitPass : kReportExitGateFailed;
}

int Render(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Result<Arguments> parsed = Parse(args, 0,
                                         {{"--json", "--junit", "--markdown", "--html", "--today"},
                                          {"--waivers", "--require-level", "--require"},
                                          {"--strict"}});
  if (!parsed) return Usage(err, parsed.error().message);
  if (parsed->positional.empty()) return Usage(err, "no journal given");
  Result<std::vector<LevelRequirement>> required = ReadRequirements(*parsed);
  if (!required) return Usage(err, required.error().message);
  Result<GateInputs> inputs = ReadGateInputs(*parsed);
  if (!inputs) return BadInput(err, inputs.error());
  inputs->options.required = std::move(required).value();
  const Result<std::vector<SourcedJournal>> journals = ReadAll(parsed->positional, err);
  if (!journals) return BadInput(err, journals.error());
  const Result<Report> report = BuildReport(*journals, inputs->waivers, inputs->options);
  if (!report) return BadInput(err, report.error());

  const std::pair<const char*, Renderer> outputs[] = {{"--json", RenderJsonSummary},
                                                      {"--junit", RenderJunit},
                                                      {"--markdown", RenderMarkdown},
                                                      {"--html", RenderHtml}};
  bool to_stdout = false;
  for (const auto& [option, render] : outputs) {
    const std::string* path = parsed->Value(option);
    if (!path) continue;
    to_stdout |= *path == "-";
    if (Result<void> written = WriteOutput(*path, render(*report), out); !written) {
      return BadInput(err, written.error());
    }
  }
  // Keep stdout clean for a report written there.
  PrintVerdict(*report, to_stdout ? err : out, err);
  return GateExit(*report);
}

int Diff(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Result<Arguments> parsed =
      Parse(args, 1,
            {{"--today"},
             {"--waivers", "--require-level", "--require"},
             {"--strict", "--allow-missing", "--allow-coverage-loss"}});
  if (!parsed) return Usage(err, parsed.error().message);
  if (parsed->positional.size() != 2) return Usage(err, "diff needs exactly BASE and NEW");
  Result<std::vector<LevelRequirement>> required = ReadRequirements(*parsed);
  if (!required) return Usage(err, required.error().message);
  Result<GateInputs> inputs = ReadGateInputs(*parsed);
  if (!inputs) return BadInput(err, inputs.error());
  inputs->options.required = std::move(required).value();
  const Result<std::vector<SourcedJournal>> journals = ReadAll(parsed->positional, err);
  if (!journals) return BadInput(err, journals.error());
  const Result<Report> base = BuildReport({(*journals)[0]}, inputs->waivers, inputs->options);
  if (!base) return BadInput(err, base.error());
  const Result<Report> next = BuildReport({(*journals)[1]}, inputs->waivers, inputs->options);
  if (!next) return BadInput(err, next.error());
  if (next->cases.empty()) {
    out << "diff: NEW " << (*journals)[1].source
        << " holds no case: nothing was compared, nothing was proven: REGRESSED\n";
    return kReportExitGateFailed;
  }
  const DiffAllowances allow{parsed->flags.count("--allow-missing") > 0,
                             parsed->flags.count("--allow-coverage-loss") > 0};
  const JournalDiff diff = DiffReports(*base, *next);
  out << RenderDiff(diff, allow);
  return diff.Regressed(allow) ? kReportExitGateFailed : kReportExitPass;
}

std::string JournalText(const Journal& journal) {
  std::string text = ToJsonLine(journal.header) + "\n";
  for (const auto& record : journal.cases) text += ToJsonLine(record) + "\n";
  for (const auto& record : journal.memory) text += ToJsonLine(record) + "\n";
  for (const auto& record : journal.shrunk) text += ToJsonLine(record) + "\n";
  return text;
}

int Merge(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Result<Arguments> parsed = Parse(args, 1, {{"-o", "--output"}, {}, {}});
  if (!parsed) return Usage(err, parsed.error().message);
  const std::string* output = parsed->Value("-o") ? parsed->Value("-o") : parsed->Value("--output");
  if (!output || output->empty()) return Usage(err, "merge needs -o OUT");
  if (parsed->positional.empty()) return Usage(err, "merge needs shard journals");
  const Result<std::vector<SourcedJournal>> shards = ReadAll(parsed->positional, err);
  if (!shards) return BadInput(err, shards.error());
  const Result<Journal> merged = MergeShards(*shards);
  if (!merged) return BadInput(err, merged.error());
  if (merged->cases.empty()) {
    err << "opcts report merge: the shards hold no case (nothing to merge)\n";
    return kReportExitBadInput;
  }
  // A merged journal is written whole or not at all, like the reports (never to stdout).
  if (Result<void> written = WriteFileAtomically(*output, JournalText(*merged)); !written) {
    return BadInput(err, written.error());
  }
  out << "opcts report merge: " << shards->size() << " shard(s), " << merged->cases.size()
      << " cases -> " << *output << "\n";
  return kReportExitPass;
}

}  // namespace

int ReportMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return Usage(err, "nothing to do");
  if (WantsHelp(args) || args[0] == "help") {
    out << kUsage;
    return kReportExitPass;
  }
  if (args[0] == "diff") return Diff(args, out, err);
  if (args[0] == "merge") return Merge(args, out, err);
  return Render(args, out, err);
}

int ReportCommand(const Args& args) { return ReportMain(args, std::cout, std::cerr); }

int WriteReportSet(const std::vector<std::string>& journal_paths, const ReportOptions& options,
                   const std::string& dir, std::ostream& out, std::ostream& err) {
  const Result<std::vector<SourcedJournal>> journals = ReadAll(journal_paths, err);
  if (!journals) return BadInput(err, journals.error());
  const Result<Report> report = BuildReport(*journals, {}, options);
  if (!report) return BadInput(err, report.error());
  for (const auto& [name, render] : kReportFiles) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    if (Result<void> written = WriteFileAtomically(path, render(*report)); !written) {
      return BadInput(err, written.error());
    }
  }
  PrintVerdict(*report, out, err);
  return GateExit(*report);
}

}  // namespace opcts
