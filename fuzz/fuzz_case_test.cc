// The fuzzer input codec: seeds decode to exactly the operations they were made from, any bytes
// decode without harm, and the special values are the documented bit patterns.
#include "fuzz/fuzz_case.h"

#include <algorithm>
#include <random>

#include <fuzzer/FuzzedDataProvider.h>
#include <gtest/gtest.h>

#include "base/cli_args.h"
#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/vector_file.h"
#include "fuzz/embedded_specs.h"
#include "fuzz/special_values.h"

namespace opcts {
namespace {

std::optional<Operation> Decode(const OperatorSpec& spec, const std::string& bytes) {
  FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return DecodeOperation(spec, fdp);
}

// Beyond what the decoder chooses: a dim above 16, or above 64 elements in the data tensor or
// in a scatter's grid of index tuples.
bool BeyondDecoderLimits(const Operation& op) {
  std::vector<std::pair<std::string, uint32_t>> shapes = {{op.spec->tensors.front().name, 1}};
  for (const Constraint& c : op.spec->constraints)
    if (c.kind == ConstraintKind::kScatterNDUpdatesSizes && op.Tensor(c.tensors[1]))
      shapes.push_back({c.tensors[1], op.Tensor(c.tensors[1])->desc.sizes.back()});
  for (const auto& [name, per_tuple] : shapes) {
    const TensorDesc& d = op.Tensor(name)->desc;
    if (ElementCount(d) / per_tuple > 64 ||
        std::any_of(d.sizes.begin(), d.sizes.end(), [](uint32_t s) { return s > 16; }))
      return true;
  }
  return false;
}

// Empty when equal, else what differs.
std::string Difference(const Operation& a, const Operation& b) {
  if (a.spec != b.spec) return "operator";
  for (const ParamSpec& p : a.spec->params)
    if (a.Param(p.name) != b.Param(p.name)) return "parameter " + p.name;
  if (a.in_place != b.in_place) return "in_place";
  if (a.tensors.size() != b.tensors.size()) return "tensor count";
  for (const auto& [name, t] : a.tensors) {
    const TensorData* u = b.Tensor(name);
    if (u == nullptr) return "tensor " + name + " missing";
    if (!(t.desc == u->desc)) return name + " desc";
    const bool output = a.spec->FindTensor(name)->role == TensorRole::kOutput;
    if (!output && t.bytes != u->bytes) return name + " bytes";
  }
  return "";
}

TEST(FuzzCase, GoldenAndEdgeVectorsRoundTripExactly) {
  const SpecSet& specs = EmbeddedSpecSet();
  int encoded = 0;
  for (const std::string& file :
       ExpandPaths({std::string(OPCTS_SOURCE_DIR) + "/conformance/vectors"}, ".json")) {
    const Result<TestVector> r = LoadVectorFile(file, specs);
    ASSERT_TRUE(r) << r.error().message;
    if (r->expect_reject) continue;
    const Operation& op = r->op;
    const std::optional<std::string> bytes = EncodeOperation(op);
    // Outside the decoder's reach only: a dtype beyond the top support table or a larger tensor.
    if (!bytes) {
      EXPECT_FALSE(LowestSupportingLevel(op) && FindViolations(op, true).empty() &&
                   !BeyondDecoderLimits(op))
          << file << " is a small valid case the decoder cannot express";
      continue;
    }
    const std::optional<Operation> decoded = Decode(*op.spec, *bytes);
    ASSERT_TRUE(decoded) << file;
    // Layouts LayoutDesc cannot make come back packed with the same logical values.
    EXPECT_EQ(Difference(*decoded, BuildOperation(*op.spec, ExtractFuzzCase(op))), "") << file;
    ++encoded;
  }
  EXPECT_GE(encoded, 20);
}

TEST(FuzzCase, PackedGoldenVectorComesBackBitForBit) {
  const SpecSet& specs = EmbeddedSpecSet();
  const Result<TestVector> r =
      LoadVectorFile(std::string(OPCTS_SOURCE_DIR) +
                         "/conformance/vectors/edge/scatter.f32.bit_exact_specials.json",
                     specs);
  ASSERT_TRUE(r) << r.error().message;
  const std::optional<std::string> bytes = EncodeOperation(r->op);
  ASSERT_TRUE(bytes);
  const std::optional<Operation> decoded = Decode(*r->op.spec, *bytes);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(Difference(*decoded, r->op), "");
}

TEST(FuzzCase, GeneratedCasesRoundTrip) {
  const SpecSet& specs = EmbeddedSpecSet();
  std::map<std::string, int> encoded;
  for (const CaseRecipe& c : GenerateCases(specs, {.seed = 7, .long_axes = false})) {
    if (c.group != CaseGroup::kValid || c.level.empty()) continue;
    const Operation op = Materialize(c);
    const std::optional<std::string> bytes = EncodeOperation(op);
    if (BeyondDecoderLimits(op)) continue;
    ASSERT_TRUE(bytes) << c.id << " (in a support table, small) cannot be encoded";
    const std::optional<Operation> decoded = Decode(*c.spec, *bytes);
    ASSERT_TRUE(decoded) << c.id;
    ASSERT_EQ(Difference(*decoded, BuildOperation(*c.spec, ExtractFuzzCase(op))), "") << c.id;
    if (c.layout != Layout::kPadded) {  // a padded scan output is not a LayoutDesc layout
      ASSERT_EQ(Difference(*decoded, op), "") << c.id;
    }
    ++encoded[c.spec->name];
  }
  EXPECT_EQ(encoded.size(), specs.specs.size());
}

// Any bytes: no crash, tensors sized as their descs say, and re-encoding what was decoded
// decodes to the same operation. A fair share of random inputs must be valid cases.
TEST(FuzzCase, RandomBytesDecodeConsistently) {
  std::mt19937_64 rng(12345);
  for (const OperatorSpec& spec : EmbeddedSpecSet().specs) {
    int decoded = 0, valid = 0;
    for (int i = 0; i < 1500; ++i) {
      std::string bytes(rng() % 600, '\0');
      for (char& b : bytes) b = static_cast<char>(rng());
      const std::optional<Operation> op = Decode(spec, bytes);
      if (!op) continue;
      ++decoded;
      for (const auto& [name, t] : op->tensors)
        ASSERT_EQ(t.bytes.size(), t.desc.total_bytes) << name;
      const std::vector<Violation> violations = FindViolations(*op, true);
      // A scatter's updates are shaped as the rule demands: nothing reads past them.
      for (const Violation& v : violations)
        ASSERT_NE(v.constraint, "updates-sizes")
            << spec.name << " input " << i << ": " << v.message;
      if (violations.empty() && LowestSupportingLevel(*op)) ++valid;
      const std::optional<std::string> again = EncodeOperation(*op);
      ASSERT_TRUE(again) << spec.name << " input " << i;
      const std::optional<Operation> redecoded = Decode(spec, *again);
      ASSERT_TRUE(redecoded);
      ASSERT_EQ(Difference(*redecoded, *op), "") << spec.name << " input " << i;
    }
    EXPECT_GT(decoded, 1000) << spec.name;
    EXPECT_GT(valid, 500) << spec.name;
  }
}

// About one scan input in 256 has a long dimension (17..6144, the others' product at most 2),
// whose elements repeat the first 64; it round-trips, and a long tensor that does not repeat so
// cannot be encoded.
TEST(FuzzCase, RareLongScanDimensionRepeatsItsElements) {
  const OperatorSpec* spec = EmbeddedSpecSet().Find("DML_CUMULATIVE_SUMMATION");
  ASSERT_NE(spec, nullptr);
  std::mt19937_64 rng(99);
  int inputs = 0, long_cases = 0;
  for (; inputs < 40000; ++inputs) {
    std::string bytes(rng() % 200, '\0');
    for (char& b : bytes) b = static_cast<char>(rng());
    std::optional<FuzzCase> c;
    {
      FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      c = DecodeFuzzCase(*spec, fdp);
    }
    if (!c) continue;
    const FuzzTensor& data = c->tensors.at(spec->tensors.front().name);
    uint64_t longest = 0, others = 1;
    for (uint32_t s : data.sizes) {
      if (s > 16)
        longest = s;
      else
        others *= s;
    }
    if (longest == 0) continue;
    ++long_cases;
    ASSERT_LE(longest, 6144u);
    ASSERT_LE(others, 2u);
    const std::optional<std::string> again = EncodeFuzzCase(*spec, *c);
    ASSERT_TRUE(again);
    const std::optional<Operation> redecoded = Decode(*spec, *again);
    ASSERT_TRUE(redecoded);
    ASSERT_EQ(Difference(*redecoded, BuildOperation(*spec, *c)), "");
    // As a seed it carries filler that makes it one of the long inputs that run.
    const std::optional<std::string> seed = EncodeOperation(BuildOperation(*spec, *c));
    ASSERT_TRUE(seed);
    EXPECT_TRUE(RunsLongCase(*seed));
    const std::optional<Operation> from_seed = Decode(*spec, *seed);
    ASSERT_TRUE(from_seed);
    ASSERT_EQ(Difference(*from_seed, BuildOperation(*spec, *c)), "");
    if (data.elements.size() <= 64) continue;  // broadcast along the long dimension
    for (size_t i = 64; i < data.elements.size(); ++i)
      ASSERT_EQ(data.elements[i], data.elements[i - 64]) << i;
    FuzzCase broken = *c;
    broken.tensors.at(spec->tensors.front().name).elements.back() ^= 1;
    EXPECT_FALSE(EncodeFuzzCase(*spec, broken)) << "a long tensor that does not repeat was encoded";
  }
  EXPECT_GT(long_cases, inputs / 512);
  EXPECT_LT(long_cases, inputs / 128);
}

TEST(FuzzCase, EmptyInputIsTheSmallestCase) {
  for (const OperatorSpec& spec : EmbeddedSpecSet().specs) {
    const std::optional<Operation> op = Decode(spec, "");
    ASSERT_TRUE(op) << spec.name;
    const TensorData& data = *op->Tensor(spec.tensors.front().name);
    EXPECT_EQ(data.desc.dtype,
              TopSupport(spec).tensors.at(spec.tensors.front().name).dtypes.front());
    EXPECT_TRUE(std::all_of(data.desc.sizes.begin(), data.desc.sizes.end(),
                            [](uint32_t s) { return s == 1; }));
    EXPECT_TRUE(
        std::all_of(data.bytes.begin(), data.bytes.end(), [](uint8_t b) { return b == 0; }));
    EXPECT_FALSE(op->in_place);
  }
}

TEST(SpecialValues, HoldTheDocumentedPatterns) {
  auto has = [](DType t, uint64_t bits) {
    const std::vector<uint64_t>& v = SpecialValues(t);
    return std::find(v.begin(), v.end(), bits) != v.end();
  };
  // float16: +inf, -inf, -0, smallest and largest subnormal, smallest normal, 65504, quiet NaN.
  for (uint64_t bits : {0x7C00, 0xFC00, 0x8000, 0x0001, 0x03FF, 0x0400, 0x7BFF, 0x7E00})
    EXPECT_TRUE(has(DType::kFloat16, bits)) << bits;
  // float32: a signalling NaN, 65504 and 65520 exactly, the float32 maximum.
  for (uint64_t bits : {0x7F800001u, 0x477FE000u, 0x477FF000u, 0x7F7FFFFFu})
    EXPECT_TRUE(has(DType::kFloat32, bits)) << bits;
  EXPECT_TRUE(has(DType::kBFloat16, 0x7F80));  // bfloat16 +inf
  EXPECT_TRUE(has(DType::kBFloat16, 0x7F7F));  // bfloat16 maximum
  EXPECT_TRUE(has(DType::kFloat64, 0x8000000000000000ull));
  EXPECT_TRUE(has(DType::kInt32, 0x80000000u));      // INT32_MIN
  EXPECT_TRUE(has(DType::kInt32, 0x7FFFFFFFu));      // INT32_MAX
  EXPECT_TRUE(has(DType::kInt8, 0xFF));              // -1
  EXPECT_TRUE(has(DType::kUInt64, 0x100000000ull));  // 2^32: 0 when narrowed to 32 bits
  for (DType t : kAllDTypes) {
    EXPECT_EQ(SpecialValues(t).front(), 0u);
    EXPECT_LE(SpecialValues(t).size(), kMaxSpecialValues);
  }
}

}  // namespace
}  // namespace opcts
