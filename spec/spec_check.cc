// `opcts spec check` and the checks that span several spec files.
#include <algorithm>
#include <filesystem>

#include "spec/families.h"
#include "spec/spec_loader.h"

namespace opcts {

namespace {

// Two operators may share a descriptor struct (DirectML's summation and product do) only when
// its members are the same, in the same order, each a tensor in both or a parameter in both.
bool SameLayout(const OperatorSpec& a, const OperatorSpec& b) {
  if (a.abi.fields.size() != b.abi.fields.size()) return false;
  for (size_t i = 0; i < a.abi.fields.size(); ++i) {
    const AbiField& fa = a.abi.fields[i];
    const AbiField& fb = b.abi.fields[i];
    if (fa.member != fb.member ||
        (a.FindTensor(fa.name) == nullptr) != (b.FindTensor(fb.name) == nullptr))
      return false;
  }
  return true;
}

std::vector<std::string> EnumValues(const OperatorSpec& spec, const std::string& param) {
  const ParamSpec* p = spec.FindParam(param);
  return p ? p->enum_values : std::vector<std::string>{};
}

// "FLOAT32: flush_to_signed_zero, nearest_or_toward_zero (d3d11-floating-point-rules); ..." or
// "none (IEEE 754)": a scheme's rules as the YAML spells them, for messages.
std::string DescribeRules(const std::vector<FloatRule>& rules) {
  std::string text;
  for (const FloatRule& r : rules)
    text += std::string(text.empty() ? "" : "; ") + std::string(DTypeName(r.dtype)) + ": " +
            (r.flush_subnormals ? "flush_to_signed_zero" : "preserve") + ", " +
            (r.truncate ? "nearest_or_toward_zero" : "nearest") + " (" + r.source + ")";
  return text.empty() ? "none (IEEE 754)" : text;
}

bool SameRules(const std::vector<FloatRule>& a, const std::vector<FloatRule>& b) {
  return std::is_permutation(
      a.begin(), a.end(), b.begin(), b.end(), [](const FloatRule& x, const FloatRule& y) {
        return x.dtype == y.dtype && x.flush_subnormals == y.flush_subnormals &&
               x.truncate == y.truncate && x.source == y.source;
      });
}

std::string JoinFamilies() {
  std::string names;
  for (const std::string& name : FamilyNames()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

std::vector<SpecError> CheckSpecSet(const std::vector<OperatorSpec>& specs) {
  std::vector<SpecError> errors;
  for (size_t i = 0; i < specs.size(); ++i) {
    // The operators a run covers each need a family (its generators) and an ABI form.
    if (specs[i].family.name.empty())
      errors.push_back(
          SpecError{specs[i].file, 0, "family",
                    "missing: which family (" + JoinFamilies() + ") the operator belongs to"});
    if (specs[i].abi.code == 0)
      errors.push_back(
          SpecError{specs[i].file, 0, "abi", "missing: the operator's form in the backend ABI"});
    const auto first = std::find_if(specs.begin(), specs.begin() + i,
                                    [&](const OperatorSpec& s) { return s.name == specs[i].name; });
    if (first != specs.begin() + i)
      errors.push_back(
          SpecError{specs[i].file, 0, "operator",
                    "operator '" + specs[i].name + "' is already defined in " + first->file});
    // The rules are the platform's, not the operator's: one scheme, one set of rules.
    const auto same_scheme =
        std::find_if(specs.begin(), specs.begin() + i,
                     [&](const OperatorSpec& s) { return s.scheme == specs[i].scheme; });
    if (same_scheme != specs.begin() + i &&
        !SameRules(same_scheme->float_rules, specs[i].float_rules))
      errors.push_back(SpecError{
          specs[i].file, 0, "float_rules",
          DescribeRules(specs[i].float_rules) + " differ from " + same_scheme->file + "'s " +
              DescribeRules(same_scheme->float_rules) + "; every spec of scheme " +
              SchemeName(specs[i].scheme) + " must declare its platform's rules alike"});
    for (size_t j = 0; j < i; ++j) {
      const AbiForm& a = specs[j].abi;
      const AbiForm& b = specs[i].abi;
      if (a.code != 0 && a.code == b.code)
        errors.push_back(SpecError{specs[i].file, 0, "abi.code",
                                   "code " + std::to_string(b.code) + " is already " +
                                       specs[j].name + "'s (" + specs[j].file + ")"});
      if (a.struct_name == b.struct_name && !SameLayout(specs[j], specs[i]))
        errors.push_back(
            SpecError{specs[i].file, 0, "abi.fields",
                      "struct " + b.struct_name + " is shared with " + specs[j].name +
                          " but its members differ (names, order or tensor/parameter kind)"});
      for (const auto& [param, prefix] : b.enum_prefixes)
        for (const auto& [other_param, other_prefix] : a.enum_prefixes)
          if (prefix == other_prefix &&
              EnumValues(specs[i], param) != EnumValues(specs[j], other_param))
            errors.push_back(SpecError{specs[i].file, 0, "abi.enums",
                                       "prefix " + prefix + " is " + specs[j].name + "'s " +
                                           other_param + " with other values"});
    }
  }
  return errors;
}

int SpecCheckMain(const std::vector<std::string>& files, const std::string& default_dir,
                  std::ostream& out, std::ostream& err) {
  std::vector<std::string> paths = files;
  if (paths.empty() && !default_dir.empty()) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(default_dir, ec))
      if (entry.path().extension() == ".yaml") paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
  }
  if (paths.empty()) {
    err << "usage: opcts spec check [SPEC.yaml ...]  (no spec files"
        << (default_dir.empty() ? "" : " in " + default_dir) << ")\n";
    return 2;
  }
  size_t error_count = 0;
  std::vector<OperatorSpec> specs;
  const auto report = [&](const std::vector<SpecError>& errors) {
    for (const SpecError& e : errors) err << FormatSpecError(e) << "\n";
    error_count += errors.size();
  };
  for (const std::string& path : paths) {
    SpecLoadResult result = LoadSpecFile(path);
    report(result.errors);
    if (result.spec) specs.push_back(std::move(*result.spec));
  }
  report(CheckSpecSet(specs));
  out << "spec check: " << paths.size() << " files, " << error_count << " errors\n";
  return error_count == 0 ? 0 : 1;
}

}  // namespace opcts
