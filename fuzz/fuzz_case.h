// Structure-aware fuzzer input: bytes -> a FuzzCase (every choice that makes one operation of a
// spec) -> an Operation, and back, so golden vectors and generated cases become seeds.
//
// Choices (data types, rank, sizes, parameters, in-place, layouts) are read with
// FuzzedDataProvider::ConsumeIntegralInRange from the end of the input; each input element is a
// one-byte selector from the end (a special value, a small number, an index coordinate) or raw
// bits from the front. Shapes follow the spec's family (each has a shape chooser, looked up by
// spec/family_hooks.h): in a scan every tensor shares the data tensor's shape; in a scatter the
// index and update shapes are derived from it, in either form. Tensors are small (dims up to 16, 64
// elements), except that one input in 256 gives a scan's data tensor one dimension of 17 to 6 144
// (the others' product at most 2) whose elements repeat the first 64 decoded. Choices stay in the
// top support table and in each parameter's param_range, but nothing else is promised: callers
// check FindViolations.
//
//   FuzzedDataProvider fdp(data, size);
//   std::optional<Operation> op = DecodeOperation(spec, fdp);  // nullopt: no case in these bytes
//   std::optional<std::string> seed = EncodeOperation(*op);    // decodes to the same operation
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/layout.h"
#include "spec/operation.h"

class FuzzedDataProvider;

namespace opcts {

struct FuzzTensor {
  DType dtype = DType::kFloat32;
  std::vector<uint32_t> sizes;
  Layout layout = Layout::kPacked;  // one LayoutDesc makes: packed, padded, transposed, broadcast
  unsigned broadcast_dim = 0;
  std::vector<uint64_t> elements;  // inputs: the bits of every buffer element (padding included)
};

struct FuzzCase {
  std::map<std::string, FuzzTensor> tensors;  // by spec tensor name; absent optional inputs missing
  std::map<std::string, int64_t> params;      // every parameter, defaults included
  bool in_place = false;
};

std::optional<FuzzCase> DecodeFuzzCase(const OperatorSpec& spec, FuzzedDataProvider& fdp);
// The bytes DecodeFuzzCase turns back into `c`; nullopt when `c` has a shape, dtype, parameter
// or (in a long tensor) element pattern outside what the decoder can choose.
std::optional<std::string> EncodeFuzzCase(const OperatorSpec& spec, const FuzzCase& c);

Operation BuildOperation(const OperatorSpec& spec, const FuzzCase& c);
// A tensor whose layout LayoutDesc does not make is laid out packed, with the same logical values.
FuzzCase ExtractFuzzCase(const Operation& op);

std::optional<Operation> DecodeOperation(const OperatorSpec& spec, FuzzedDataProvider& fdp);
// Whether a tensor of `op` has a dimension beyond the small ones (a rare long scan).
bool HasLongDimension(const Operation& op);
// A long case runs for one input in kLongCaseShare, chosen by a hash of the input's bytes
// (fuzz/targets/differential.cc).
constexpr uint64_t kLongCaseShare = 32;
bool RunsLongCase(const std::string& input);
// A long operation's encoding carries unread filler between the two ends the decoder reads
// from, as much as makes it one of the long inputs that run (a seed that would never run is
// no seed).
std::optional<std::string> EncodeOperation(const Operation& op);

}  // namespace opcts
