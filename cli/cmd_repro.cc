// `opcts repro ID`: re-runs exactly one case and shows everything about it; with --shrink, also
// the smallest case that fails the same way (conformance/shrink.h), written as a test vector.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>

#include "base/cli_args.h"
#include "cli/commands.h"
#include "conformance/case_id.h"
#include "conformance/case_run.h"
#include "conformance/plugin_loader.h"
#include "conformance/property_case.h"
#include "conformance/repro_command.h"
#include "conformance/runner.h"
#include "conformance/shrink.h"
#include "reports/status.h"
#include "reports/text_escape.h"
#include "spec/element.h"

namespace opcts {

namespace {

constexpr const char* kUsage =
    "usage: opcts repro [--backend NAME|PATH[@OPTIONS]]... [--backend-options S] [--seed N]\n"
    "                   [--float-rules platform|ieee]\n"
    "                   [--shrink [--shrink-seconds N] [--output FILE]] CASE_ID\n"
    "Re-runs one case (an id opcts run or a property test printed; a run's id ends in its seed,\n"
    "--seed serves a glob) and shows its inputs, the expected and the actual outputs and the\n"
    "first mismatching elements. A tensor of more than 48 elements shows its first elements and\n"
    "those around its first mismatches (marked *x*, in the inputs of its shape too).\n"
    "--shrink (with one --backend): when the case fails, searches for the smallest case that\n"
    "fails the same way (fewer dimensions and elements, packed, simpler values; at most\n"
    "--shrink-seconds, default 5), shows it and writes it as a test vector, FILE or\n"
    "CASE_ID.shrunk.json here, which `opcts vectors --backend B FILE` reproduces.\n"
    "Exit 0 passed, 1 failed the gate, 2 bad input.\n" OPCTS_FLOAT_RULES_USAGE;

constexpr uint64_t kShown = 48;  // a tensor of up to this many elements is printed whole;
constexpr uint64_t kHead = 8;    // a larger one by its first elements
constexpr uint64_t kAround = 3;  // and these many on each side of
constexpr size_t kWindows = 4;   // each of its first mismatching elements
constexpr size_t kMismatchesListed = 10;
constexpr size_t kStepsShown = 30;  // --shrink: the first and last half of them

using ElementText = std::function<std::string(uint64_t logical)>;

// A tensor's elements: all of them, or the first few and windows around `marks` (ascending
// logical indices), each line led by the coordinates of its first element.
void PrintElements(const std::vector<uint32_t>& sizes, const ElementText& text,
                   const std::vector<uint64_t>& marks) {
  uint64_t n = 1;
  for (uint32_t s : sizes) n *= s;
  auto element = [&](uint64_t i) {
    std::string shown = text(i);
    if (std::binary_search(marks.begin(), marks.end(), i)) shown.insert(0, 1, '*').push_back('*');
    return shown;
  };
  if (n <= kShown) {
    std::cout << "   ";
    for (uint64_t i = 0; i < n; ++i) std::cout << " " << element(i);
    std::cout << "\n";
    return;
  }
  std::vector<std::pair<uint64_t, uint64_t>> windows = {{0, kHead}};  // [begin, end)
  for (size_t k = 0; k < std::min(marks.size(), kWindows); ++k) {
    const uint64_t begin = marks[k] > kAround ? marks[k] - kAround : 0;
    const uint64_t end = std::min(n, marks[k] + kAround + 1);
    if (begin <= windows.back().second)
      windows.back().second = std::max(windows.back().second, end);
    else
      windows.emplace_back(begin, end);
  }
  for (const auto& [begin, end] : windows) {
    std::cout << "    " << FormatCoordinates(sizes, begin) << ":" << (begin > 0 ? " ..." : "");
    for (uint64_t i = begin; i < end; ++i) std::cout << " " << element(i);
    std::cout << (end < n ? " ..." : "") << "\n";
  }
  std::cout << "    (" << n << " elements"
            << (marks.empty() ? "" : "; *x*: where the output mismatches") << ")\n";
}

ElementText TensorText(const TensorData& t) {
  return [&t, indexer = StridedIndexer(t.desc)](uint64_t i) {
    return FormatElement(t.desc.dtype, LoadBits(t.desc.dtype, t.Element(indexer.BufferIndex(i))));
  };
}

ElementText ExpectedText(const ExpectedTensor& e) {
  return [&e](uint64_t i) { return FormatExpected(e.desc.dtype, e, e.elements[i]); };
}

void PrintDesc(const std::string& name, const TensorDesc& desc) {
  std::cout << "  " << name << ": " << DTypeName(desc.dtype) << " sizes "
            << FormatShape(desc.sizes);
  if (!desc.strides.empty()) std::cout << " strides " << FormatShape(desc.strides);
  std::cout << " total " << desc.total_bytes << " bytes\n";
}

// Parameters, tensors (outputs by their descriptor) and the reference's expectation, if any.
void PrintOperation(const Operation& op, const ReferenceResult* expected) {
  std::cout << "  parameters:";
  for (const auto& [name, value] : op.params) std::cout << " " << name << "=" << value;
  std::cout << "\n";
  for (const auto& [name, t] : op.tensors) {
    PrintDesc(name, t.desc);
    if (op.spec->FindTensor(name)->role == TensorRole::kOutput)
      std::cout << "    (output)\n";
    else
      PrintElements(t.desc.sizes, TensorText(t), {});
  }
  if (!expected) return;  // an invalid case: no expectation
  for (const ExpectedTensor& e : expected->outputs) {
    std::cout << "  expected " << e.name << ":\n";
    PrintElements(e.desc.sizes, ExpectedText(e), {});
  }
}

// A backend's verdict: the outputs it left, with its first mismatches; for a large tensor also
// the expected values and the inputs of the same shape around them.
void PrintVerdict(const std::string& backend, const CaseVerdict& verdict, const Operation& op,
                  const ReferenceResult* expected, FloatRules float_rules) {
  const CaseOutcome& o = verdict.outcome;
  std::cout << "\nbackend " << backend << ": " << StatusName(o.status)
            << (o.message.empty() ? "" : ": " + TerminalSafe(o.message)) << "\n";
  if (o.max_error)
    std::cout << "  max error " << *o.max_error << ", bound " << *o.bound << ", " << *o.ulp
              << " ULP\n";
  if (!expected) return;  // an invalid case: nothing is judged
  for (const auto& [out_name, actual] : o.outputs) {
    const auto e =
        std::find_if(expected->outputs.begin(), expected->outputs.end(),
                     [&name = out_name](const ExpectedTensor& x) { return x.name == name; });
    const std::vector<uint64_t> bad =
        MismatchingElements(*e, actual, kMismatchesListed, RulesFor(float_rules, *op.spec));
    PrintDesc("actual " + out_name, actual.desc);
    PrintElements(actual.desc.sizes, TensorText(actual), bad);
    if (bad.empty()) continue;
    if (ElementCount(actual.desc) > kShown) {
      std::cout << "  expected " << out_name << ":\n";
      PrintElements(e->desc.sizes, ExpectedText(*e), bad);
      for (const auto& [name, t] : op.tensors) {
        if (op.spec->FindTensor(name)->role == TensorRole::kOutput ||
            t.desc.sizes != actual.desc.sizes)
          continue;
        std::cout << "  " << name << ":\n";
        PrintElements(t.desc.sizes, TensorText(t), bad);
      }
    }
    std::cout << "  first mismatches:\n";
    const ElementText got = TensorText(actual);
    for (uint64_t i : bad)
      std::cout << "    " << FormatCoordinates(e->desc.sizes, i) << ": expected "
                << FormatExpected(e->desc.dtype, *e, e->elements[i]) << ", got " << got(i) << "\n";
  }
}

std::string SizeText(const CaseSize& size) {
  return std::to_string(size.Elements()) + (size.Elements() == 1 ? " element" : " elements") +
         ", rank " + std::to_string(size.Rank()) + " (" + FormatShape(size.shape) + ")";
}

// --shrink on the backend `name` names: the search, the minimal case, and its vector file. 0,
// or 2 when the file cannot be written.
int ShrinkAndReport(const std::string& name, const std::string& backend_options,
                    const Plugin& plugin, const CaseRecipe& c, const ShrinkOptions& options,
                    const std::string& file) {
  const std::string backend = TerminalSafe(plugin.info().name);
  const ShrinkResult r = Shrink(plugin, c, options);
  if (!r.Failed()) {
    std::cout << "\nshrink: the case passes on " << backend << "; nothing to shrink\n";
    return 0;
  }
  if (!r.refused.empty()) {
    std::cout << "\nshrink: " << r.refused << "\n";
    return 0;
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", r.seconds);
  std::cout << "\nshrunk on " << backend << " in " << seconds << " s, " << r.attempts << " attempts"
            << (r.budget_spent ? " (stopped by --shrink-seconds or the attempt bound)" : "")
            << ":\n  original: " << SizeText(r.original_size)
            << "\n  minimal:  " << SizeText(r.minimal_size)
            << "\n  steps:" << (r.steps.empty() ? " none (no smaller case fails the same way)" : "")
            << "\n";
  for (size_t i = 0; i < r.steps.size(); ++i) {
    if (i == kStepsShown / 2 && r.steps.size() > kStepsShown) {
      std::cout << "    ... " << r.steps.size() - kStepsShown << " more\n";
      i = r.steps.size() - kStepsShown / 2;
    }
    std::cout << "    " << r.steps[i].change << "  => " << FormatShape(r.steps[i].size.shape)
              << "\n";
  }
  std::cout << "\nminimal case (" << TerminalSafe(r.vector.name) << ")\n";
  PrintOperation(r.minimal, &r.expected);
  PrintVerdict(backend, r.minimal_verdict, r.minimal, &r.expected, options.run.float_rules);
  std::ofstream out(file);
  out << VectorToJson(r.vector).dump(1) << "\n";
  if (!out.flush()) {
    std::cerr << "opcts repro: cannot write " << file << "\n";
    return 2;
  }
  std::cout << "\nwrote " << file << "; reproduce with: "
            << VectorsCommand(name, {backend_options, options.run.float_rules}, file) << "\n";
  return 0;
}

}  // namespace

int ReproCommand(const Args& raw) {
  CliArgs args(raw, {"--shrink"},
               {"--backend", "--backend-options", "--seed", "--float-rules", "--shrink-seconds",
                "--output"});
  if (args.help()) return PrintUsage(kUsage);
  if (!args.error().empty()) return PrintUsage(kUsage, "opcts repro: " + args.error());
  if (args.positionals().size() != 1)
    return PrintUsage(kUsage, "opcts repro: give exactly one CASE_ID");
  const std::string& wanted = args.positionals()[0];
  // An exact id carries its run's seed; a glob takes --seed (default 1).
  std::optional<uint64_t> seed = args.GetNumber("--seed");
  const std::optional<uint64_t> shrink_seconds = args.GetNumber("--shrink-seconds");
  if (!args.error().empty()) return PrintUsage(kUsage, "opcts repro: " + args.error());
  const Result<FloatRules> float_rules = ReadFloatRules(args);
  if (!float_rules) return PrintUsage(kUsage, "opcts repro: " + float_rules.error().message);
  const bool shrink = args.Has("--shrink");
  std::vector<std::string> backends = args.GetAll("--backend");
  if (shrink && backends.size() != 1)
    return PrintUsage(kUsage, "opcts repro: --shrink searches on one backend: give one --backend");
  if (!shrink && (shrink_seconds || args.Get("--output")))
    return PrintUsage(kUsage, "opcts repro: --shrink-seconds and --output go with --shrink");
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
  const bool valid = c.group == CaseGroup::kValid;
  std::cout << "case " << c.id << "\n  operator " << c.spec->name << ", group "
            << GroupName(c.group) << (c.violates.empty() ? "" : " (violates " + c.violates + ")")
            << ", level " << (c.level.empty() ? "-" : c.level) << (c.in_place ? ", in place" : "")
            << "\n";
  PrintOperation(op, valid ? &prepared.expected() : nullptr);

  if (backends.empty()) backends = BuiltinBackendNames();
  int exit_code = 0;
  for (const std::string& given : backends) {
    const BackendArg backend = ParseBackendArg(given, args.Get("--backend-options").value_or(""));
    PluginLoad load = LoadPlugin(backend.name_or_path, backend.options);
    if (!load) {
      std::cerr << "backend " << TerminalSafe(given) << ": " << TerminalSafe(load.error().message)
                << "\n";
      exit_code = 2;
      continue;
    }
    const Plugin& plugin = **load;
    const CaseVerdict verdict = RunCase(plugin, prepared, GroupFor(c, ClaimsOf(plugin)),
                                        {.keep_outputs = true, .float_rules = *float_rules});
    PrintVerdict(TerminalSafe(backend.Label(plugin.info().name)), verdict, op,
                 verdict.group == CaseGroup::kInvalid ? nullptr : &prepared.expected(),
                 *float_rules);
    if (!verdict.acceptable && exit_code == 0) exit_code = 1;
    if (shrink && !verdict.acceptable) {
      ShrinkOptions options;
      if (shrink_seconds) options.seconds = static_cast<double>(*shrink_seconds);
      options.run.float_rules = *float_rules;
      const int written = ShrinkAndReport(backend.name_or_path, backend.options, plugin, c, options,
                                          args.Get("--output").value_or(c.id + ".shrunk.json"));
      exit_code = std::max(exit_code, written);
    }
  }
  if (shrink && exit_code == 0) std::cout << "\nshrink: the case passes; nothing to shrink\n";
  return exit_code;
}

}  // namespace opcts
