// Test helpers for vulkan_test.cc: the plugin loaded through its C ABI (dlopen, as the harness
// does), host tensors in any layout with guard bytes around them, and element bit encodings.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "opcts/backend.h"

namespace opcts::vulkan_test {

// One backend instance of the built plugin.
class Plugin {
 public:
  // nullptr with *status and *message set when create() fails.
  static std::unique_ptr<Plugin> Create(const std::string& options, int32_t* status,
                                        std::string* message);
  ~Plugin();

  opcts_backend_info Info() const;
  int32_t Query(const opcts_op_desc& op, std::string* message) const;
  int32_t Execute(const opcts_op_desc& op, const std::vector<opcts_binding>& bindings,
                  std::string* message) const;
  // "validation: on, messages=N" in info.details; -1 when validation is off.
  int64_t ValidationMessages() const;

 private:
  Plugin(const opcts_backend_api* api, void* instance) : api_(api), instance_(instance) {}
  const opcts_backend_api* api_;
  void* instance_;
};

enum class Layout {
  kPacked,
  kPadded,     // every dimension's extent padded: strides larger than packed
  kBroadcast,  // the first dimension of size > 1 has stride 0 (inputs only)
};

// A tensor in harness-owned memory, with kGuardBytes of a known pattern on both sides.
class HostTensor {
 public:
  static constexpr size_t kGuardBytes = 64;
  static constexpr uint8_t kGuardPattern = 0xA5;

  HostTensor(uint32_t data_type, std::vector<uint32_t> sizes, Layout layout, std::mt19937_64& rng);
  // A scalar (dimension_count 0), as OpenVINO's axis input.
  static HostTensor Scalar(uint32_t data_type, uint64_t bits);

  uint32_t data_type() const { return data_type_; }
  const std::vector<uint32_t>& sizes() const { return sizes_; }
  uint64_t element_count() const;
  opcts_tensor_desc desc() const;
  opcts_binding binding() { return {data(), total_bytes_}; }
  uint8_t* data() { return storage_.data() + kGuardBytes; }
  uint64_t total_bytes() const { return total_bytes_; }

  // Elements by row-major logical index; bits are the element's bytes, little-endian.
  uint64_t Get(uint64_t logical) const;
  void Set(uint64_t logical, uint64_t bits);
  uint64_t OffsetOf(uint64_t logical) const;  // in elements

  bool GuardsIntact() const;
  std::vector<uint8_t> Bytes() const {
    return {storage_.begin() + kGuardBytes, storage_.end() - kGuardBytes};
  }

 private:
  HostTensor() = default;

  uint32_t data_type_ = 0;
  std::vector<uint32_t> sizes_;
  std::vector<uint32_t> strides_;
  bool explicit_strides_ = false;
  uint64_t total_bytes_ = 0;
  std::vector<uint8_t> storage_;
};

uint32_t ElementBytes(uint32_t data_type);
bool IsFloat(uint32_t t);
bool IsSigned(uint32_t t);
// Float element bits <-> double (float16/bfloat16 through spec/half.h, exact).
double DecodeFloat(uint32_t data_type, uint64_t bits);
uint64_t EncodeFloat(uint32_t data_type, double value);

// Resident set size of this process in KiB (from /proc/self/status).
long ResidentKiB();

}  // namespace opcts::vulkan_test
