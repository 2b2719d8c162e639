// The in-memory form of one spec/*.yaml file: everything the generators, the reference and the
// runner know about an operator comes from here. spec/README.md documents the YAML schema.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spec/dtype.h"

namespace opcts {

// Where a value came from in its YAML file, for error messages.
struct SourceLocation {
  std::string file;
  int line = 0;  // 1-based; 0 when unknown
};

struct Defect {
  std::string id;
  std::string text;
};

// A platform document a float rule cites (provenance.platform_documents): the operator's own
// document says nothing of float arithmetic; the platform it runs on does.
struct PlatformDocument {
  std::string id;     // what a FloatRule's source names: "direct3d-floating-point-rules"
  std::string title;  // "Floating-point rules (Direct3D graphics concepts, ...)"
  std::string url;
  std::string text;  // the rule, quoted
};

struct Provenance {
  std::string document;  // path relative to ../shared/seeds/
  std::string title;
  std::string revision;
  std::vector<Defect> defects;
  std::vector<PlatformDocument> platform_documents;
};

enum class ParamType { kUInt32, kBool, kEnum };

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::kUInt32;
  std::vector<std::string> enum_values;  // kEnum: value i is encoded as i
  std::optional<int64_t> default_value;  // absent: required
  std::string doc;
};

enum class TensorRole { kInput, kOutput, kScalarInput };

struct TensorSpec {
  std::string name;
  TensorRole role = TensorRole::kInput;
  bool optional = false;  // the input may be omitted (OpenVINO's axis)
  std::string may_alias;  // output only: the input it may alias (in-place), or ""
  std::string doc;
};

// An integer bound: `constant`, or scale * rank(tensor) + plus, or scale * param + plus.
struct Bound {
  enum class Kind { kConstant, kRankOf, kParam } kind = Kind::kConstant;
  std::string name;  // tensor (kRankOf) or parameter (kParam)
  int64_t scale = 1;
  int64_t plus = 0;  // kConstant: the value
};

enum class ConstraintKind {
  kSameDType,              // tensors
  kSameRank,               // tensors
  kSameSizes,              // tensors
  kParamRange,             // param in [min, max]
  kScalarValueRange,       // the value held by scalar tensor in [min, max] (checked at execute)
  kLeadingOnes,            // tensor: sizes before the last `param` dimensions are all 1
  kLastDimRange,           // tensor: sizes[rank-1] in [min, max]
  kScatterNDUpdatesSizes,  // updates sizes = right-aligned (indices[:-1] ++ input[q:]) with 1s
};

struct Constraint {
  std::string id;  // stable, used in invalid-case ids: "same-dtype"
  ConstraintKind kind = ConstraintKind::kSameDType;
  std::vector<std::string>
      tensors;        // kSameDType/kSameRank/kSameSizes; one for kLeadingOnes/
                      // kLastDimRange/kScalarValueRange; scatter: input,indices,updates
  std::string param;  // kParamRange, kLeadingOnes (the count param);
  std::vector<std::string>
      params;  // kScatterNDUpdatesSizes: InputDimensionCount, IndicesDimensionCount
  std::optional<Bound> min, max;  // kParamRange, kScalarValueRange, kLastDimRange
  std::string text;               // the document's words
  SourceLocation where;
};

struct TensorSupport {
  unsigned min_rank = 1, max_rank = 1;
  std::vector<DType> dtypes;
};

// One "FEATURE_LEVEL_x and above" table.
struct SupportLevel {
  std::string level;  // "2_1", "opset3"
  std::map<std::string, TensorSupport> tensors;
  // Enum parameters whose values grow with the level ("reduction": none, add, mul): the values
  // allowed here. A parameter not listed takes every value at every level.
  std::map<std::string, std::vector<int64_t>> params;
  SourceLocation where;
};

struct SupportHistory {
  std::string revision;
  std::string document;
  std::string superseded_by;
  std::vector<SupportLevel> levels;
};

// directml: DirectML feature levels ("4_1"); openvino and onnx: opset versions ("opset3").
enum class LevelScheme { kDirectML, kOpenVINO, kONNX };

// "directml", "openvino", "onnx": the spec's `scheme:` and the prefix of an extra_support claim.
const char* SchemeName(LevelScheme scheme);

struct Semantics {
  bool in_place = false;
  bool duplicate_indices_any_candidate = false;
  std::string negative_indices_from_level;  // "" if never
  bool negative_indices_signed_only = true;
  bool out_of_range_indices_memory_safe_only = false;
  bool unsigned_wraps = true;
  bool signed_overflow_unconstrained = true;
};

// Where a scheme's platform lets float arithmetic of one type depart from IEEE 754
// round-to-nearest-even with gradual underflow (spec `float_rules:`).
struct FloatRule {
  DType dtype = DType::kFloat32;
  bool flush_subnormals = false;  // subnormal inputs and results may become sign-preserved zero
  bool truncate = false;          // results may round toward zero instead of to nearest
  std::string source;             // the document that grants it (a provenance entry)
};

enum class AccuracyModel { kRunningSum, kRunningProduct, kBitExact };

struct Accuracy {
  AccuracyModel model = AccuracyModel::kBitExact;
  std::string doc;
};

// The operator's family (spec/families.h) and which of its tensors and parameters plays each
// role there.
struct FamilySpec {
  std::string name;                          // "scan"
  std::map<std::string, std::string> roles;  // role -> tensor or parameter name
};

// The operator's form in the C ABI (backends/include/opcts/operators.h, generated from this).
struct AbiField {
  std::string member;  // C member of the descriptor struct: "input_dimension_count"
  std::string name;    // the tensor or parameter it carries: "InputDimensionCount"
};
struct AbiForm {
  uint32_t code = 0;             // the OPCTS_OP_* value
  std::string struct_name;       // "opcts_dml_scatter_nd_desc"
  std::vector<AbiField> fields;  // in struct order: tensors (the binding order), then parameters
  std::map<std::string, std::string> enum_prefixes;  // parameter -> C macro prefix of its values
};

struct OperatorSpec {
  std::string name;       // "DML_CUMULATIVE_SUMMATION"
  std::string reference;  // reference kernel key: "cumulative_summation"
  FamilySpec family;
  AbiForm abi;
  std::string file;  // the YAML file it was loaded from
  Provenance provenance;
  std::string introduced;  // level the operator first appears at
  LevelScheme scheme = LevelScheme::kDirectML;
  std::vector<ParamSpec> params;
  std::vector<TensorSpec> tensors;
  std::vector<Constraint> constraints;
  std::vector<SupportLevel> support;  // ascending; each a strict superset of the one before
  std::vector<SupportHistory> history;
  Semantics semantics;
  Accuracy accuracy;
  std::vector<FloatRule> float_rules;  // empty: IEEE only

  const ParamSpec* FindParam(const std::string& n) const;
  // The tensor or parameter name playing `role` in the family; "" when the spec maps none.
  std::string Role(const std::string& role) const;
  const TensorSpec* FindTensor(const std::string& n) const;
  // The highest support table at or below `level` (nullptr if the op does not exist there).
  const SupportLevel* SupportAt(const std::string& level) const;
  // The provenance entry `id` names; nullptr when there is none.
  const PlatformDocument* FindPlatformDocument(const std::string& id) const;
};

// DirectML feature levels in order ("1_0" ... "6_4"); index comparison orders them.
const std::vector<std::string>& DirectMLLevels();
// -1 when unknown.
int DirectMLLevelIndex(const std::string& level);

}  // namespace opcts
