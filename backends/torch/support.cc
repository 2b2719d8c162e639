#include "torch/support.h"

#include <string_view>
#include <vector>

#include <ATen/ATen.h>

#include "torch/scatter_nd.h"
#include "torch/torch_types.h"

namespace opcts::torch_cpu {
namespace {

constexpr uint32_t kDTypes[] = {OPCTS_DTYPE_FLOAT64,  OPCTS_DTYPE_FLOAT32, OPCTS_DTYPE_FLOAT16,
                                OPCTS_DTYPE_BFLOAT16, OPCTS_DTYPE_INT64,   OPCTS_DTYPE_INT32,
                                OPCTS_DTYPE_INT16,    OPCTS_DTYPE_INT8,    OPCTS_DTYPE_UINT64,
                                OPCTS_DTYPE_UINT32,   OPCTS_DTYPE_UINT16,  OPCTS_DTYPE_UINT8};

constexpr plugin::ScatterReduction kReductions[] = {
    plugin::ScatterReduction::kNone, plugin::ScatterReduction::kAdd, plugin::ScatterReduction::kMul,
    plugin::ScatterReduction::kMax, plugin::ScatterReduction::kMin};

// Every scan mode of one combine: both directions, inclusive and exclusive.
std::vector<Recipe> ScanRecipes(bool product) {
  std::vector<Recipe> recipes;
  for (const bool reverse : {false, true})
    for (const bool exclusive : {false, true}) {
      Recipe recipe;
      recipe.scan = {product, reverse, exclusive};
      recipes.push_back(recipe);
    }
  return recipes;
}

Recipe ScatterRecipe(plugin::ScatterReduction reduction) {
  Recipe recipe;
  recipe.scatter = true;
  recipe.reduction = reduction;
  return recipe;
}

// Runs `recipe` on two-element tensors (a ScatterND with a duplicate index): "" when torch ran
// it, torch's message when it refused.
std::string TryRecipe(const Recipe& recipe) {
  const at::TensorOptions options = at::TensorOptions().dtype(recipe.dtype);
  try {
    const at::Tensor input = at::ones({2}, options);
    const at::Tensor output = at::empty({2}, options);
    if (recipe.scatter)
      TorchScatterND(input, at::zeros({2, 1}, at::kLong), at::ones({2}, options), output,
                     recipe.reduction);
    else
      TorchScan(input, output, 0, recipe.scan);
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "";
}

// The torch function a recipe rests on, as PyTorch's Python API names it.
std::string KernelName(const Recipe& recipe) {
  if (!recipe.scatter) return recipe.scan.product ? "torch.cumprod" : "torch.cumsum";
  switch (recipe.reduction) {
    case plugin::ScatterReduction::kNone:
      return "Tensor.index_put_";
    case plugin::ScatterReduction::kAdd:
      return "Tensor.index_put_(accumulate=True)";
    case plugin::ScatterReduction::kMul:
      return "Tensor.scatter_reduce_(reduce='prod')";
    case plugin::ScatterReduction::kMax:
      return "Tensor.scatter_reduce_(reduce='amax')";
    case plugin::ScatterReduction::kMin:
      return "Tensor.scatter_reduce_(reduce='amin')";
  }
  return "ScatterND";
}

// index_put_ takes int64 indices only ("tensors used as indices must be long, byte or bool
// tensors"): INT32 ones are widened with Tensor.to(torch.int64), losslessly, as a caller of
// torch would. UINT32 and UINT64 ones have no torch tensor to start from.
Result<void> CheckIndexType(const char* tensor, uint32_t data_type) {
  if (const Result<c10::ScalarType> type = TorchType(data_type); !type.ok())
    return NotSupported(std::string(tensor) + ": " + type.error().message);
  return {};
}

}  // namespace

TorchSupport TorchSupport::Probe() {
  TorchSupport support;
  std::vector<Recipe> recipes = ScanRecipes(false);
  for (const Recipe& product : ScanRecipes(true)) recipes.push_back(product);
  for (const plugin::ScatterReduction reduction : kReductions)
    recipes.push_back(ScatterRecipe(reduction));
  for (const uint32_t data_type : kDTypes) {
    const Result<c10::ScalarType> dtype = TorchType(data_type);
    if (!dtype.ok()) continue;  // no tensor to try; Check names the missing type
    for (Recipe recipe : recipes) {
      recipe.dtype = *dtype;
      if (std::string refusal = TryRecipe(recipe); !refusal.empty())
        support.refusals_.emplace(recipe, std::move(refusal));
    }
  }
  return support;
}

Result<void> TorchSupport::CheckRecipe(uint32_t data_type, Recipe recipe) const {
  OPCTS_ASSIGN_OR_RETURN(recipe.dtype, TorchType(data_type));
  const auto refusal = refusals_.find(recipe);
  if (refusal == refusals_.end()) return {};
  return NotSupported(TorchVersion() + " (CPU) refuses " + KernelName(recipe) + " on " +
                      plugin::DTypeName(data_type) + " tensors: " + refusal->second);
}

Result<void> TorchSupport::Check(const opcts_op_desc& op) const {
  const abi::Operator& info = *abi::FindOperator(op.type);
  if (std::string_view(info.family) == "scatter_nd") {
    const plugin::ScatterView scatter = plugin::ReadScatter(info, op.desc);
    OPCTS_TRY(CheckIndexType(scatter.indices.name, scatter.indices.desc->data_type));
    return CheckRecipe(scatter.input.desc->data_type,
                       ScatterRecipe(static_cast<plugin::ScatterReduction>(scatter.reduction)));
  }
  // CheckDescriptor refuses the families plugin_support does not know: this is a scan.
  const plugin::ScanView scan = plugin::ReadScan(info, op.desc);
  Recipe recipe;
  recipe.scan = {scan.product, scan.reverse != 0, scan.exclusive != 0};
  return CheckRecipe(scan.input.desc->data_type, recipe);
}

bool TorchSupport::SupportsLevel(const abi::Operator& op, const abi::Level& level) const {
  const abi::Field* data = op.RoleField("input");
  const abi::Field* indices = op.RoleField("indices");
  const abi::Field* reduction = op.RoleField("reduction");
  std::vector<Recipe> recipes;  // what the level's parameter values ask of torch
  if (std::string_view(op.family) == "scatter_nd") {
    std::vector<uint32_t> reductions = {0};  // none, unless the level lists its reductions
    for (const abi::ParamSupport& param : level.params)
      if (reduction != nullptr && std::string_view(param.param) == reduction->name)
        reductions = param.values;
    for (const uint32_t value : reductions)
      recipes.push_back(ScatterRecipe(static_cast<plugin::ScatterReduction>(value)));
  } else {
    recipes = ScanRecipes(std::string_view(op.combine) == "product");
  }
  for (const abi::TensorSupport& tensor : level.tensors)
    for (const uint32_t data_type : tensor.data_types) {
      if (indices != nullptr && std::string_view(tensor.tensor) == indices->name &&
          !CheckIndexType(tensor.tensor, data_type).ok())
        return false;
      if (std::string_view(tensor.tensor) != data->name) continue;
      for (const Recipe& recipe : recipes)
        if (!CheckRecipe(data_type, recipe).ok()) return false;
    }
  return true;
}

plugin::Claims TorchSupport::Claims() const {
  plugin::Claims claims =
      plugin::ClaimEveryLevel([this](const abi::Operator& op, const abi::Level& level) {
        return SupportsLevel(op, level);
      });
  if (claims.feature_level == 0) claims.feature_level = OPCTS_FEATURE_LEVEL(1, 0);
  return claims;
}

}  // namespace opcts::torch_cpu
