#include "fuzz/finding_vector.h"

#include <cstdio>

#include "conformance/case.h"
#include "conformance/case_generator.h"

namespace opcts {

std::string FindingName(const OperatorSpec& spec, const std::string& input) {
  char hash[9];
  std::snprintf(hash, sizeof hash, "%08llx",
                static_cast<unsigned long long>(StableHash(input) & 0xFFFFFFFFull));
  return "fuzz." + OperatorKey(spec) + "." + hash;
}

}  // namespace opcts
