#include "fuzz/finding_vector.h"

#include <cstdio>

#include "conformance/case.h"
#include "conformance/case_generator.h"

namespace opcts {

std::string InputHash(const std::string& input) {
  char hash[9];
  std::snprintf(hash, sizeof hash, "%08llx",
                static_cast<unsigned long long>(StableHash(input) & 0xFFFFFFFFull));
  return hash;
}

std::string FindingName(const OperatorSpec& spec, const std::string& input) {
  return "fuzz." + OperatorKey(spec) + "." + InputHash(input);
}

TestVector FuzzFinding(PreparedCase& prepared, const std::string& input,
                       const std::string& source) {
  ReferenceResult expected;
  if (const std::optional<std::string>& invalid = prepared.invalid_reason())
    expected.invalid = invalid;
  else
    expected = prepared.expected();
  return FindingVector(prepared.op(), expected, FindingName(*prepared.op().spec, input), source);
}

}  // namespace opcts
