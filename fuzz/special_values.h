// The values a fuzzer would rarely build from random bytes, injected explicitly: NaNs (quiet,
// signalling, negative, with payloads), ±inf, ±0, subnormals, the normal and finite limits of
// every float format (float16's 65504 and 65520 in every float type), integer extremes, and the
// 64-bit patterns that alias when truncated to 32 bits.
//
//   const std::vector<uint64_t>& v = SpecialValues(DType::kFloat16);   // bit patterns
#pragma once

#include <cstdint>
#include <vector>

#include "spec/dtype.h"

namespace opcts {

// The dtype's special bit patterns, at most kMaxSpecialValues of them; the first is +0 (or 0),
// the value an exhausted fuzzer input decodes to.
const std::vector<uint64_t>& SpecialValues(DType t);

inline constexpr unsigned kMaxSpecialValues = 32;

}  // namespace opcts
