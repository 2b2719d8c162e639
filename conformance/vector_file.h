// External test vectors (format opcts-vector/1, documented in conformance/VECTORS.md): one
// operation with its data and either the expected outputs or the expectation that it is rejected.
//
//   Result<TestVector> r = LoadVectorFile("conformance/vectors/x.json", specs);
//   if (!r.vector) std::cerr << r.error;   // "x.json: tensors.InputTensor.data[3]: ..."
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/result.h"
#include "conformance/spec_set.h"
#include "spec/operation.h"

namespace opcts {

struct Tolerance {
  double abs = 0;  // the bound becomes abs + rel * |expected|
  double rel = 0;
};

struct TestVector {
  std::string file;
  std::string name;
  std::string source;  // where the example comes from
  Operation op;
  bool expect_reject = false;
  // Output name -> logical elements' bit patterns (row-major), when not expect_reject.
  std::map<std::string, std::vector<uint64_t>> expected;
  std::optional<Tolerance> tolerance;
};

// Errors name the file and the field ("x.json: tensors.InputTensor.data[3]: ...").
Result<TestVector> LoadVectorFile(const std::string& path, const SpecSet& specs);
Result<TestVector> ParseVector(const std::string& text, const std::string& file,
                               const SpecSet& specs);

// The vector as opcts-vector/1 JSON (used to write fuzz findings and repro cases).
nlohmann::json VectorToJson(const TestVector& vector);

}  // namespace opcts
