// `opcts repro ID`: re-runs exactly one case and shows everything about it.
#include <algorithm>
#include <iostream>

#include "conformance/cli_args.h"
#include "conformance/commands.h"
#include "conformance/runner.h"
#include "reports/status.h"
#include "spec/element.h"

namespace opcts {

bool ReadCaseFilter(CliArgs& args, CaseFilter& filter, uint64_t& seed, std::ostream& err);

namespace {

constexpr uint64_t kShown = 48;  // elements printed per tensor

void PrintTensor(const std::string& name, const TensorData& t, bool logical_only) {
  std::cout << "  " << name << ": " << DTypeName(t.desc.dtype) << " sizes " << FormatShape(t.desc.sizes);
  if (!t.desc.strides.empty()) std::cout << " strides " << FormatShape(t.desc.strides);
  std::cout << " total " << t.desc.total_bytes << " bytes\n   ";
  if (logical_only) return void(std::cout << " (output)\n");
  const StridedIndexer indexer(t.desc);
  const uint64_t n = ElementCount(t.desc);
  for (uint64_t i = 0; i < std::min(n, kShown); ++i)
    std::cout << " " << FormatElement(t.desc.dtype, LoadBits(t.desc.dtype, t.Element(indexer.BufferIndex(i))));
  std::cout << (n > kShown ? " ..." : "") << "\n";
}

}  // namespace

int ReproCommand(const Args& raw) {
  CliArgs args(raw, {}, {"--backend", "--backend-options", "--seed"});
  CaseFilter filter;
  uint64_t seed = 1;
  if (args.positionals().size() != 1 || !ReadCaseFilter(args, filter, seed, std::cerr)) {
    std::cerr << "usage: opcts repro [--backend NAME|PATH]... [--seed N] CASE_ID\n";
    return 2;
  }
  filter.id = args.positionals()[0];
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  for (const std::string& e : specs.errors) std::cerr << e << "\n";
  if (!specs.errors.empty()) return 2;
  const std::vector<CaseRecipe> cases = SelectCases(specs, seed, filter);
  if (cases.size() != 1) {
    std::cerr << "opcts repro: " << cases.size() << " cases match '" << filter.id << "' (seed " << seed
              << "); give one exact id (see opcts list --cases)\n";
    return 2;
  }
  const CaseRecipe& c = cases[0];
  const Operation op = Materialize(c);
  std::cout << "case " << c.id << "\n  operator " << c.spec->name << ", group " << c.group
            << (c.violates.empty() ? "" : " (violates " + c.violates + ")") << ", level "
            << (c.level.empty() ? "-" : c.level) << (c.in_place ? ", in place" : "") << "\n  parameters:";
  for (const auto& [name, value] : op.params) std::cout << " " << name << "=" << value;
  std::cout << "\n";
  for (const auto& [name, t] : op.tensors)
    PrintTensor(name, t, op.spec->FindTensor(name)->role == TensorRole::kOutput);

  std::optional<ReferenceResult> expected;
  if (c.group == "valid") {
    expected = (*FindReferenceKernel(c.spec->reference))(op);
    for (const ExpectedTensor& e : expected->outputs) {
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
    if (!load.plugin) {
      std::cout << "\nbackend " << name << ": " << load.error << "\n";
      exit_code = 2;
      continue;
    }
    const Plugin& plugin = *load.plugin;
    CaseGroup group = CaseGroup::kInvalid;
    if (c.group == "valid") group = Claims(plugin, *c.spec, c.level) ? CaseGroup::kValid : CaseGroup::kUnclaimed;
    const CaseOutcome o = ExecuteCase(plugin, op, group, expected ? &*expected : nullptr, /*keep_outputs=*/true);
    std::cout << "\nbackend " << plugin.info().name << ": " << o.status << (o.message.empty() ? "" : ": " + o.message) << "\n";
    if (o.max_error)
      std::cout << "  max error " << *o.max_error << ", bound " << *o.bound << ", " << *o.ulp << " ULP\n";
    for (const auto& [out_name, actual] : o.outputs) {
      PrintTensor("actual " + out_name, actual, false);
      for (const ExpectedTensor& e : expected->outputs) {
        if (e.name != out_name) continue;
        const std::vector<uint64_t> bad = MismatchingElements(e, actual, 10);
        if (bad.empty()) continue;
        std::cout << "  first mismatches:\n";
        const StridedIndexer indexer(actual.desc);
        for (uint64_t i : bad)
          std::cout << "    " << FormatCoordinates(e.desc.sizes, i) << ": expected "
                    << FormatExpected(e.desc.dtype, e, e.elements[i]) << ", got "
                    << FormatElement(actual.desc.dtype, LoadBits(actual.desc.dtype, actual.Element(indexer.BufferIndex(i)))) << "\n";
      }
    }
    if (IsGateFailure(o.status, false) && exit_code == 0) exit_code = 1;
  }
  return exit_code;
}

}  // namespace opcts
