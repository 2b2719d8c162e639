#include <map>

#include "reference/reference.h"

namespace opcts {
namespace {
std::map<std::string, ReferenceKernel>& Registry() {
  static std::map<std::string, ReferenceKernel> registry;
  return registry;
}
}  // namespace

ReferenceRegistration::ReferenceRegistration(const char* key, ReferenceKernel kernel) {
  Registry()[key] = kernel;
}

const ReferenceKernel* FindReferenceKernel(const std::string& key) {
  auto it = Registry().find(key);
  return it == Registry().end() ? nullptr : &it->second;
}

}  // namespace opcts
