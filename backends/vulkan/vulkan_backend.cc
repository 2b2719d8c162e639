#include "vulkan_backend.h"

#include <cstring>
#include <string_view>

#include "common/family_views.h"
#include "common/plugin_support.h"
#include "gpu.h"
#include "opcts/version.h"
#include "options.h"
#include "scan_op.h"
#include "scatter_op.h"
#include "support.h"

namespace opcts::vulkan {
namespace {

constexpr const char* kPreserved = "preserved";  // ProbeSubnormals' answer

std::string Flag(bool value) { return value ? "1" : "0"; }

std::string FloatControlsText(const FloatControls& fc, int index) {
  return "denormPreserve=" + Flag(fc.denorm_preserve[index]) +
         " denormFlushToZero=" + Flag(fc.denorm_flush_to_zero[index]) +
         " signedZeroInfNanPreserve=" + Flag(fc.signed_zero_inf_nan_preserve[index]);
}

std::string ModesText(const FloatControlModes& modes) {
  std::string text;
  if (modes.denorm_preserve) text += "DenormPreserve ";
  if (modes.signed_zero_inf_nan_preserve) text += "SignedZeroInfNanPreserve ";
  return text.empty() ? "none" : text.substr(0, text.size() - 1);
}

}  // namespace

Result<std::unique_ptr<Backend>> Backend::Create(const char* options_text) {
  OPCTS_ASSIGN_OR_RETURN(const Options options, ParseOptions(options_text));
  std::unique_ptr<Backend> self(new Backend());

  OPCTS_ASSIGN_OR_RETURN(self->vk_, Runtime::Create(options));

  // The probes scan DirectML's operator, whose float32 may flush: the device's own arithmetic.
  OPCTS_ASSIGN_OR_RETURN(const std::string f32, self->ProbeSubnormals(OPCTS_DTYPE_FLOAT32));
  std::string measured = "float32 " + f32;
  std::string f64 = "not used";
  if (self->vk_.device->enabled().float64) {
    OPCTS_ASSIGN_OR_RETURN(f64, self->ProbeSubnormals(OPCTS_DTYPE_FLOAT64));
    measured += ", float64 " + f64;
  }
  self->vk_.device->RecordSubnormals(f32 == kPreserved, f64 == kPreserved);
  const EnabledFeatures& enabled = self->vk_.device->enabled();
  if (!enabled.float32_subnormals) {
    const bool emulated = enabled.float64 && enabled.float64_subnormals;
    measured +=
        std::string(f32 == kPreserved ? "; option disable=float32_subnormals" : "") +
        "; float32 and bfloat16 scans and scatter reductions of operators whose spec lets no "
        "subnormal be flushed: " +
        (emulated ? "computed in float64" : "NOT_SUPPORTED (no float64 that keeps them)");
  }
  self->device_description_ =
      self->DescribeDevice() + "; subnormals in scan arithmetic (measured at create): " + measured;
  return self;
}

Backend::~Backend() {
  if (vk_.device) vkDeviceWaitIdle(vk_.device->get());
}

Result<std::string> Backend::ProbeSubnormals(uint32_t data_type) {
  // x = 2^-127 (float32) or 2^-1023 (float64), a subnormal; an inclusive sum of [x, x] is
  // [x, 2x]. Denormals-are-zero gives [0, 0]; flush-to-zero of results gives [0, 2x].
  const bool f64 = data_type == OPCTS_DTYPE_FLOAT64;
  const uint64_t x = f64 ? 0x0008000000000000ull : 0x00400000ull;
  const uint64_t twice = f64 ? 0x0010000000000000ull : 0x00800000ull;
  const uint32_t bytes = f64 ? 8 : 4;
  unsigned char input[16] = {};
  unsigned char output[16] = {};
  std::memcpy(input, &x, bytes);  // little-endian: the low bytes are the element
  std::memcpy(input + bytes, &x, bytes);
  const uint32_t sizes[1] = {2};
  opcts_tensor_desc tensor{data_type, 0, 1, sizes, nullptr, uint64_t{2} * bytes, 0};
  opcts_dml_cumulative_desc desc{&tensor, &tensor, 0, OPCTS_AXIS_DIRECTION_INCREASING, 0};
  opcts_op_desc op{OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc};
  const opcts_binding bindings[2] = {{input, uint64_t{2} * bytes}, {output, uint64_t{2} * bytes}};
  OPCTS_TRY(Execute(op, bindings, 2));
  uint64_t first = 0;
  uint64_t second = 0;
  std::memcpy(&first, output, bytes);
  std::memcpy(&second, output + bytes, bytes);
  if (first == x && second == twice) return std::string(kPreserved);
  if (first == 0 && second == 0) return std::string("flushed to zero (inputs and results)");
  if (first == 0) return std::string("flushed to zero (results)");
  return std::string("changed unexpectedly");
}

std::string Backend::DescribeDevice() const {
  const DeviceCaps& caps = vk_.device->caps();
  const EnabledFeatures& enabled = vk_.device->enabled();
  const FloatControls& fc = caps.float_controls;
  std::string text = "driver: " + caps.driver + "; Vulkan " +
                     ApiVersionString(caps.device_api_version) + " (used as " +
                     ApiVersionString(caps.api_version) + ")";
  text += "; subgroup size " + std::to_string(caps.subgroup_size) +
          " (arithmetic in compute: " + Flag(caps.subgroup_arithmetic) +
          ", used: " + Flag(enabled.subgroups) +
          ", full subgroups required: " + Flag(enabled.full_subgroups) + ")";
  text += "; workgroup size " + std::to_string(vk_.device->workgroup_size());
  text += "; features: shaderFloat16=" + Flag(caps.shader_float16) +
          " storageBuffer16BitAccess=" + Flag(caps.storage_buffer_16bit_access) +
          " shaderInt8=" + Flag(caps.shader_int8) +
          " storageBuffer8BitAccess=" + Flag(caps.storage_buffer_8bit_access) +
          " shaderInt16=" + Flag(caps.shader_int16) + " shaderInt64=" + Flag(caps.shader_int64) +
          " shaderFloat64=" + Flag(caps.shader_float64) +
          " shaderSubgroupExtendedTypes=" + Flag(caps.subgroup_extended_types) +
          " computeFullSubgroups=" + Flag(caps.compute_full_subgroups);
  text += "; used: int64 scans=" + Flag(enabled.int64) + " float64 scans=" + Flag(enabled.float64);
  text +=
      "; 8/16-bit integers, float16 and bfloat16 live in 32-bit words in the shaders "
      "(no 8/16-bit feature needed; float16/bfloat16 accumulate in float32)";
  if (fc.known) {
    text += "; float controls: float32 " + FloatControlsText(fc, 0) + ", float64 " +
            FloatControlsText(fc, 1) + "; modes requested: float32 " +
            ModesText(vk_.kernels->FloatModes(32)) + ", float64 " +
            ModesText(vk_.kernels->FloatModes(64));
  } else {
    text += "; float controls: unknown (needs Vulkan 1.2)";
  }
  text += "; maxStorageBufferRange=" + std::to_string(caps.max_storage_buffer_range) +
          " maxMemoryAllocationSize=" + std::to_string(caps.max_memory_allocation_size);
  return text;
}

const char* Backend::Details() {
  const bool validation = vk_.instance->validation();
  const uint64_t count = validation ? vk_.instance->validation_log().count() : 0;
  if (details_.empty() || count != details_validation_count_) {
    details_.push_back(
        device_description_ +
        (validation ? "; validation: on, messages=" + std::to_string(count) : "; validation: off"));
    details_validation_count_ = count;
  }
  return details_.back().c_str();
}

void Backend::GetInfo(opcts_backend_info* info) {
  std::lock_guard lock(mutex_);
  info->name = "vulkan";
  info->version = OPCTS_VERSION_STRING;
  info->device = vk_.device->caps().name.c_str();
  if (!claims_) claims_ = Claim(vk_.device->enabled());
  info->feature_level = claims_->feature_level;
  info->extra_support = claims_->extra_support.c_str();
  info->details = Details();
}

Result<void> Backend::Query(const opcts_op_desc& op) {
  std::lock_guard lock(mutex_);
  return CheckSupport(op);
}

Result<void> Backend::CheckSupport(const opcts_op_desc& op) {
  OPCTS_TRY(plugin::CheckDescriptor(op));
  // CheckDescriptor refuses operators and families it does not know: a scan or a scatter.
  const abi::Operator& info = *abi::FindOperator(op.type);
  if (std::string_view(info.family) == "scatter_nd")
    return CheckScatterSupport(*vk_.device, info, plugin::ReadScatter(info, op.desc));
  const plugin::ScanView scan = plugin::ReadScan(info, op.desc);
  return CheckScanSupport(*vk_.device, info, *scan.input.desc, *scan.output.desc);
}

Result<void> Backend::Execute(const opcts_op_desc& op, const opcts_binding* bindings,
                              uint32_t binding_count) {
  std::lock_guard lock(mutex_);
  if (lost_) {
    return InternalError(
        "the Vulkan device was lost (or hung) in an earlier execute; "
        "create a new backend instance");
  }
  OPCTS_TRY(CheckSupport(op));
  OPCTS_TRY(plugin::CheckBindings(op, bindings, binding_count));
  const uint64_t validation_before = vk_.instance->validation_log().count();
  Result<void> ran = Run(op, bindings);
  // native_code is the failing call's VkResult (vk_error.h); a timed-out fence wait counts as
  // a loss too (CommandStream::SubmitAndWait).
  if (!ran.ok() &&
      (ran.error().native_code == VK_ERROR_DEVICE_LOST || ran.error().native_code == VK_TIMEOUT))
    lost_ = true;
  const uint64_t validation_after = vk_.instance->validation_log().count();
  if (ran.ok() && validation_after != validation_before) {
    return InternalError("Vulkan validation layer reported " +
                         std::to_string(validation_after - validation_before) +
                         " message(s) during this execute; first: " +
                         vk_.instance->validation_log().Message(validation_before));
  }
  return ran;
}

Result<void> Backend::Run(const opcts_op_desc& op, const opcts_binding* bindings) {
  Gpu gpu = vk_.gpu();
  const abi::Operator& info = *abi::FindOperator(op.type);
  if (std::string_view(info.family) == "scatter_nd")
    return RunScatter(gpu, info, plugin::ReadScatter(info, op.desc), bindings);
  const plugin::ScanView scan = plugin::ReadScan(info, op.desc);
  OPCTS_ASSIGN_OR_RETURN(const uint32_t axis, plugin::ResolveScanAxis(scan, bindings));
  ScanProblem problem{&info, scan.input.desc,   scan.output.desc,   scan.product,
                      axis,  scan.reverse != 0, scan.exclusive != 0};
  return RunScan(gpu, problem, bindings[scan.input.binding], bindings[scan.output.binding]);
}

}  // namespace opcts::vulkan
