// The cases property tests draw (conformance/properties/), without rapidcheck: the choices
// each draw makes, the recipe they build (with its id), and the way back from such an id to the
// recipe, so `opcts repro` resolves every id a property test prints.
//
//   CaseRecipe r = BuildScanRecipe(choices);               // r.id "..prop..s42"
//   Result<CaseRecipe> again = PropertyCaseRecipe(specs, *CaseId::Parse(r.id));   // the same case
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "conformance/case.h"
#include "conformance/case_id.h"
#include "conformance/scatter_form.h"
#include "conformance/spec_set.h"

namespace opcts {

// A TensorRecipe of `desc` filled with `values`, its other fields at their defaults.
TensorRecipe FilledWith(const TensorDesc& desc, Values values = Values::kNone);

// A scan-family case (cumulative sum/product, OpenVINO and ONNX CumSum).
struct ScanChoices {
  const OperatorSpec* spec = nullptr;
  DType dtype = DType::kFloat32;
  std::vector<uint32_t> shape;
  int axis = 0;              // as given to the operator: OpenVINO counts negatives from the back
  bool axis_absent = false;  // OpenVINO: the optional axis input left out (axis 0)
  DType axis_dtype = DType::kInt64;
  bool reverse = false, exclusive = false;
  Layout input_layout = Layout::kPacked;   // packed, padded, transposed, broadcast, in-place
  Layout output_layout = Layout::kPacked;  // packed, padded, transposed; in-place with the input
  unsigned broadcast_dim = 0;              // input_layout kBroadcast: the stride-0 dimension
  Values values = Values::kRandomSum;
  uint64_t seed = 0;

  unsigned Axis() const;  // the dimension scanned, in [0, rank)
};

// A scatter-family case, in either form (conformance/scatter_form.h).
struct ScatterChoices {
  const OperatorSpec* spec = nullptr;
  DType dtype = DType::kFloat32, index_dtype = DType::kUInt32;
  ScatterShapes shapes;   // input, indices and updates; the dimension counts
  int64_t reduction = 0;  // the reduction role's value (0, none, when the operator has none)
  Values index_values = Values::kIndexUnique;
  bool specials = false;            // float input and updates from the specials (reductions only)
  Layout layout = Layout::kPacked;  // packed, padded, transposed, broadcast (updates), in-place
  unsigned broadcast_dim = 0;
  uint64_t seed = 0;
};

// The dimension a scan's axis value names: OpenVINO counts negatives from the back; absent is 0.
unsigned ScanDimensionOf(int axis, bool absent, unsigned rank);

CaseRecipe BuildScanRecipe(const ScanChoices& choices);
CaseRecipe BuildScatterRecipe(const ScatterChoices& choices);

// The recipe of a property test's case from its id (id.property); an error naming the part that
// does not read, or saying that no draw makes this id.
Result<CaseRecipe> PropertyCaseRecipe(const SpecSet& specs, const CaseId& id);

}  // namespace opcts
