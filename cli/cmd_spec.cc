#include <iostream>
#include <map>

#include "base/cli_args.h"
#include "cli/commands.h"
#include "conformance/spec_set.h"
#include "spec/spec_loader.h"

namespace opcts {

namespace {

constexpr const char* kUsage =
    "usage: opcts spec check [FILE...]\n"
    "       opcts spec float-rules\n"
    "check: validates operator specs (default: every spec in the spec directory: $OPCTS_SPEC_DIR,\n"
    "else an installed opcts's share/opcts/spec, else the source tree's spec/); each problem as\n"
    "file:line: field: message. Exit 0 valid, 2 not.\n"
    "float-rules: per level scheme, where its platform lets float arithmetic depart from IEEE 754\n"
    "(spec float_rules:) and the document that says so; what `--float-rules platform` judges by.\n";

// Each scheme's operators and its platform rules (every spec of a scheme declares the same: the
// spec set's check), with the documents they cite.
int PrintFloatRules() {
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  if (!specs.errors.empty()) {
    for (const std::string& e : specs.errors) std::cerr << e << "\n";
    return 2;
  }
  std::map<std::string, std::vector<const OperatorSpec*>> by_scheme;
  for (const OperatorSpec& s : specs.specs) by_scheme[SchemeName(s.scheme)].push_back(&s);
  for (const auto& [scheme, members] : by_scheme) {
    std::cout << scheme << " (";
    for (size_t i = 0; i < members.size(); ++i) std::cout << (i ? ", " : "") << members[i]->name;
    std::cout << "):";
    const OperatorSpec& spec = *members.front();
    if (spec.float_rules.empty()) std::cout << " IEEE 754 only";
    std::cout << "\n";
    for (const FloatRule& rule : spec.float_rules) {
      std::cout << "  " << DTypeName(rule.dtype) << ":";
      if (rule.flush_subnormals)
        std::cout << " subnormal inputs and results may be flushed to sign-preserved zero;";
      if (rule.truncate) std::cout << " results may round toward zero instead of to nearest;";
      std::cout << " arithmetic only (data movement stays bit-exact)\n";
      if (const PlatformDocument* document = spec.FindPlatformDocument(rule.source))
        std::cout << "    source: " << document->title << ", " << document->url << "\n";
    }
  }
  return 0;
}

}  // namespace

int SpecCommand(const Args& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return PrintUsage(kUsage);
  if (!args.empty() && args[0] == "float-rules") {
    if (args.size() > 1)
      return PrintUsage(kUsage, "opcts spec float-rules: unexpected argument '" + args[1] + "'");
    return PrintFloatRules();
  }
  if (args.empty() || args[0] != "check")
    return PrintUsage(kUsage, "opcts spec: the subcommand is check or float-rules");
  return SpecCheckMain(Args(args.begin() + 1, args.end()), DefaultSpecDir(), std::cout, std::cerr);
}

}  // namespace opcts
