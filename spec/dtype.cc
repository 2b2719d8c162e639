#include "spec/dtype.h"

namespace opcts {
namespace {
struct DTypeNames {
  DType type;
  std::string_view name;
  std::string_view short_name;
};
constexpr DTypeNames kNames[] = {
    {DType::kFloat64, "FLOAT64", "f64"}, {DType::kFloat32, "FLOAT32", "f32"},
    {DType::kFloat16, "FLOAT16", "f16"}, {DType::kBFloat16, "BFLOAT16", "bf16"},
    {DType::kInt64, "INT64", "i64"},     {DType::kInt32, "INT32", "i32"},
    {DType::kInt16, "INT16", "i16"},     {DType::kInt8, "INT8", "i8"},
    {DType::kUInt64, "UINT64", "u64"},   {DType::kUInt32, "UINT32", "u32"},
    {DType::kUInt16, "UINT16", "u16"},   {DType::kUInt8, "UINT8", "u8"},
};
}  // namespace

std::string_view DTypeName(DType t) {
  for (const auto& n : kNames)
    if (n.type == t) return n.name;
  return "UNKNOWN";
}

std::string_view DTypeShortName(DType t) {
  for (const auto& n : kNames)
    if (n.type == t) return n.short_name;
  return "unknown";
}

std::optional<DType> ParseDType(std::string_view name) {
  for (const auto& n : kNames)
    if (n.name == name) return n.type;
  return std::nullopt;
}

}  // namespace opcts
