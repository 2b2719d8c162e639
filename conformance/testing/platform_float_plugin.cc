// A test backend that computes FLOAT32 scans the way Direct3D's floating-point rules let a
// DirectML device do (spec/dml_*.yaml `float_rules:`): subnormal inputs and results flushed to
// sign-preserved zero, and every addition and multiplication rounded toward zero (IEEE 754
// roundTowardZero, so an overflow gives the largest finite value). opcts must pass its DirectML
// results under `--float-rules platform`, recording the behaviour, and fail those that depend on
// it under `--float-rules ieee`, and on OpenVINO, whose documents grant no such rule.
//
// It implements DML_CUMULATIVE_SUMMATION, DML_CUMULATIVE_PRODUCT and OpenVINO CumSum-3 for
// FLOAT32, and claims no level (1_0, no extra support): everything else is NOT_SUPPORTED.
// --backend-options selects the behaviour, so each can be shown alone:
//   mode=flush-truncate (the default), mode=flush, mode=truncate, or mode=ieee (a control:
//   round to nearest with gradual underflow, which must pass everywhere).
#include <cfenv>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/family_views.h"
#include "common/plugin_support.h"
#include "opcts/backend.h"

namespace {

using opcts::Result;
namespace plugin = opcts::plugin;

constexpr const char* kName = "opcts-platform-float";

struct Mode {
  bool flush = true;
  bool truncate = true;
};

Result<Mode> ParseMode(const std::string& options) {
  if (options.empty() || options == "mode=flush-truncate") return Mode{true, true};
  if (options == "mode=flush") return Mode{true, false};
  if (options == "mode=truncate") return Mode{false, true};
  if (options == "mode=ieee") return Mode{false, false};
  return opcts::InvalidInput(std::string(kName) +
                             " takes mode=flush-truncate, mode=flush, mode=truncate or mode=ieee, "
                             "got \"" +
                             options + "\"");
}

// Sets the rounding direction for the life of the object (the harness's own is restored).
class RoundingScope {
 public:
  explicit RoundingScope(int direction) : saved_(std::fegetround()) { std::fesetround(direction); }
  ~RoundingScope() { std::fesetround(saved_); }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  int saved_;
};

// A running sum or product along one axis, in FLOAT32 with `mode`'s departures from IEEE 754.
class Scan {
 public:
  Scan(const plugin::ScanView& view, uint32_t axis, const opcts_binding* bindings, Mode mode)
      : view_(view),
        axis_(axis),
        in_(plugin::MakeLayout(*view.input.desc)),
        out_(plugin::MakeLayout(*view.output.desc)),
        x_(static_cast<const float*>(bindings[view.input.binding].data)),
        y_(static_cast<float*>(bindings[view.output.binding].data)),
        mode_(mode) {}

  void Run() {
    // -frounding-math (CMakeLists.txt) keeps the compiler from folding or moving the arithmetic
    // across the change of rounding direction.
    const RoundingScope rounding(mode_.truncate ? FE_TOWARDZERO : FE_TONEAREST);
    const size_t rank = in_.sizes.size();
    std::vector<uint32_t> index(rank, 0);
    const uint32_t length = in_.sizes[axis_];
    for (uint64_t line = 0; line < in_.element_count / length; ++line) {
      uint64_t x_base = 0, y_base = 0;
      for (size_t d = 0; d < rank; ++d) {
        x_base += uint64_t{index[d]} * in_.strides[d];
        y_base += uint64_t{index[d]} * out_.strides[d];
      }
      RunLine(x_base, y_base, length);
      // The next line: an odometer over every dimension but the axis.
      for (size_t d = rank; d-- > 0;) {
        if (d == axis_) continue;
        if (++index[d] < in_.sizes[d]) break;
        index[d] = 0;
      }
    }
  }

 private:
  float Flushed(float v) const {
    return mode_.flush && std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
  }

  void RunLine(uint64_t x_base, uint64_t y_base, uint32_t length) {
    float total = view_.product ? 1.0f : 0.0f;  // the identity an exclusive scan starts with
    for (uint32_t k = 0; k < length; ++k) {
      const uint64_t i = view_.reverse ? length - 1 - k : k;
      // Read before writing: in place, the output element is the input element.
      const float v = Flushed(x_[x_base + i * in_.strides[axis_]]);
      float& y = y_[y_base + i * out_.strides[axis_]];
      if (view_.exclusive) y = total;
      // The first term is the running total as it is (no arithmetic, so its sign survives).
      total = k == 0 ? v : Flushed(view_.product ? total * v : total + v);
      if (!view_.exclusive) y = total;
    }
  }

  const plugin::ScanView& view_;
  uint32_t axis_;
  plugin::TensorLayout in_, out_;
  const float* x_;
  float* y_;
  Mode mode_;
};

Result<const opcts::abi::Operator*> Implemented(const opcts_op_desc* op) {
  if (op == nullptr) return opcts::InvalidInput("op is null");
  OPCTS_TRY(plugin::CheckDescriptor(*op));
  const opcts::abi::Operator* info = opcts::abi::FindOperator(op->type);
  if (op->type != OPCTS_OP_DML_CUMULATIVE_SUMMATION &&
      op->type != OPCTS_OP_DML_CUMULATIVE_PRODUCT && op->type != OPCTS_OP_OPENVINO_CUMSUM_3)
    return opcts::NotSupported(std::string(kName) + " implements only FLOAT32 cumulative sums " +
                               "and products (DirectML) and CumSum-3 (OpenVINO)");
  if (plugin::ReadScan(*info, op->desc).input.desc->data_type != OPCTS_DTYPE_FLOAT32)
    return opcts::NotSupported(std::string(kName) + " implements only FLOAT32");
  return info;
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  return plugin::GuardedCall(kName, message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return opcts::InvalidInput("instance is null");
    OPCTS_ASSIGN_OR_RETURN(const Mode mode, ParseMode(options ? options : ""));
    *instance = new Mode(mode);
    return {};
  });
}

void Destroy(void* instance) { delete static_cast<Mode*>(instance); }

int32_t GetInfo(void* instance, opcts_backend_info* info) {
  if (info == nullptr) return OPCTS_STATUS_INVALID;
  const Mode& mode = *static_cast<const Mode*>(instance);
  *info = {.name = kName,
           .version = "1",
           .device = "scalar CPU following Direct3D's FLOAT32 rules",
           .feature_level = OPCTS_FEATURE_LEVEL(1, 0),  // no operator of the table exists there
           .extra_support = "",
           .details = mode.flush && mode.truncate ? "flushes subnormals, rounds toward zero"
                      : mode.flush                ? "flushes subnormals"
                      : mode.truncate             ? "rounds toward zero"
                                                  : "IEEE 754 (control)"};
  return OPCTS_STATUS_OK;
}

int32_t Query(void*, const opcts_op_desc* op, char* message, size_t capacity) {
  return plugin::GuardedCall(kName, message, capacity, [&]() -> Result<void> {
    OPCTS_TRY(Implemented(op));
    return {};
  });
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t count, char* message, size_t capacity) {
  return plugin::GuardedCall(kName, message, capacity, [&]() -> Result<void> {
    OPCTS_ASSIGN_OR_RETURN(const opcts::abi::Operator* info, Implemented(op));
    OPCTS_TRY(plugin::CheckBindings(*op, bindings, count));
    const plugin::ScanView view = plugin::ReadScan(*info, op->desc);
    OPCTS_ASSIGN_OR_RETURN(const uint32_t axis, plugin::ResolveScanAxis(view, bindings));
    Scan(view, axis, bindings, *static_cast<const Mode*>(instance)).Run();
    return {};
  });
}

constexpr opcts_backend_api kApi = {
    .abi_version = OPCTS_ABI_VERSION,
    .struct_size = sizeof(opcts_backend_api),
    .create = Create,
    .destroy = Destroy,
    .get_info = GetInfo,
    .query = Query,
    .execute = Execute,
};

}  // namespace

extern "C" OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void) { return &kApi; }
