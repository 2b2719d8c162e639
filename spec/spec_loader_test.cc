// Tests for the spec loader: the real specs load into the model the documents describe, and every
// kind of malformed spec is rejected with the exact file:line: field: message.
#include "spec/spec_loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace opcts {
namespace {

const std::string kSpecDir = OPCTS_SPEC_DIR;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> Formatted(const std::vector<SpecError>& errors) {
  std::vector<std::string> lines;
  lines.reserve(errors.size());
  for (const SpecError& e : errors) lines.push_back(FormatSpecError(e));
  return lines;
}

OperatorSpec LoadOrFail(const std::string& name) {
  SpecLoadResult r = LoadSpecFile(kSpecDir + "/" + name);
  EXPECT_EQ(Formatted(r.errors), std::vector<std::string>{});
  return r.spec.value_or(OperatorSpec{});
}

std::vector<DType> DTypes(std::initializer_list<const char*> names) {
  std::vector<DType> types;
  for (const char* n : names) types.push_back(ParseDType(n).value());
  return types;
}

const std::vector<std::string> kRealSpecs = {"dml_cumulative_summation.yaml",
                                             "dml_cumulative_product.yaml", "dml_scatter_nd.yaml",
                                             "openvino_cumsum_3.yaml"};

TEST(SpecLoader, CumulativeSummationMatchesItsDocument) {
  const OperatorSpec s = LoadOrFail("dml_cumulative_summation.yaml");
  EXPECT_EQ(s.name, "DML_CUMULATIVE_SUMMATION");
  EXPECT_EQ(s.reference, "cumulative_summation");
  EXPECT_EQ(s.scheme, LevelScheme::kDirectML);
  EXPECT_EQ(s.introduced, "2_1");
  ASSERT_EQ(s.support.size(), 3u);
  EXPECT_EQ(s.support[2].level, "5_0");
  EXPECT_EQ(s.support[2].tensors.at("InputTensor").dtypes,
            DTypes({"FLOAT32", "FLOAT16", "INT64", "INT32", "UINT64", "UINT32"}));
  EXPECT_EQ(s.support[0].tensors.at("OutputTensor").min_rank, 4u);
  EXPECT_EQ(s.support[1].tensors.at("OutputTensor").max_rank, 8u);
  EXPECT_EQ(s.SupportAt("2_0"), nullptr);
  ASSERT_NE(s.SupportAt("3_1"), nullptr);
  EXPECT_EQ(s.SupportAt("3_1")->level, "2_1");
  EXPECT_EQ(s.SupportAt("6_4")->level, "5_0");
  EXPECT_EQ(s.SupportAt("opset3"), nullptr);

  const ParamSpec* direction = s.FindParam("AxisDirection");
  ASSERT_NE(direction, nullptr);
  EXPECT_EQ(direction->type, ParamType::kEnum);
  EXPECT_EQ(direction->enum_values, (std::vector<std::string>{"INCREASING", "DECREASING"}));
  EXPECT_EQ(direction->default_value, 0);
  EXPECT_EQ(s.FindParam("HasExclusiveSum")->type, ParamType::kBool);
  EXPECT_EQ(s.FindParam("HasExclusiveSum")->default_value, 0);
  EXPECT_FALSE(s.FindParam("Axis")->default_value.has_value());
  EXPECT_EQ(s.FindParam("Nope"), nullptr);
  EXPECT_EQ(s.FindTensor("OutputTensor")->may_alias, "InputTensor");
  EXPECT_EQ(s.FindTensor("OutputTensor")->role, TensorRole::kOutput);

  ASSERT_EQ(s.constraints.size(), 4u);
  const Constraint& axis = s.constraints[3];
  EXPECT_EQ(axis.id, "axis-below-rank");
  EXPECT_EQ(axis.kind, ConstraintKind::kParamRange);
  EXPECT_EQ(axis.param, "Axis");
  EXPECT_EQ(axis.min->kind, Bound::Kind::kConstant);
  EXPECT_EQ(axis.min->plus, 0);
  EXPECT_EQ(axis.max->kind, Bound::Kind::kRankOf);
  EXPECT_EQ(axis.max->name, "InputTensor");
  EXPECT_EQ(axis.max->scale, 1);
  EXPECT_EQ(axis.max->plus, -1);
  EXPECT_EQ(axis.where.line, 92);  // "  - id: axis-below-rank"

  // The superseded 2020 table is kept although the current 2_1 table lacks its UINT16.
  ASSERT_EQ(s.history.size(), 1u);
  EXPECT_EQ(s.history[0].revision, "2020-10-29");
  EXPECT_EQ(s.history[0].levels[0].tensors.at("InputTensor").dtypes,
            DTypes({"FLOAT32", "FLOAT16", "UINT32", "UINT16"}));
  EXPECT_TRUE(s.semantics.in_place);
  EXPECT_EQ(s.accuracy.model, AccuracyModel::kRunningSum);
  EXPECT_EQ(s.provenance.defects.size(), 3u);
}

// Direct3D's rules let FLOAT32 arithmetic flush subnormals and truncate; they keep FLOAT16 and
// FLOAT64 on IEEE 754, and OpenVINO's and ONNX's documents grant nothing.
TEST(SpecLoader, DirectMLDeclaresItsPlatformFloatRules) {
  for (const char* name :
       {"dml_cumulative_summation.yaml", "dml_cumulative_product.yaml", "dml_scatter_nd.yaml"}) {
    const OperatorSpec s = LoadOrFail(name);
    ASSERT_EQ(s.float_rules.size(), 1u) << name;
    const FloatRule& rule = s.float_rules[0];
    EXPECT_EQ(rule.dtype, DType::kFloat32) << name;
    EXPECT_TRUE(rule.flush_subnormals) << name;
    EXPECT_TRUE(rule.truncate) << name;
    const PlatformDocument* document = s.FindPlatformDocument(rule.source);
    ASSERT_NE(document, nullptr) << name;
    EXPECT_EQ(
        document->url,
        "https://learn.microsoft.com/en-us/windows/uwp/graphics-concepts/floating-point-rules");
    EXPECT_NE(document->text.find("Denorms are flushed to sign-preserved zero"), std::string::npos);
  }
  for (const char* name : {"openvino_cumsum_3.yaml", "onnx_cumsum.yaml", "onnx_scatter_nd.yaml"}) {
    const OperatorSpec s = LoadOrFail(name);
    EXPECT_TRUE(s.float_rules.empty()) << name;
    EXPECT_TRUE(s.provenance.platform_documents.empty()) << name;
  }
}

TEST(SpecLoader, ScatterNDMatchesItsDocument) {
  const OperatorSpec s = LoadOrFail("dml_scatter_nd.yaml");
  ASSERT_EQ(s.support.size(), 3u);
  EXPECT_EQ(s.support[0].tensors.at("IndicesTensor").dtypes, DTypes({"UINT32"}));
  EXPECT_EQ(s.support[1].tensors.at("IndicesTensor").dtypes,
            DTypes({"INT64", "INT32", "UINT64", "UINT32"}));
  ASSERT_NE(s.SupportAt("4_0"), nullptr);
  EXPECT_EQ(s.SupportAt("4_0")->level, "3_0");
  EXPECT_EQ(s.SupportAt("4_1")->level, "4_1");
  EXPECT_EQ(s.SupportAt("2_0"), nullptr);
  EXPECT_EQ(s.SupportAt("9_9"), nullptr);
  EXPECT_EQ(s.semantics.negative_indices_from_level, "3_0");
  EXPECT_TRUE(s.semantics.duplicate_indices_any_candidate);
  EXPECT_TRUE(s.semantics.out_of_range_indices_memory_safe_only);
  EXPECT_EQ(s.accuracy.model, AccuracyModel::kBitExact);

  const auto updates = std::find_if(s.constraints.begin(), s.constraints.end(),
                                    [](const Constraint& c) { return c.id == "updates-sizes"; });
  ASSERT_NE(updates, s.constraints.end());
  EXPECT_EQ(updates->kind, ConstraintKind::kScatterNDUpdatesSizes);
  EXPECT_EQ(updates->tensors,
            (std::vector<std::string>{"InputTensor", "IndicesTensor", "UpdatesTensor"}));
  EXPECT_EQ(updates->params,
            (std::vector<std::string>{"InputDimensionCount", "IndicesDimensionCount"}));
  const auto tuple = std::find_if(s.constraints.begin(), s.constraints.end(),
                                  [](const Constraint& c) { return c.id == "index-tuple-size"; });
  ASSERT_NE(tuple, s.constraints.end());
  EXPECT_EQ(tuple->kind, ConstraintKind::kLastDimRange);
  EXPECT_EQ(tuple->max->kind, Bound::Kind::kParam);
  EXPECT_EQ(tuple->max->name, "InputDimensionCount");
}

TEST(SpecLoader, CumulativeProductStartsAt31) {
  const OperatorSpec s = LoadOrFail("dml_cumulative_product.yaml");
  EXPECT_EQ(s.introduced, "3_1");
  EXPECT_EQ(s.SupportAt("3_0"), nullptr);
  EXPECT_EQ(s.SupportAt("3_1")->tensors.at("InputTensor").dtypes,
            DTypes({"FLOAT32", "FLOAT16", "UINT32", "UINT16"}));
  EXPECT_EQ(s.accuracy.model, AccuracyModel::kRunningProduct);
}

TEST(SpecLoader, OpenVINOCumSumHasAScalarAxis) {
  const OperatorSpec s = LoadOrFail("openvino_cumsum_3.yaml");
  EXPECT_EQ(s.scheme, LevelScheme::kOpenVINO);
  const TensorSpec* axis = s.FindTensor("axis");
  ASSERT_NE(axis, nullptr);
  EXPECT_EQ(axis->role, TensorRole::kScalarInput);
  EXPECT_TRUE(axis->optional);
  ASSERT_EQ(s.support.size(), 1u);
  const TensorSupport& axis_support = s.support[0].tensors.at("axis");
  EXPECT_EQ(axis_support.min_rank, 0u);
  EXPECT_EQ(axis_support.max_rank, 0u);
  EXPECT_EQ(axis_support.dtypes, DTypes({"INT64", "INT32"}));
  EXPECT_EQ(s.support[0].tensors.at("data").dtypes.size(), 12u);
  EXPECT_EQ(s.SupportAt("opset2"), nullptr);
  EXPECT_EQ(s.SupportAt("opset15")->level, "opset3");
  EXPECT_EQ(s.SupportAt("4_0"), nullptr);
  EXPECT_FALSE(s.semantics.in_place);
  const Constraint& range = s.constraints.back();
  EXPECT_EQ(range.kind, ConstraintKind::kScalarValueRange);
  EXPECT_EQ(range.tensors, std::vector<std::string>{"axis"});
  EXPECT_EQ(range.min->kind, Bound::Kind::kRankOf);
  EXPECT_EQ(range.min->scale, -1);
  EXPECT_EQ(range.min->plus, 0);
}

TEST(SpecLoader, MinimalFixtureIsValid) {
  SpecLoadResult r = LoadSpecFile(kSpecDir + "/testdata/good/minimal.yaml");
  EXPECT_EQ(Formatted(r.errors), std::vector<std::string>{});
  ASSERT_TRUE(r.spec.has_value());
  EXPECT_EQ(r.spec->name, "DML_TEST_COPY");
  EXPECT_EQ(r.spec->file, kSpecDir + "/testdata/good/minimal.yaml");
  EXPECT_EQ(r.spec->support[1].where.line, 47);
}

TEST(SpecLoader, LevelOrder) {
  EXPECT_EQ(DirectMLLevels().size(), 15u);
  EXPECT_EQ(DirectMLLevelIndex("1_0"), 0);
  EXPECT_EQ(DirectMLLevelIndex("2_1"), 2);
  EXPECT_EQ(DirectMLLevelIndex("6_4"), 14);
  EXPECT_EQ(DirectMLLevelIndex("7_0"), -1);
  EXPECT_EQ(LevelIndex(LevelScheme::kOpenVINO, "opset1"), 0);
  EXPECT_EQ(LevelIndex(LevelScheme::kOpenVINO, "opset15"), 14);
  EXPECT_EQ(LevelIndex(LevelScheme::kOpenVINO, "opset32"), 31);
  EXPECT_EQ(LevelIndex(LevelScheme::kONNX, "opset33"), -1);
  EXPECT_EQ(LevelIndex(LevelScheme::kOpenVINO, "2_1"), -1);
  EXPECT_EQ(LevelIndex(LevelScheme::kDirectML, "5_2"), 9);
}

struct BadSpec {
  std::string name;                 // spec/testdata/bad/<name>.yaml
  std::vector<std::string> errors;  // "LINE: field: message", after the file name
};

class BadSpecTest : public testing::TestWithParam<BadSpec> {};

TEST_P(BadSpecTest, ReportsTheExactError) {
  const std::string path = kSpecDir + "/testdata/bad/" + GetParam().name + ".yaml";
  const SpecLoadResult r = LoadSpecFile(path);
  std::vector<std::string> expected;
  for (const std::string& e : GetParam().errors) expected.push_back(path + ":" + e);
  EXPECT_EQ(Formatted(r.errors), expected);
  EXPECT_FALSE(r.spec.has_value());
}

const BadSpec kBadSpecs[] = {
    {"bad_yaml_syntax", {"49: invalid YAML: illegal flow end"}},
    {"not_a_map", {"2: expected a map, got a list"}},
    {"missing_key", {"2: missing required key 'reference'"}},
    {"unknown_key", {"26: tensors[0].optinal: unknown key (did you mean 'optional'?)"}},
    {"duplicate_key", {"4: operator: duplicate key"}},
    {"wrong_schema", {"2: schema: unsupported schema 'opcts-spec/2' (expected opcts-spec/1)"}},
    {"unknown_dtype", {"49: support[1].tensors.InputTensor.dtypes[2]: unknown data type 'FLOAT8'"}},
    {"repeated_dtype",
     {"50: support[1].tensors.OutputTensor.dtypes[2]: data type 'FLOAT32' repeated"}},
    {"bad_rank_range",
     {"49: support[1].tensors.InputTensor.ranks: min rank 5 is greater than max rank 4"}},
    {"rank_above_max",
     {"49: support[1].tensors.InputTensor.ranks[1]: value 9 is out of range [0, 8]"}},
    {"rank_zero_non_scalar",
     {"49: support[1].tensors.InputTensor.ranks: rank 0 is only for scalar_input tensors"}},
    {"duplicate_level",
     {"47: support[1].level: duplicate level '2_1' (its table overlaps the one before)"}},
    {"non_monotonic_levels",
     {"51: support[2].level: level '3_0' after '4_0' is non-monotonic (levels must ascend)"}},
    {"not_superset_dtypes",
     {"49: support[1].tensors.InputTensor.dtypes: level '4_0' is not a superset of '2_1': "
      "drops UINT32"}},
    {"not_superset_ranks",
     {"49: support[1].tensors.InputTensor.ranks: level '4_0' is not a superset of '2_1': "
      "ranks [1, 3] do not contain [4, 4]"}},
    {"level_adds_nothing", {"47: support[1]: level '4_0' adds nothing over '2_1'"}},
    {"unknown_level", {"47: support[1].level: unknown level '4_2' for scheme directml"}},
    {"unknown_openvino_level",
     {"47: support[1].level: unknown level 'opset33' for scheme openvino"}},
    {"introduced_mismatch",
     {"6: introduced: introduced '2_0' differs from the first support level '2_1'"}},
    {"tensor_missing_from_level", {"44: support[0].tensors: missing tensor 'OutputTensor'"}},
    {"constraint_missing_tensor", {"34: constraints[0].tensors[1]: unknown tensor 'OuputTensor'"}},
    {"constraint_missing_param", {"38: constraints[1].param: unknown parameter 'Axes'"}},
    {"unknown_constraint_kind",
     {"33: constraints[0].kind: unknown constraint kind 'same_type' (expected same_dtype, "
      "same_rank, same_sizes, param_range, scalar_value_range, leading_ones, last_dim_range, "
      "scatter_nd_updates_sizes)"}},
    {"missing_constraint_field", {"36: constraints[1]: missing required key 'max'"}},
    {"extra_constraint_field", {"35: constraints[0].param: unknown key for kind same_dtype"}},
    {"duplicate_constraint_id", {"36: constraints[1].id: duplicate constraint id 'same-dtype'"}},
    {"scalar_value_range_non_scalar",
     {"38: constraints[1].tensors[0]: kind scalar_value_range needs a scalar_input tensor; "
      "'InputTensor' is input"}},
    {"leading_ones_enum_param",
     {"39: constraints[1].param: kind leading_ones needs a uint32 parameter; 'Direction' is "
      "enum"}},
    {"string_for_integer", {"39: constraints[1].min: expected an integer, got the string '0'"}},
    {"may_alias_missing", {"29: tensors[1].may_alias: may_alias names unknown tensor 'Input'"}},
    {"may_alias_on_input", {"26: tensors[0].may_alias: may_alias is only for outputs"}},
    {"duplicate_tensor_name", {"27: tensors[1].name: duplicate tensor name 'InputTensor'"}},
    {"enum_default_invalid",
     {"21: parameters[1].default: default 'SIDEWAYS' is not one of the values (UP, DOWN)"}},
    {"bool_default_not_bool", {"20: parameters[1].default: expected true or false, got '0'"}},
    {"in_place_not_bool", {"52: semantics.in_place: expected true or false, got 'yes'"}},
    {"negative_indices_unknown_level",
     {"53: semantics.negative_indices.from_level: unknown level '3_5' for scheme directml"}},
    {"unknown_accuracy_model",
     {"54: accuracy.model: unknown accuracy model 'running_mean' (expected running_sum, "
      "running_product, bit_exact)"}},
    {"defect_missing_text", {"12: provenance.defects[0]: missing required key 'text'"}},
    {"history_unknown_dtype",
     {"58: history[0].support[0].tensors.InputTensor.dtypes[1]: unknown data type 'FLOAT8'"}},
    {"float_rules_unknown_value",
     {"64: float_rules[0].rounding: unknown rounding 'toward_zero' (expected nearest, "
      "nearest_or_toward_zero)"}},
    {"float_rules_unknown_dtype", {"62: float_rules[0].dtype: unknown data type 'FLOAT8'"}},
    {"float_rules_integer_dtype",
     {"62: float_rules[0].dtype: float rules are for float data types; 'INT32' is not one"}},
    {"float_rules_unknown_source",
     {"64: float_rules[0].source: unknown platform document 'd3d-rules' "
      "(provenance.platform_documents has platform-rules)"}},
    {"float_rules_without_documents",
     {"59: float_rules[0].source: unknown platform document 'platform-rules' "
      "(provenance.platform_documents lists none)"}},
    {"float_rules_grant_nothing",
     {"62: float_rules[0]: the rule allows nothing beyond IEEE 754 (subnormals: preserve, "
      "rounding: nearest); leave its dtype out instead"}},
    {"float_rules_repeated_dtype",
     {"65: float_rules[1].dtype: data type 'FLOAT32' already has its rules"}},
    {"platform_document_missing_url",
     {"15: provenance.platform_documents[0]: missing required key 'url'"}},
    {"several_errors",
     {"2: schema: unsupported schema 'opcts-spec/2' (expected opcts-spec/1)",
      "45: support[0].tensors.InputTensor.dtypes[2]: unknown data type 'FLOAT8'",
      "54: accuracy.model: unknown accuracy model 'running_mean' (expected running_sum, "
      "running_product, bit_exact)"}},
};

INSTANTIATE_TEST_SUITE_P(Fixtures, BadSpecTest, testing::ValuesIn(kBadSpecs),
                         [](const testing::TestParamInfo<BadSpec>& info) {
                           return info.param.name;
                         });

TEST(SpecLoader, EveryBadFixtureIsTested) {
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSpecDir + "/testdata/bad")) {
    const std::string stem = entry.path().stem().string();
    const bool listed = std::any_of(std::begin(kBadSpecs), std::end(kBadSpecs),
                                    [&](const BadSpec& b) { return b.name == stem; });
    EXPECT_TRUE(listed) << stem << " has no expected errors in kBadSpecs";
    ++files;
  }
  EXPECT_EQ(files, std::size(kBadSpecs));
}

TEST(SpecLoader, MissingFileIsAClearError) {
  const SpecLoadResult r = LoadSpecFile(kSpecDir + "/no_such_spec.yaml");
  EXPECT_EQ(Formatted(r.errors),
            std::vector<std::string>{kSpecDir + "/no_such_spec.yaml: "
                                                "cannot read spec: no such file"});
  EXPECT_FALSE(r.spec.has_value());
  const SpecLoadResult dir = LoadSpecFile(kSpecDir + "/testdata");
  EXPECT_EQ(Formatted(dir.errors),
            std::vector<std::string>{kSpecDir + "/testdata: cannot read spec: not a regular file"});
}

TEST(SpecLoader, EmptyFileIsAClearError) {
  const std::string path = testing::TempDir() + "/opcts_empty_spec.yaml";
  std::ofstream(path).close();
  const std::string message = ": the file is empty (expected a spec map, see spec/README.md)";
  EXPECT_EQ(Formatted(LoadSpecFile(path).errors), std::vector<std::string>{path + message});
  std::filesystem::remove(path);
  for (const char* text : {"", "# only a comment\n", "---\n", "~\n"})
    EXPECT_EQ(Formatted(LoadSpecText(text, "e.yaml").errors),
              std::vector<std::string>{"e.yaml" + message})
        << "text: " << text;
}

TEST(SpecLoader, OneDocumentPerFile) {
  const std::string text = ReadFile(kSpecDir + "/testdata/good/minimal.yaml") + "---\na: 1\n";
  EXPECT_EQ(Formatted(LoadSpecText(text, "two.yaml").errors),
            std::vector<std::string>{
                "two.yaml:56: a spec file holds one YAML document, found a second one"});
}

TEST(SpecLoader, HostileYamlGivesErrorsNotCrashes) {
  const std::string deep_list = std::string(100000, '[') + std::string(100000, ']');
  const std::string self_alias = "schema: &a [*a]\nsupport: &b [*b]\nparameters: &c {x: *c}\n";
  const std::string tabs = "schema:\topcts-spec/1\n\toperator: X\n";
  const std::string binary("\x00\xff\xfe{[:\x01", 7);
  // yaml-cpp 0.7 reads endless empty documents from this (a fuzz finding: LoadAll ran out of
  // memory).
  const std::string endless_documents = "\n    ,   tensor\nmi:s=n../bad";
  for (const std::string& text :
       {deep_list, self_alias, tabs, binary, std::string("[1, 2"), endless_documents}) {
    const SpecLoadResult r = LoadSpecText(text, "hostile.yaml");
    EXPECT_FALSE(r.spec.has_value());
    EXPECT_FALSE(r.errors.empty());
  }
}

// Every 7th-byte prefix of each real spec: no crash, and a spec exactly when there is no error.
TEST(SpecLoader, TruncatedSpecsNeverCrash) {
  for (const std::string& name : kRealSpecs) {
    const std::string text = ReadFile(kSpecDir + "/" + name);
    ASSERT_FALSE(text.empty()) << name;
    size_t failures = 0;
    for (size_t n = 0; n < text.size(); n += 7) {
      const SpecLoadResult r = LoadSpecText(text.substr(0, n), name);
      EXPECT_EQ(r.spec.has_value(), r.errors.empty()) << name << " cut at " << n;
      for (const SpecError& e : r.errors) EXPECT_EQ(e.file, name);
      failures += !r.spec.has_value();
    }
    EXPECT_GT(failures, text.size() / 7 / 2) << name << ": most prefixes must be rejected";
    EXPECT_TRUE(LoadSpecText(text, name).spec.has_value()) << name;
  }
}

TEST(SpecLoader, FormatLeavesOutUnknownParts) {
  EXPECT_EQ(FormatSpecError({"a.yaml", 3, "x.y", "bad"}), "a.yaml:3: x.y: bad");
  EXPECT_EQ(FormatSpecError({"a.yaml", 0, "operator", "dup"}), "a.yaml: operator: dup");
  EXPECT_EQ(FormatSpecError({"a.yaml", 2, "", "empty"}), "a.yaml:2: empty");
}

TEST(SpecSet, DuplicateOperatorNamesAcrossFiles) {
  OperatorSpec a, b, c;
  a.name = c.name = "DML_X";
  b.name = "DML_Y";
  a.file = "a.yaml", b.file = "b.yaml", c.file = "c.yaml";
  a.family.name = b.family.name = c.family.name = "scan";
  a.abi.code = 1, b.abi.code = 2, c.abi.code = 3;
  EXPECT_EQ(Formatted(CheckSpecSet({a, b, c})),
            std::vector<std::string>{"c.yaml: operator: operator 'DML_X' is already defined in "
                                     "a.yaml"});
  EXPECT_TRUE(CheckSpecSet({a, b}).empty());
  b.abi.code = 1;  // one ABI code for two operators
  EXPECT_EQ(Formatted(CheckSpecSet({a, b})),
            std::vector<std::string>{"b.yaml: abi.code: code 1 is already DML_X's (a.yaml)"});
  b.abi.code = 2;
  b.family.name.clear();
  EXPECT_EQ(Formatted(CheckSpecSet({a, b})),
            std::vector<std::string>{"b.yaml: family: missing: which family (scan, scatter_nd) the "
                                     "operator belongs to"});
}

// The rules are the platform's: every spec of one scheme declares the same.
TEST(SpecSet, OneSchemeDeclaresOneSetOfFloatRules) {
  OperatorSpec a, b, c;
  a.name = "DML_X", b.name = "DML_Y", c.name = "OV_Z";
  a.file = "a.yaml", b.file = "b.yaml", c.file = "c.yaml";
  a.family.name = b.family.name = c.family.name = "scan";
  a.abi.code = 1, b.abi.code = 2, c.abi.code = 3;
  c.scheme = LevelScheme::kOpenVINO;
  a.float_rules = {FloatRule{DType::kFloat32, true, true, "rules"}};
  EXPECT_EQ(Formatted(CheckSpecSet({a, b, c})),
            std::vector<std::string>{
                "b.yaml: float_rules: none (IEEE 754) differ from a.yaml's FLOAT32: "
                "flush_to_signed_zero, nearest_or_toward_zero (rules); every spec of scheme "
                "directml must declare its platform's rules alike"});
  b.float_rules = {FloatRule{DType::kFloat32, true, false, "rules"}};
  EXPECT_EQ(Formatted(CheckSpecSet({a, b})),
            std::vector<std::string>{
                "b.yaml: float_rules: FLOAT32: flush_to_signed_zero, nearest (rules) differ from "
                "a.yaml's FLOAT32: flush_to_signed_zero, nearest_or_toward_zero (rules); every "
                "spec of scheme directml must declare its platform's rules alike"});
  b.float_rules = a.float_rules;
  EXPECT_TRUE(CheckSpecSet({a, b, c}).empty());  // OpenVINO's scheme is another platform
}

TEST(SpecCheck, RealSpecsPass) {
  std::ostringstream out, err;
  EXPECT_EQ(SpecCheckMain({}, kSpecDir, out, err), 0);
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSpecDir))
    files += entry.path().extension() == ".yaml";
  EXPECT_EQ(out.str(), "spec check: " + std::to_string(files) + " files, 0 errors\n");
  EXPECT_EQ(err.str(), "");
}

TEST(SpecCheck, ReportsEveryProblem) {
  const std::string bad = kSpecDir + "/testdata/bad/several_errors.yaml";
  const std::string good = kSpecDir + "/testdata/good/minimal.yaml";
  std::ostringstream out, err;
  EXPECT_EQ(SpecCheckMain({bad, good, good}, "", out, err), 1);
  // minimal.yaml is a whole file but no member of a spec set: it has no family and no ABI form.
  EXPECT_EQ(out.str(), "spec check: 3 files, 8 errors\n");
  const std::string text = err.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 8);
  EXPECT_NE(text.find(bad + ":45: support[0].tensors.InputTensor.dtypes[2]: unknown data type "
                            "'FLOAT8'\n"),
            std::string::npos);
  EXPECT_NE(
      text.find(good + ": operator: operator 'DML_TEST_COPY' is already defined in " + good + "\n"),
      std::string::npos);
}

TEST(SpecCheck, NothingToCheckIsAUsageError) {
  std::ostringstream out, err;
  EXPECT_EQ(SpecCheckMain({}, "", out, err), 2);
  EXPECT_NE(err.str().find("usage: opcts spec check"), std::string::npos);
  EXPECT_EQ(SpecCheckMain({}, kSpecDir + "/testdata/bad/no_such_dir", out, err), 2);
}

}  // namespace
}  // namespace opcts
