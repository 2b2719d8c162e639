// `opcts repro ID`: re-runs exactly one case and shows everything about it.
#include <algorithm>
#include <iostream>

#include "base/cli_args.h"
#include "cli/commands.h"
#include "conformance/case_id.h"
#include "conformance/case_run.h"
#include "conformance/property_case.h"
#include "conformance/runner.h"
#include "reports/status.h"
#include "reports/text_escape.h"
#include "spec/element.h"

namespace opcts {

namespace {

constexpr const char* kUsage =
    "usage: opcts repro [--backend NAME|PATH]... [--backend-options S] [--seed N]\n"
    "                   [--float-rules platform|ieee] CASE_ID\n"
    "Re-runs one case (an id opcts run or a property test printed; a run's id ends in its seed,\n"
    "--seed serves a glob) and shows its inputs, the expected and the actual outputs and the\n"
    "first mismatching elements.\n"
    "Exit 0 passed, 1 failed the gate, 2 bad input.\n" OPCTS_FLOAT_RULES_USAGE;

constexpr uint64_t kShown = 48;  // elements printed per tensor

void PrintTensor(const std::string& name, const TensorData& t, bool logical_only) {
  std::cout << "  " << name << ": " << DTypeName(t.desc.dtype) << " sizes "
            << FormatShape(t.desc.sizes);
  if (!t.desc.strides.empty()) std::cout << " strides " << FormatShape(t.desc.strides);
  std::cout << " total " << t.desc.total_bytes << " bytes\n   ";
  if (logical_only) return void(std::cout << " (output)\n");
  const StridedIndexer indexer(t.desc);
  const uint64_t n = ElementCount(t.desc);
  for (uint64_t i = 0; i < std::min(n, kShown); ++i)
    std::cout << " "
              << FormatElement(t.desc.dtype,
                               LoadBits(t.desc.dtype, t.Element(indexer.BufferIndex(i))));
  std::cout << (n > kShown ? " ..." : "") << "\n";
}

}  // namespace

int ReproCommand(const Args& raw) {
  CliArgs args(raw, {}, {"--backend", "--backend-options", "--seed", "--float-rules"});
  if (args.help()) return PrintUsage(kUsage);
  if (!args.error().empty()) return PrintUsage(kUsage, "opcts repro: " + args.error());
  if (args.positionals().size() != 1)
    return PrintUsage(kUsage, "opcts repro: give exactly one CASE_ID");
  const std::string& wanted = args.positionals()[0];
  // An exact id carries its run's seed; a glob takes --seed (default 1).
  std::optional<uint64_t> seed = args.GetNumber("--seed");
  if (!args.error().empty()) return PrintUsage(kUsage, "opcts repro: " + args.error());
  const Result<FloatRules> float_rules = ReadFloatRules(args);
  if (!float_rules) return PrintUsage(kUsage, "opcts repro: " + float_rules.error().message);
  std::optional<CaseId> id;
  if (wanted.find_first_of("*?[") == std::string::npos) {
    Result<CaseId> parsed = CaseId::Parse(wanted);
    if (!parsed) return PrintUsage(kUsage, "opcts repro: " + parsed.error().message);
    id = std::move(parsed).value();
    if (!seed) seed = id->seed;
  }
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  for (const std::string& e : specs.errors) std::cerr << e << "\n";
  if (!specs.errors.empty()) return 2;
  CaseFilter filter;
  filter.ids = {wanted};
  std::vector<CaseRecipe> cases;
  if (id && id->property) {  // a property test's case: its id alone rebuilds it
    Result<CaseRecipe> recipe = PropertyCaseRecipe(specs, *id);
    if (!recipe) return PrintUsage(kUsage, "opcts repro: " + recipe.error().message);
    cases.push_back(std::move(recipe).value());
  } else {
    cases = SelectCases(specs, seed.value_or(1), filter);
  }
  if (cases.size() != 1) {
    std::cerr << "opcts repro: " << cases.size() << " cases match '" << filter.ids[0] << "' (seed "
              << seed.value_or(1) << "); give one exact id (see opcts list --cases)\n";
    return 2;
  }
  const CaseRecipe& c = cases[0];
  PreparedCase prepared(c);
  const Operation& op = prepared.op();
  std::cout << "case " << c.id << "\n  operator " << c.spec->name << ", group "
            << GroupName(c.group) << (c.violates.empty() ? "" : " (violates " + c.violates + ")")
            << ", level " << (c.level.empty() ? "-" : c.level) << (c.in_place ? ", in place" : "")
            << "\n  parameters:";
  for (const auto& [name, value] : op.params) std::cout << " " << name << "=" << value;
  std::cout << "\n";
  for (const auto& [name, t] : op.tensors)
    PrintTensor(name, t, op.spec->FindTensor(name)->role == TensorRole::kOutput);

  if (c.group == CaseGroup::kValid) {
    for (const ExpectedTensor& e : prepared.expected().outputs) {
      std::cout << "  expected " << e.name << ":";
      for (uint64_t i = 0; i < std::min<uint64_t>(e.elements.size(), kShown); ++i)
        std::cout << " " << FormatExpected(e.desc.dtype, e, e.elements[i]);
      std::cout << (e.elements.size() > kShown ? " ..." : "") << "\n";
    }
  }

  std::vector<std::string> backends = args.GetAll("--backend");
  if (backends.empty()) backends = BuiltinBackendNames();
  int exit_code = 0;
  for (const std::string& name : backends) {
    PluginLoad load = LoadPlugin(name, args.Get("--backend-options").value_or(""));
    if (!load) {
      std::cerr << "backend " << name << ": " << TerminalSafe(load.error().message) << "\n";
      exit_code = 2;
      continue;
    }
    const Plugin& plugin = **load;
    const CaseVerdict verdict = RunCase(plugin, prepared, GroupFor(c, ClaimsOf(plugin)),
                                        {.keep_outputs = true, .float_rules = *float_rules});
    const CaseOutcome& o = verdict.outcome;
    std::cout << "\nbackend " << TerminalSafe(plugin.info().name) << ": " << StatusName(o.status)
              << (o.message.empty() ? "" : ": " + TerminalSafe(o.message)) << "\n";
    if (o.max_error)
      std::cout << "  max error " << *o.max_error << ", bound " << *o.bound << ", " << *o.ulp
                << " ULP\n";
    for (const auto& [out_name, actual] : o.outputs) {
      PrintTensor("actual " + out_name, actual, false);
      for (const ExpectedTensor& e : prepared.expected().outputs) {
        if (e.name != out_name) continue;
        const std::vector<uint64_t> bad =
            MismatchingElements(e, actual, 10, RulesFor(*float_rules, *op.spec));
        if (bad.empty()) continue;
        std::cout << "  first mismatches:\n";
        const StridedIndexer indexer(actual.desc);
        for (uint64_t i : bad)
          std::cout << "    " << FormatCoordinates(e.desc.sizes, i) << ": expected "
                    << FormatExpected(e.desc.dtype, e, e.elements[i]) << ", got "
                    << FormatElement(
                           actual.desc.dtype,
                           LoadBits(actual.desc.dtype, actual.Element(indexer.BufferIndex(i))))
                    << "\n";
      }
    }
    if (!verdict.acceptable && exit_code == 0) exit_code = 1;
  }
  return exit_code;
}

}  // namespace opcts
