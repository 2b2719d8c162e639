#include "vulkan_test_util.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "common/plugin_support.h"
#include "spec/half.h"

namespace opcts::vulkan_test {
namespace {

// The plugin's entry table, loaded once; nullptr with *error set when loading failed.
const opcts_backend_api* LoadApi(std::string* error) {
  static std::string load_error;
  static const opcts_backend_api* api = []() -> const opcts_backend_api* {
    void* handle = dlopen(OPCTS_VULKAN_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      load_error = std::string("dlopen ") + OPCTS_VULKAN_PLUGIN_PATH + ": " + dlerror();
      return nullptr;
    }
    auto entry =
        reinterpret_cast<opcts_backend_entry_fn>(dlsym(handle, OPCTS_BACKEND_ENTRY_SYMBOL));
    if (entry == nullptr) load_error = "no opcts_backend_entry in the plugin";
    return entry != nullptr ? entry() : nullptr;
  }();
  *error = load_error;
  return api;
}

}  // namespace

std::unique_ptr<Plugin> Plugin::Create(const std::string& options, int32_t* status,
                                       std::string* message) {
  const opcts_backend_api* api = LoadApi(message);
  if (api == nullptr) {
    *status = OPCTS_STATUS_ERROR;
    return nullptr;
  }
  char buffer[4096] = {};
  void* instance = nullptr;
  *status = api->create(options.c_str(), &instance, buffer, sizeof(buffer));
  *message = buffer;
  if (*status != OPCTS_STATUS_OK) return nullptr;
  return std::unique_ptr<Plugin>(new Plugin(api, instance));
}

Plugin::~Plugin() { api_->destroy(instance_); }

opcts_backend_info Plugin::Info() const {
  opcts_backend_info info{};
  api_->get_info(instance_, &info);
  return info;
}

int32_t Plugin::Query(const opcts_op_desc& op, std::string* message) const {
  char buffer[4096] = {};
  int32_t status = api_->query(instance_, &op, buffer, sizeof(buffer));
  *message = buffer;
  return status;
}

int32_t Plugin::Execute(const opcts_op_desc& op, const std::vector<opcts_binding>& bindings,
                        std::string* message) const {
  char buffer[4096] = {};
  int32_t status = api_->execute(instance_, &op, bindings.data(),
                                 static_cast<uint32_t>(bindings.size()), buffer, sizeof(buffer));
  *message = buffer;
  return status;
}

int64_t Plugin::ValidationMessages() const {
  const std::string details = Info().details;
  const std::string key = "validation: on, messages=";
  size_t at = details.rfind(key);
  if (at == std::string::npos) return -1;
  return std::strtoll(details.c_str() + at + key.size(), nullptr, 10);
}

HostTensor::HostTensor(uint32_t data_type, std::vector<uint32_t> sizes, Layout layout,
                       std::mt19937_64& rng)
    : data_type_(data_type), sizes_(std::move(sizes)), strides_(sizes_.size(), 1) {
  const size_t rank = sizes_.size();
  // Padding: one spare element per dimension, and an innermost stride of 2.
  const uint32_t pad = layout == Layout::kPadded ? 1 : 0;
  if (rank > 0) strides_[rank - 1] = layout == Layout::kPadded ? 2 : 1;
  for (size_t d = rank; d-- > 1;) strides_[d - 1] = strides_[d] * (sizes_[d] + pad);
  if (layout == Layout::kBroadcast) {
    for (size_t d = 0; d < rank; ++d) {
      if (sizes_[d] > 1) {
        strides_[d] = 0;
        break;
      }
    }
  }
  explicit_strides_ = layout != Layout::kPacked;
  uint64_t last = 0;
  for (size_t d = 0; d < rank; ++d) last += uint64_t{sizes_[d] - 1} * strides_[d];
  const uint64_t bytes = (last + 1) * ElementBytes(data_type_);
  total_bytes_ = (bytes + 3) / 4 * 4 + (layout == Layout::kPadded ? 8 : 0);
  storage_.assign(total_bytes_ + 2 * kGuardBytes, kGuardPattern);
  for (uint64_t i = 0; i < total_bytes_; ++i) data()[i] = static_cast<uint8_t>(rng());
}

HostTensor HostTensor::Scalar(uint32_t data_type, uint64_t bits) {
  HostTensor t;
  t.data_type_ = data_type;
  t.total_bytes_ = 8;
  t.storage_.assign(t.total_bytes_ + 2 * kGuardBytes, kGuardPattern);
  std::memset(t.data(), 0, t.total_bytes_);
  std::memcpy(t.data(), &bits, ElementBytes(data_type));
  return t;
}

uint64_t HostTensor::element_count() const {
  uint64_t count = 1;
  for (uint32_t size : sizes_) count *= size;
  return count;
}

opcts_tensor_desc HostTensor::desc() const {
  return {data_type_,
          0,
          static_cast<uint32_t>(sizes_.size()),
          sizes_.empty() ? nullptr : sizes_.data(),
          explicit_strides_ ? strides_.data() : nullptr,
          total_bytes_,
          0};
}

uint64_t HostTensor::OffsetOf(uint64_t logical) const {
  uint64_t offset = 0;
  for (size_t d = sizes_.size(); d-- > 0;) {
    offset += (logical % sizes_[d]) * strides_[d];
    logical /= sizes_[d];
  }
  return offset;
}

uint64_t HostTensor::Get(uint64_t logical) const {
  uint64_t bits = 0;
  const uint32_t bytes = ElementBytes(data_type_);
  std::memcpy(&bits, storage_.data() + kGuardBytes + OffsetOf(logical) * bytes, bytes);
  return bits;
}

void HostTensor::Set(uint64_t logical, uint64_t bits) {
  const uint32_t bytes = ElementBytes(data_type_);
  std::memcpy(data() + OffsetOf(logical) * bytes, &bits, bytes);
}

bool HostTensor::GuardsIntact() const {
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (storage_[i] != kGuardPattern || storage_[storage_.size() - 1 - i] != kGuardPattern) {
      return false;
    }
  }
  return true;
}

uint32_t ElementBytes(uint32_t data_type) {
  const size_t size = opcts::plugin::DTypeSize(data_type);
  if (size == 0) throw std::invalid_argument("unknown dtype");
  return static_cast<uint32_t>(size);
}

bool IsFloat(uint32_t t) {
  return t == OPCTS_DTYPE_FLOAT64 || t == OPCTS_DTYPE_FLOAT32 || t == OPCTS_DTYPE_FLOAT16 ||
         t == OPCTS_DTYPE_BFLOAT16;
}

bool IsSigned(uint32_t t) {
  return t == OPCTS_DTYPE_INT64 || t == OPCTS_DTYPE_INT32 || t == OPCTS_DTYPE_INT16 ||
         t == OPCTS_DTYPE_INT8;
}

double DecodeFloat(uint32_t data_type, uint64_t bits) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    case OPCTS_DTYPE_FLOAT32: {
      float f;
      uint32_t b = static_cast<uint32_t>(bits);
      std::memcpy(&f, &b, 4);
      return f;
    }
    case OPCTS_DTYPE_FLOAT16:
      return HalfBitsToFloat(static_cast<uint16_t>(bits));
    case OPCTS_DTYPE_BFLOAT16:
      return BFloat16BitsToFloat(static_cast<uint16_t>(bits));
  }
  throw std::invalid_argument("not a float dtype");
}

uint64_t EncodeFloat(uint32_t data_type, double value) {
  switch (data_type) {
    case OPCTS_DTYPE_FLOAT64: {
      uint64_t bits;
      std::memcpy(&bits, &value, 8);
      return bits;
    }
    case OPCTS_DTYPE_FLOAT32: {
      float f = static_cast<float>(value);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      return bits;
    }
    case OPCTS_DTYPE_FLOAT16:
      return DoubleToHalfBits(value);
    case OPCTS_DTYPE_BFLOAT16:
      return DoubleToBFloat16Bits(value);
  }
  throw std::invalid_argument("not a float dtype");
}

long ResidentKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

}  // namespace opcts::vulkan_test
