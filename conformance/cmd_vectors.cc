#include <algorithm>
#include <filesystem>
#include <iostream>

#include "conformance/commands.h"
#include "conformance/spec_set.h"
#include "conformance/vector_check.h"

namespace opcts {

std::vector<std::string> ExpandPaths(const Args& paths, const std::string& extension) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path, ec))
      if (entry.is_regular_file() && entry.path().extension() == extension)
        found.push_back(entry.path().string());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

int VectorsCommand(const Args& args) {
  if (args.empty()) {
    std::cerr << "usage: opcts vectors FILE|DIR...\n";
    return 2;
  }
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  if (!specs.errors.empty()) {
    for (const std::string& e : specs.errors) std::cerr << e << "\n";
    return 2;
  }
  const std::vector<std::string> files = ExpandPaths(args, ".json");
  int passed = 0, failed = 0, unreadable = 0;
  for (const std::string& file : files) {
    const VectorLoadResult loaded = LoadVectorFile(file, specs);
    if (!loaded.vector) {
      std::cerr << "error: " << loaded.error << "\n";
      ++unreadable;
      continue;
    }
    const VectorCheck check = CheckVectorAgainstReference(*loaded.vector);
    (check.ok ? passed : failed)++;
    std::cout << (check.ok ? "PASS " : "FAIL ") << loaded.vector->name << " (" << file
              << "): " << check.message << "\n";
  }
  std::cout << "vectors: " << passed << " passed, " << failed << " failed";
  if (unreadable) std::cout << ", " << unreadable << " unreadable";
  std::cout << "\n";
  if (unreadable || files.empty()) return 2;
  return failed ? 1 : 0;
}

}  // namespace opcts
