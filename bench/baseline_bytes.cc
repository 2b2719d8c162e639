#include "bench/baseline_bytes.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace opcts::bench {

void FillWithInputs(const Operation& op, uint8_t* data, uint64_t size) {
  std::vector<const TensorData*> inputs;
  for (const auto& [name, t] : op.tensors)
    if (const TensorSpec* spec = op.spec->FindTensor(name);
        spec && spec->role != TensorRole::kOutput && !t.bytes.empty())
      inputs.push_back(&t);
  for (uint64_t at = 0; at < size && !inputs.empty();)
    for (const TensorData* t : inputs) {
      const uint64_t n = std::min<uint64_t>(t->bytes.size(), size - at);
      std::memcpy(data + at, t->bytes.data(), n);
      at += n;
    }
}

void FillPseudoRandom(uint8_t* data, uint64_t size) {
  uint64_t state = 0;
  for (uint64_t at = 0; at < size; at += 8) {
    uint64_t z = (state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    std::memcpy(data + at, &z, std::min<uint64_t>(8, size - at));
  }
}

}  // namespace opcts::bench
