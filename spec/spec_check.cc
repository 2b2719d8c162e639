// `opcts spec check` and the checks that span several spec files.
#include <algorithm>
#include <filesystem>

#include "spec/spec_loader.h"

namespace opcts {

std::vector<SpecError> CheckSpecSet(const std::vector<OperatorSpec>& specs) {
  std::vector<SpecError> errors;
  for (size_t i = 0; i < specs.size(); ++i) {
    const auto first = std::find_if(specs.begin(), specs.begin() + i,
                                    [&](const OperatorSpec& s) { return s.name == specs[i].name; });
    if (first != specs.begin() + i)
      errors.push_back(
          SpecError{specs[i].file, 0, "operator",
                    "operator '" + specs[i].name + "' is already defined in " + first->file});
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
