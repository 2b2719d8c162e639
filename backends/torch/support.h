// What torch-cpu runs, learned by asking torch rather than from a table written here: create()
// runs each recipe (a scan mode or a ScatterND reduction, in each dtype torch has) once on
// two-element tensors through the same code execute uses, and keeps torch's error for the ones
// it refuses. Query refuses those descriptors in torch's words ("cumsum_out_cpu" not implemented
// for 'Half'), so execute never meets a refusal; the claims are the levels with none.
#pragma once

#include <map>
#include <string>
#include <tuple>

#include <c10/core/ScalarType.h>

#include "base/result.h"
#include "common/family_views.h"
#include "common/plugin_support.h"
#include "opcts/backend.h"
#include "torch/scan.h"

namespace opcts::torch_cpu {

// One kernel path through torch, apart from shapes and layouts.
struct Recipe {
  c10::ScalarType dtype = c10::ScalarType::Undefined;
  bool scatter = false;  // ScatterND; otherwise a scan
  ScanMode scan;         // a scan's combine, direction and exclusivity
  plugin::ScatterReduction reduction = plugin::ScatterReduction::kNone;  // a scatter's

  bool operator<(const Recipe& other) const {
    return std::tie(dtype, scatter, scan.product, scan.reverse, scan.exclusive, reduction) <
           std::tie(other.dtype, other.scatter, other.scan.product, other.scan.reverse,
                    other.scan.exclusive, other.reduction);
  }
};

class TorchSupport {
 public:
  // Runs every recipe: 13 in each of the 9 dtypes torch has, a few milliseconds in all.
  static TorchSupport Probe();

  // For a descriptor CheckDescriptor accepted: kNotSupported naming the dtype torch has no
  // tensors of, or the recipe torch refused with its message; OK when execute will run it.
  Result<void> Check(const opcts_op_desc& op) const;

  // The highest level of each scheme whose every dtype, index type and parameter value passes
  // Check (plugin::ClaimEveryLevel); DirectML 1_0, which promises nothing, below the first.
  plugin::Claims Claims() const;

 private:
  Result<void> CheckRecipe(uint32_t data_type, Recipe recipe) const;
  bool SupportsLevel(const abi::Operator& op, const abi::Level& level) const;

  std::map<Recipe, std::string> refusals_;  // torch's message per refused recipe
};

}  // namespace opcts::torch_cpu
