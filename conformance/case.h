// A conformance case: a recipe that builds one Operation deterministically from its seed.
// Generators produce recipes (cheap, backend-independent); the runner materializes one at a time.
//
//   for (const CaseRecipe& c : GenerateCases(specs, options)) {
//     Operation op = Materialize(c);   // same bytes every time for the same recipe
//   }
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "conformance/layout.h"
#include "reports/status.h"
#include "spec/operation.h"

namespace opcts {

// How a tensor's elements are filled.
enum class Values : uint8_t {
  kNone,             // outputs: nothing to fill
  kRandomSum,        // moderate values whose sums stay in range (signed integers never overflow)
  kRandomProduct,    // values whose running products stay in range
  kExtremes,         // integers: min, max, 0, ±1 (unsigned sums wrap); floats: subnormals, ±0,
                     // ±inf, NaN, max finite and pairs that overflow
  kRandomBits,       // any bit pattern (data movement: NaN payloads, -0, signalling NaNs)
  kOnes,             // all 1
  kIndexUnique,      // in-range index tuples, no two the same
  kIndexBoundary,    // coordinates 0 and dim-1 (and -dim, -1 for signed types)
  kIndexNegative,    // negative coordinates in [-dim, -1] (signed types)
  kIndexDuplicates,  // in-range tuples, some repeated
  kIndexOutOfRange,  // at least one coordinate outside [-dim, dim) (or huge unsigned)
  kScalar,           // one value: `scalar`

  // Float scan edges, whole lines at a time (TensorRecipe::line_length and line_inner):
  kNegZeroSum,        // -0.0 at both ends of every line and at identity positions: lines of
                      // -0.0 alone, of signed zeros, of kRandomSum values with -0.0 between
  kNegZeroProduct,    // the same with kRandomProduct values
  kCancellation,      // sums: large terms of alternating sign (the small terms between them are
                      // below half their ulp in the dtype): exact partial sums near 0
  kZeroThenOverflow,  // products: a ±0 factor among big ones whose product overflows the dtype
  kUnderflowRecover,  // products: tiny factors whose product underflows the dtype, then their
                      // reciprocals, which bring the exact product back to ±1
};

// A defect below what an Operation can hold, put into the descriptor or the bindings as they
// are built for the backend (conformance/abi_operation.h). Each is applied to the operator's
// first tensor, a required input in every spec.
enum class AbiFault : uint8_t {
  kNone,
  kNullTensorDesc,      // its opcts_tensor_desc pointer is NULL
  kDataTypeZero,        // its DataType is 0 (DML_TENSOR_DATA_TYPE_UNKNOWN)
  kDataTypePastLast,    // its DataType is one past the highest OPCTS_DTYPE_* code
  kBindingCountBelow,   // execute gets binding_count one below the operator's tensor count
  kBindingCountAbove,   // ... one above (the extra binding is {NULL, 0})
  kBindingSizeMismatch  // its binding's size_in_bytes is one below TotalTensorSizeInBytes
};

struct TensorRecipe {
  TensorDesc desc;
  Values values = Values::kNone;
  std::vector<uint32_t> index_dims;  // index tensors: the dim each tuple coordinate addresses
  uint64_t line_length = 1;          // scans: terms per running result (keeps values in range)
  int64_t scalar = 0;                // kScalar
  uint64_t line_inner = 1;           // scans: logical (row-major) distance between neighbours
                                     // along the axis, for the classes that shape whole lines
};

struct CaseRecipe {
  const OperatorSpec* spec = nullptr;
  std::string id;  // "dml_cumulative_summation.f32.rank4.1x1x3x4.axis3-inc-incl.packed.random.s1"
  CaseGroup group = CaseGroup::kValid;  // kValid or kInvalid (unclaimed is per backend)
  std::string level;     // lowest support level admitting it; "" if none (or invalid)
  std::string violates;  // invalid: the constraint id it breaks
  Layout layout = Layout::kPacked;
  std::string value_tag;          // "random", "extremes", ...
  DType dtype = DType::kFloat32;  // the data type the case is about
  std::vector<uint32_t> shape;    // the main tensor's sizes
  std::map<std::string, int64_t> params;
  std::map<std::string, TensorRecipe> tensors;  // absent optional inputs are missing
  bool in_place = false;
  AbiFault abi_fault = AbiFault::kNone;  // invalid cases only
  uint64_t seed = 0;
};

Operation Materialize(const CaseRecipe& recipe);

// FNV-1a: a stable 64-bit hash for seeds derived from ids.
uint64_t StableHash(const std::string& text);

}  // namespace opcts
