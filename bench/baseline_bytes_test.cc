// The baselines copy data like the operator's: the case's input bytes (never its output's, never
// the zeros a fresh buffer holds), or a pseudo-random sequence without a case.
#include "bench/baseline_bytes.h"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "bench/bench_cases.h"
#include "conformance/case.h"

namespace opcts::bench {
namespace {

const Operation& ScatterCase() {
  static const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  static const Operation op = [] {
    for (const BenchCase& c : GenerateBenchCases(specs))
      if (c.op == "dml_scatter_nd" && c.dtype == "f32" && c.size == "L2" &&
          c.layout == "slice1KiB-all")
        return Materialize(c.recipe);
    return Operation{};
  }();
  return op;
}

// Two whole rounds and a partial third, so the repetition and the cut are both checked.
TEST(BaselineBytes, AreTheCaseInputsInNameOrderRepeated) {
  const Operation& op = ScatterCase();
  ASSERT_NE(op.spec, nullptr) << "no f32 ScatterND case of 1 KiB slices at L2";
  std::vector<uint8_t> expected;
  for (const auto& [name, t] : op.tensors)
    if (op.spec->FindTensor(name)->role != TensorRole::kOutput)
      expected.insert(expected.end(), t.bytes.begin(), t.bytes.end());
  ASSERT_EQ(op.tensors.size(), 4u) << "input, indices, updates and the output";
  const size_t round = expected.size();
  std::vector<uint8_t> buffer(2 * round + round / 3, 0);
  FillWithInputs(op, buffer.data(), buffer.size());
  for (size_t i = 0; i < buffer.size(); ++i)
    ASSERT_EQ(buffer[i], expected[i % round]) << "byte " << i << " of rounds of " << round;
}

TEST(BaselineBytes, PseudoRandomHaveNoLineOfZerosAndRepeatRunToRun) {
  std::vector<uint8_t> a((1 << 20) + 5, 0), b(a.size(), 0);
  FillPseudoRandom(a.data(), a.size());
  FillPseudoRandom(b.data(), b.size());
  EXPECT_EQ(a, b);
  for (size_t line = 0; line + 64 <= a.size(); line += 64)
    ASSERT_FALSE(
        std::all_of(a.begin() + line, a.begin() + line + 64, [](uint8_t x) { return x == 0; }))
        << "line at " << line;
  EXPECT_NE(std::count(a.end() - 5, a.end(), uint8_t{0}), 5) << "the partial last word is filled";
}

}  // namespace
}  // namespace opcts::bench
