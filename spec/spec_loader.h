// Loads spec/*.yaml into OperatorSpec and validates it against the schema in spec/README.md.
//
// Loading never throws and never stops at the first problem: every error names the file, the
// line of the offending YAML node and the dotted field path, so one run fixes a whole file.
//
//   SpecLoadResult r = LoadSpecFile("spec/dml_scatter_nd.yaml");
//   if (!r.spec) for (const SpecError& e : r.errors) std::cerr << FormatSpecError(e) << "\n";
//   // spec/x.yaml:12: support[1].tensors.InputTensor.dtypes[2]: unknown data type 'FLOAT8'
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "spec/operator_spec.h"

namespace opcts {

struct SpecError {
  std::string file;
  int line = 0;       // 1-based; 0 when the problem has no line (missing file, cross-file)
  std::string field;  // dotted path: "support[1].tensors.InputTensor.dtypes[2]"; "" for the file
  std::string message;
};

// "file:line: field: message"; the line and field parts are left out when unknown.
std::string FormatSpecError(const SpecError& e);

// `spec` is set only when `errors` is empty.
struct SpecLoadResult {
  std::optional<OperatorSpec> spec;
  std::vector<SpecError> errors;
};

SpecLoadResult LoadSpecFile(const std::string& path);
// `file_name` is used in errors and stored in OperatorSpec::file.
SpecLoadResult LoadSpecText(const std::string& text, const std::string& file_name);

// Checks that need several specs at once: operator names are unique across files.
std::vector<SpecError> CheckSpecSet(const std::vector<OperatorSpec>& specs);

// `opcts spec check [files]`: every problem goes to `err` one per line, then
// "spec check: N files, M errors" to `out`. With no files it checks `default_dir`/*.yaml.
// Returns 0 when all are valid, 1 on any problem, 2 on a usage error (nothing to check).
int SpecCheckMain(const std::vector<std::string>& files, const std::string& default_dir,
                  std::ostream& out, std::ostream& err);

// The position of `level` in its scheme's order (directml: DirectMLLevels(); openvino and onnx:
// opset1
// .. opset32), -1 when the scheme has no such level.
int LevelIndex(LevelScheme scheme, const std::string& level);

}  // namespace opcts
