// What the baselines copy: data like the operator's, never the zeros a fresh buffer holds. On
// some machines memory takes lines of zeros much faster than other data (a Zen 5 VM: streaming
// stores of zeros at 2x the GB/s of other floats, the streaming copy of zeros at 1.26x that of
// pseudo-random bytes, results/zero-copy-zen5.md), a limit no operator writing real data reaches.
//
//   FillWithInputs(op, buffer, size);  // the case's input bytes, repeated
//   FillPseudoRandom(buffer, size);    // for the copies timed without a case
#pragma once

#include <cstdint>

#include "spec/operation.h"

namespace opcts::bench {

// `size` bytes at `data`: the bytes of op's tensors that are not outputs, in name order,
// repeated; left as they are when op has no such bytes.
void FillWithInputs(const Operation& op, uint8_t* data, uint64_t size);

// `size` bytes at `data` of a fixed pseudo-random sequence (splitmix64).
void FillPseudoRandom(uint8_t* data, uint64_t size);

}  // namespace opcts::bench
