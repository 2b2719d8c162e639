#include "conformance/spec_set.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "base/executable_dir.h"
#include "spec/spec_loader.h"

namespace opcts {

const OperatorSpec* SpecSet::Find(const std::string& operator_name) const {
  for (const OperatorSpec& s : specs)
    if (s.name == operator_name) return &s;
  return nullptr;
}

std::string DefaultSpecDir() {
  if (const char* dir = std::getenv("OPCTS_SPEC_DIR"); dir != nullptr && *dir != '\0') return dir;
  // Installed: share/opcts/spec beside bin/; in the build tree: the source tree's spec/.
  const std::string installed = FolderBesideExecutable(OPCTS_INSTALLED_SPEC_DIR);
  return installed.empty() ? OPCTS_SOURCE_SPEC_DIR : installed;
}

SpecSet LoadSpecSet(const std::string& dir) {
  SpecSet set;
  std::error_code ec;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  if (ec) {
    set.errors.push_back(dir + ": cannot list spec directory: " + ec.message());
    return set;
  }
  if (files.empty()) set.errors.push_back(dir + ": no *.yaml spec files");
  std::sort(files.begin(), files.end());
  std::vector<OperatorSpec> loaded;
  for (const std::string& file : files) {
    SpecLoadResult r = LoadSpecFile(file);
    for (const SpecError& e : r.errors) set.errors.push_back(FormatSpecError(e));
    if (r.spec) loaded.push_back(*r.spec);
  }
  for (const SpecError& e : CheckSpecSet(loaded)) set.errors.push_back(FormatSpecError(e));
  set.specs.assign(loaded.begin(), loaded.end());
  return set;
}

}  // namespace opcts
