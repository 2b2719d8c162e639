#include "cpu_reference/output_writer.h"

#include <limits>
#include <string>

#include "spec/element.h"

namespace opcts::cpu_reference {
namespace {

uint64_t ChosenBits(const ExpectedTensor& expected, const ExpectedElement& e) {
  const DType t = expected.desc.dtype;
  switch (e.kind) {
    case Expect::kAnyOf:
      return expected.candidates.at(e.bits).front();
    case Expect::kNear:
      return DoubleToBits(t, static_cast<double>(e.value));
    case Expect::kNaN:
      return DoubleToBits(t, std::numeric_limits<double>::quiet_NaN());
    case Expect::kBits:
    case Expect::kAny:
      break;
  }
  return e.bits;
}

}  // namespace

Result<void> WriteExpected(const ExpectedTensor& expected, const opcts_binding& output) {
  const TensorDesc& desc = expected.desc;
  if (expected.elements.size() != ElementCount(desc))
    return InternalError(expected.name + ": the oracle gave " +
                         std::to_string(expected.elements.size()) + " elements for " +
                         std::to_string(ElementCount(desc)));
  // CheckDescriptor guarantees this; checked again because a write past the binding would
  // corrupt harness memory.
  const uint64_t span = BufferElementCount(desc) * DTypeSize(desc.dtype);
  if (span > output.size_in_bytes)
    return InternalError(expected.name + " addresses " + std::to_string(span) +
                         " bytes but its binding has " + std::to_string(output.size_in_bytes));
  auto* bytes = static_cast<uint8_t*>(output.data);
  const StridedIndexer indexer(desc);
  for (uint64_t i = 0; i < expected.elements.size(); ++i)
    StoreBits(desc.dtype, bytes + indexer.BufferIndex(i) * DTypeSize(desc.dtype),
              ChosenBits(expected, expected.elements[i]));
  return {};
}

}  // namespace opcts::cpu_reference
