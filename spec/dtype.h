// Tensor data types: the DirectML set plus BFLOAT16 (OpenVINO).
//
// The numeric values equal DML_TENSOR_DATA_TYPE so a DirectML-backed plugin can pass them
// straight through; BFLOAT16 is an opcts extension after the last DirectML value.
//
//   DType t = ParseDType("FLOAT16").value();   // DType::kFloat16
//   DTypeSize(t) == 2; DTypeName(t) == "FLOAT16"
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace opcts {

enum class DType : uint8_t {
  kFloat32 = 1,
  kFloat16 = 2,
  kUInt32 = 3,
  kUInt16 = 4,
  kUInt8 = 5,
  kInt32 = 6,
  kInt16 = 7,
  kInt8 = 8,
  kFloat64 = 9,
  kUInt64 = 10,
  kInt64 = 11,
  kBFloat16 = 12,
};

inline constexpr std::array<DType, 12> kAllDTypes = {
    DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16,
    DType::kInt64,   DType::kInt32,   DType::kInt16,   DType::kInt8,
    DType::kUInt64,  DType::kUInt32,  DType::kUInt16,  DType::kUInt8};

std::string_view DTypeName(DType t);  // "FLOAT32", as the DirectML tables spell it
std::optional<DType> ParseDType(std::string_view name);
std::string_view DTypeShortName(DType t);  // "f32", "i64", ... used in case ids

constexpr size_t DTypeSize(DType t) {
  switch (t) {
    case DType::kFloat64:
    case DType::kInt64:
    case DType::kUInt64:
      return 8;
    case DType::kFloat32:
    case DType::kInt32:
    case DType::kUInt32:
      return 4;
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kInt16:
    case DType::kUInt16:
      return 2;
    case DType::kInt8:
    case DType::kUInt8:
      return 1;
  }
  return 0;
}
constexpr bool IsFloat(DType t) {
  return t == DType::kFloat64 || t == DType::kFloat32 || t == DType::kFloat16 ||
         t == DType::kBFloat16;
}
constexpr bool IsSignedInt(DType t) {
  return t == DType::kInt64 || t == DType::kInt32 || t == DType::kInt16 || t == DType::kInt8;
}
constexpr bool IsUnsignedInt(DType t) { return !IsFloat(t) && !IsSignedInt(t); }
constexpr unsigned DTypeBits(DType t) { return static_cast<unsigned>(DTypeSize(t) * 8); }

}  // namespace opcts
