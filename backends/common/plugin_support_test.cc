#include "common/plugin_support.h"

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "common/family_views.h"
#include "common/operator_table.h"
#include "spec/dtype.h"

namespace opcts::plugin {
namespace {

// A tensor desc that owns its sizes and strides. Packed with the implied minimum size unless a
// test changes it.
struct Tensor {
  Tensor(uint32_t dtype, std::vector<uint32_t> s, std::vector<uint32_t> st = {})
      : sizes(std::move(s)), strides(std::move(st)) {
    desc.data_type = dtype;
    uint64_t last = 0, packed = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
      last += uint64_t{sizes[d] - 1} * (strides.empty() ? packed : strides[d]);
      packed *= sizes[d];
    }
    desc.total_tensor_size_in_bytes = ((last + 1) * DTypeSize(dtype) + 3) / 4 * 4;
    Sync();
  }
  // Copies re-point the desc at their own vectors.
  Tensor(const Tensor& other) : sizes(other.sizes), strides(other.strides), desc(other.desc) {
    Sync();
  }
  Tensor& operator=(const Tensor& other) {
    sizes = other.sizes;
    strides = other.strides;
    desc = other.desc;
    Sync();
    return *this;
  }
  void Sync() {
    desc.dimension_count = static_cast<uint32_t>(sizes.size());
    desc.sizes = sizes.empty() ? nullptr : sizes.data();
    desc.strides = strides.empty() ? nullptr : strides.data();
  }
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;
  opcts_tensor_desc desc{};
};

std::optional<std::string> Check(uint32_t type, const void* desc) {
  const Result<void> checked = CheckDescriptor({type, desc});
  if (checked.ok()) return std::nullopt;
  EXPECT_EQ(checked.error().code, ErrorCode::kInvalidInput);
  EXPECT_FALSE(checked.error().message.empty());
  return checked.error().message;
}

// Expects rejection with a message containing `fragment`.
#define EXPECT_REJECTED(result, fragment)                                 \
  do {                                                                    \
    const std::optional<std::string> r = (result);                        \
    ASSERT_TRUE(r.has_value()) << "accepted, expected: " << (fragment);   \
    EXPECT_NE(r->find(fragment), std::string::npos) << "message: " << *r; \
  } while (0)

// ---- cumulative ----------------------------------------------------------------------------

struct Cumulative {
  Tensor in{OPCTS_DTYPE_FLOAT32, {1, 1, 3, 4}};
  Tensor out{OPCTS_DTYPE_FLOAT32, {1, 1, 3, 4}};
  opcts_dml_cumulative_desc desc{&in.desc, &out.desc, 3, 0, 0};
  std::optional<std::string> Check() {
    desc.input = &in.desc;
    desc.output = &out.desc;
    return plugin::Check(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &desc);
  }
};

TEST(CheckDescriptor, AcceptsValidCumulative) {
  Cumulative c;
  EXPECT_EQ(c.Check(), std::nullopt);
  c.desc.axis = 0;
  c.desc.axis_direction = 1;
  c.desc.has_exclusive = 1;
  EXPECT_EQ(c.Check(), std::nullopt);
  EXPECT_EQ(plugin::Check(OPCTS_OP_DML_CUMULATIVE_PRODUCT, &c.desc), std::nullopt);
}

TEST(CheckDescriptor, AcceptsStridedBroadcastAndPaddedTensors) {
  Cumulative c;
  c.in = Tensor(OPCTS_DTYPE_FLOAT32, {1, 1, 3, 4}, {0, 0, 0, 1});     // broadcast rows
  c.out = Tensor(OPCTS_DTYPE_FLOAT32, {1, 1, 3, 4}, {24, 24, 8, 1});  // padded rows
  EXPECT_EQ(c.Check(), std::nullopt);
  EXPECT_EQ(c.out.desc.total_tensor_size_in_bytes, 80u);  // (2*8 + 3 + 1) * 4
}

TEST(CheckDescriptor, RejectsEachCumulativeRule) {
  {
    Cumulative c;
    c.out.desc.data_type = OPCTS_DTYPE_FLOAT16;
    EXPECT_REJECTED(c.Check(), "OutputTensor.DataType 2 differs from InputTensor.DataType 1");
  }
  {
    Cumulative c;
    c.out = Tensor(OPCTS_DTYPE_FLOAT32, {1, 3, 4});
    EXPECT_REJECTED(c.Check(), "OutputTensor.DimensionCount 3 differs");
  }
  {
    Cumulative c;
    c.out = Tensor(OPCTS_DTYPE_FLOAT32, {1, 1, 5, 4});
    EXPECT_REJECTED(c.Check(), "OutputTensor.Sizes[2] is 5 but InputTensor.Sizes[2] is 3");
  }
  {
    Cumulative c;
    c.desc.axis = 4;
    EXPECT_REJECTED(c.Check(), "Axis 4 is not less than InputTensor.DimensionCount 4");
  }
  {
    Cumulative c;
    c.desc.axis_direction = 2;
    EXPECT_REJECTED(c.Check(), "AxisDirection is 2, not one of INCREASING (0), DECREASING (1)");
  }
  {
    Cumulative c;
    c.desc.has_exclusive = 7;
    EXPECT_REJECTED(c.Check(), "HasExclusiveSum is 7, not one of 0, 1");
  }
}

// ---- tensor desc rules (exercised through the cumulative input) ------------------------------

TEST(CheckDescriptor, RejectsEachTensorRule) {
  {
    Cumulative c;
    c.in.desc.data_type = 13;
    EXPECT_REJECTED(c.Check(), "InputTensor.DataType 13 is not a known data type");
  }
  {
    Cumulative c;
    c.in = Tensor(OPCTS_DTYPE_FLOAT32, {});
    c.out = Tensor(OPCTS_DTYPE_FLOAT32, {});
    EXPECT_REJECTED(c.Check(), "InputTensor.DimensionCount is 0");
  }
  {
    Cumulative c;
    c.in = Tensor(OPCTS_DTYPE_FLOAT32, {1, 1, 1, 1, 1, 1, 1, 1, 2});
    EXPECT_REJECTED(c.Check(), "InputTensor.DimensionCount 9 exceeds 8");
  }
  {
    Cumulative c;
    c.out.sizes[1] = 0;
    EXPECT_REJECTED(c.Check(), "OutputTensor.Sizes[1] is 0");
  }
  {
    Cumulative c;
    c.in.desc.total_tensor_size_in_bytes = 44;
    EXPECT_REJECTED(c.Check(),
                    "InputTensor.TotalTensorSizeInBytes 44 is below the implied minimum 48");
  }
  {
    Cumulative c;  // 3 float16 elements = 6 bytes, rounded up to 8
    c.in = Tensor(OPCTS_DTYPE_FLOAT16, {3});
    c.out = Tensor(OPCTS_DTYPE_FLOAT16, {3});
    c.desc.axis = 0;
    c.in.desc.total_tensor_size_in_bytes = 6;
    EXPECT_REJECTED(c.Check(), "implied minimum 8");
  }
  {
    Cumulative c;
    c.in.desc.guaranteed_base_offset_alignment = 12;
    EXPECT_REJECTED(c.Check(), "InputTensor.GuaranteedBaseOffsetAlignment 12");
  }
  {
    Cumulative c;
    c.in.desc.guaranteed_base_offset_alignment = 2;  // below the 4-byte element
    EXPECT_REJECTED(c.Check(), "InputTensor.GuaranteedBaseOffsetAlignment 2");
  }
  {
    Cumulative c;
    c.in = Tensor(OPCTS_DTYPE_UINT8, {65536, 65536}, {0, 0});
    c.out = c.in;
    c.desc.axis = 0;
    EXPECT_REJECTED(c.Check(), "InputTensor has more than 2^32-1 elements");
  }
  {
    Cumulative c;
    c.in = Tensor(OPCTS_DTYPE_UINT8, {2, 2}, {0xFFFFFFFFu, 1});
    c.out = Tensor(OPCTS_DTYPE_UINT8, {2, 2});
    c.desc.axis = 0;
    EXPECT_REJECTED(c.Check(), "InputTensor.Strides address more than 2^32-1 elements");
  }
}

TEST(CheckDescriptor, RejectsNullPointersWithoutCrashing) {
  EXPECT_REJECTED(plugin::Check(OPCTS_OP_DML_CUMULATIVE_SUMMATION, nullptr),
                  "opcts_op_desc.desc is null");
  {
    Cumulative c;
    c.desc.input = nullptr;
    EXPECT_REJECTED(plugin::Check(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &c.desc),
                    "InputTensor is null");
  }
  {
    Cumulative c;
    c.out.desc.sizes = nullptr;
    c.desc.output = &c.out.desc;
    EXPECT_REJECTED(plugin::Check(OPCTS_OP_DML_CUMULATIVE_SUMMATION, &c.desc),
                    "OutputTensor.Sizes is null");
  }
  Cumulative c;
  const Result<void> unknown = CheckDescriptor({99, &c.desc});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, ErrorCode::kNotSupported);
  EXPECT_EQ(unknown.error().message, "operator type 99 is not one this backend knows");
}

// ---- scatter-nd ----------------------------------------------------------------------------

// Defaults: the document's example, input [3,4,5,6,7], indices [1,1,1,2,3], updates [1,1,2,6,7].
struct Scatter {
  Tensor in{OPCTS_DTYPE_FLOAT32, {3, 4, 5, 6, 7}};
  Tensor idx{OPCTS_DTYPE_INT64, {1, 1, 1, 2, 3}};
  Tensor upd{OPCTS_DTYPE_FLOAT32, {1, 1, 2, 6, 7}};
  Tensor out{OPCTS_DTYPE_FLOAT32, {3, 4, 5, 6, 7}};
  opcts_dml_scatter_nd_desc desc{nullptr, nullptr, nullptr, nullptr, 5, 3};
  std::optional<std::string> Check() {
    desc.input = &in.desc;
    desc.indices = &idx.desc;
    desc.updates = &upd.desc;
    desc.output = &out.desc;
    return plugin::Check(OPCTS_OP_DML_SCATTER_ND, &desc);
  }
};

TEST(CheckDescriptor, AcceptsValidScatterND) {
  Scatter s;
  EXPECT_EQ(s.Check(), std::nullopt);
  // Leading ones, partial tuples: input {1,4,6} meaningful, 5 tuples of size 1 -> {5,4,6}.
  s.in = Tensor(OPCTS_DTYPE_INT8, {1, 1, 4, 6});
  s.out = s.in;
  s.idx = Tensor(OPCTS_DTYPE_UINT32, {1, 1, 5, 1});
  s.upd = Tensor(OPCTS_DTYPE_INT8, {1, 5, 4, 6});
  s.desc.input_dimension_count = 3;
  s.desc.indices_dimension_count = 2;
  EXPECT_EQ(s.Check(), std::nullopt);
  // Full tuples: one element per tuple.
  s.idx = Tensor(OPCTS_DTYPE_INT32, {1, 1, 5, 3});
  s.upd = Tensor(OPCTS_DTYPE_INT8, {1, 1, 1, 5});
  EXPECT_EQ(s.Check(), std::nullopt);
}

TEST(CheckDescriptor, RejectsEachScatterNDRule) {
  {
    Scatter s;
    s.idx = Tensor(OPCTS_DTYPE_INT64, {1, 1, 2, 3});
    EXPECT_REJECTED(s.Check(), "IndicesTensor.DimensionCount 4 differs from InputTensor");
  }
  {
    Scatter s;
    s.upd = Tensor(OPCTS_DTYPE_FLOAT32, {1, 2, 6, 7});
    EXPECT_REJECTED(s.Check(), "UpdatesTensor.DimensionCount 4 differs from InputTensor");
  }
  {
    Scatter s;
    s.out = Tensor(OPCTS_DTYPE_FLOAT32, {3, 4, 5, 6, 8});
    EXPECT_REJECTED(s.Check(), "OutputTensor.Sizes[4] is 8 but InputTensor.Sizes[4] is 7");
  }
  {
    Scatter s;
    s.out.desc.data_type = OPCTS_DTYPE_INT32;
    EXPECT_REJECTED(s.Check(), "OutputTensor.DataType 6 differs from InputTensor.DataType 1");
  }
  {
    Scatter s;
    s.upd.desc.data_type = OPCTS_DTYPE_INT32;
    EXPECT_REJECTED(s.Check(), "UpdatesTensor.DataType 6 differs");
  }
  {
    Scatter s;  // the document's own example uses FLOAT32 indices
    s.idx.desc.data_type = OPCTS_DTYPE_FLOAT32;
    EXPECT_REJECTED(s.Check(), "IndicesTensor.DataType 1 is not an integer type");
  }
  {
    Scatter s;
    s.desc.input_dimension_count = 0;
    EXPECT_REJECTED(s.Check(),
                    "InputDimensionCount 0 is outside [1, InputTensor.DimensionCount 5]");
  }
  {
    Scatter s;
    s.desc.input_dimension_count = 6;
    EXPECT_REJECTED(s.Check(), "InputDimensionCount 6 is outside");
  }
  {
    Scatter s;
    s.desc.indices_dimension_count = 0;
    EXPECT_REJECTED(s.Check(), "IndicesDimensionCount 0 is outside");
  }
  {
    Scatter s;
    s.desc.indices_dimension_count = 6;
    EXPECT_REJECTED(s.Check(), "IndicesDimensionCount 6 is outside");
  }
  {
    Scatter s;
    s.desc.input_dimension_count = 4;
    EXPECT_REJECTED(s.Check(),
                    "InputTensor.Sizes[0] is 3 but must be 1 outside the last "
                    "InputDimensionCount 4 dimensions");
  }
  {
    Scatter s;
    s.idx = Tensor(OPCTS_DTYPE_INT64, {1, 2, 1, 2, 3});
    EXPECT_REJECTED(s.Check(),
                    "IndicesTensor.Sizes[1] is 2 but must be 1 outside the last "
                    "IndicesDimensionCount 3");
  }
  {
    Scatter s;
    s.idx = Tensor(OPCTS_DTYPE_INT64, {1, 1, 1, 2, 6});
    EXPECT_REJECTED(s.Check(),
                    "IndicesTensor.Sizes[4] (index tuple size) 6 exceeds the 5 meaningful "
                    "dimensions of InputTensor");
  }
  {
    Scatter s;
    s.upd = Tensor(OPCTS_DTYPE_FLOAT32, {1, 1, 2, 5, 7});
    EXPECT_REJECTED(s.Check(), "UpdatesTensor.Sizes[3] is 5 but 6 is expected");
  }
  {
    Scatter s;  // the leading padding must be 1 too
    s.upd = Tensor(OPCTS_DTYPE_FLOAT32, {2, 1, 2, 6, 7});
    EXPECT_REJECTED(s.Check(), "UpdatesTensor.Sizes[0] is 2 but 1 is expected");
  }
  {
    Scatter s;  // the printed formula's reading (input sizes from D-q) is not accepted
    s.upd = Tensor(OPCTS_DTYPE_FLOAT32, {1, 2, 5, 6, 7});
    EXPECT_REJECTED(s.Check(), "UpdatesTensor.Sizes[1] is 2 but 1 is expected");
  }
  {
    // Index dims {2, 2} plus input dims after the tuple must fit in the rank.
    Scatter s;
    s.in = Tensor(OPCTS_DTYPE_FLOAT32, {1, 4, 6});
    s.out = s.in;
    s.idx = Tensor(OPCTS_DTYPE_INT64, {2, 2, 1});
    s.upd = Tensor(OPCTS_DTYPE_FLOAT32, {2, 2, 6});
    s.desc.input_dimension_count = 2;
    s.desc.indices_dimension_count = 3;
    EXPECT_EQ(s.Check(), std::nullopt);
    s.desc.input_dimension_count = 3;  // now input dims {4, 6} follow the 1-wide tuple
    EXPECT_REJECTED(s.Check(), "UpdatesTensor needs 4 dimensions");
  }
  {
    Scatter s;
    s.desc.updates = nullptr;
    s.desc.input = &s.in.desc;
    EXPECT_REJECTED(plugin::Check(OPCTS_OP_DML_SCATTER_ND, &s.desc), "is null");
  }
}

// ---- OpenVINO cumsum -----------------------------------------------------------------------

struct OvCumSum {
  Tensor data{OPCTS_DTYPE_BFLOAT16, {2, 3, 4}};
  Tensor axis{OPCTS_DTYPE_INT32, {}};
  Tensor out{OPCTS_DTYPE_BFLOAT16, {2, 3, 4}};
  bool has_axis = true;
  opcts_openvino_cumsum_desc desc{nullptr, nullptr, nullptr, 0, 0};
  const opcts_openvino_cumsum_desc& Desc() {
    desc.data = &data.desc;
    desc.axis = has_axis ? &axis.desc : nullptr;
    desc.output = &out.desc;
    return desc;
  }
  std::optional<std::string> Check() { return plugin::Check(OPCTS_OP_OPENVINO_CUMSUM_3, &Desc()); }
};

TEST(CheckDescriptor, AcceptsValidOpenVINOCumSum) {
  OvCumSum o;
  EXPECT_EQ(o.Check(), std::nullopt);
  o.axis = Tensor(OPCTS_DTYPE_INT64, {});
  o.desc.exclusive = 1;
  o.desc.reverse = 1;
  EXPECT_EQ(o.Check(), std::nullopt);
  o.has_axis = false;
  EXPECT_EQ(o.Check(), std::nullopt);
}

TEST(CheckDescriptor, RejectsEachOpenVINOCumSumRule) {
  {
    OvCumSum o;
    o.data = Tensor(OPCTS_DTYPE_BFLOAT16, {});
    o.out = Tensor(OPCTS_DTYPE_BFLOAT16, {});
    EXPECT_REJECTED(o.Check(), "data.DimensionCount is 0");
  }
  {
    OvCumSum o;
    o.out.desc.data_type = OPCTS_DTYPE_FLOAT16;
    EXPECT_REJECTED(o.Check(), "output.DataType 2 differs from data.DataType 12");
  }
  {
    OvCumSum o;
    o.out = Tensor(OPCTS_DTYPE_BFLOAT16, {2, 3, 5});
    EXPECT_REJECTED(o.Check(), "output.Sizes[2] is 5 but data.Sizes[2] is 4");
  }
  {
    OvCumSum o;
    o.axis = Tensor(OPCTS_DTYPE_INT32, {1});
    EXPECT_REJECTED(o.Check(), "axis.DimensionCount 1 is not 0");
  }
  {
    OvCumSum o;
    o.axis = Tensor(OPCTS_DTYPE_UINT32, {});
    EXPECT_REJECTED(o.Check(), "axis.DataType 3 is not INT32 or INT64");
  }
  {
    OvCumSum o;
    o.axis.desc.total_tensor_size_in_bytes = 2;
    EXPECT_REJECTED(o.Check(), "axis.TotalTensorSizeInBytes 2 is below the implied minimum 4");
  }
  {
    OvCumSum o;
    o.desc.exclusive = 2;
    EXPECT_REJECTED(o.Check(), "exclusive is 2");
  }
  {
    OvCumSum o;
    o.desc.reverse = 3;
    EXPECT_REJECTED(o.Check(), "reverse is 3");
  }
}

// ---- ResolveScanAxis -----------------------------------------------------------------------

// The axis of an OpenVINO CumSum whose axis input is bound to `axis_binding`.
Result<uint32_t> OpenVINOAxis(const opcts_openvino_cumsum_desc& desc,
                              const opcts_binding& axis_binding) {
  const opcts_binding bindings[3] = {{nullptr, 0}, axis_binding, {nullptr, 0}};
  const plugin::ScanView scan =
      plugin::ReadScan(*abi::FindOperator(OPCTS_OP_OPENVINO_CUMSUM_3), &desc);
  return plugin::ResolveScanAxis(scan, bindings);
}

// The message of an invalid axis; "" when the axis resolves.
std::string AxisRejection(const opcts_openvino_cumsum_desc& desc,
                          const opcts_binding& axis_binding) {
  const Result<uint32_t> axis = OpenVINOAxis(desc, axis_binding);
  if (axis.ok()) return "";
  EXPECT_EQ(axis.error().code, ErrorCode::kInvalidInput);
  return axis.error().message;
}

TEST(ResolveScanAxis, NormalizesNegativeAndRejectsOutOfRange) {
  OvCumSum o;
  int32_t v32 = -1;
  opcts_binding b{&v32, 4};
  EXPECT_EQ(*OpenVINOAxis(o.Desc(), b), 2u);
  v32 = -3;
  EXPECT_EQ(*OpenVINOAxis(o.Desc(), b), 0u);
  v32 = 3;
  EXPECT_NE(AxisRejection(o.Desc(), b).find("axis 3 is outside [-3, 3)"), std::string::npos)
      << AxisRejection(o.Desc(), b);
  v32 = -4;
  EXPECT_NE(AxisRejection(o.Desc(), b), "");

  o.axis = Tensor(OPCTS_DTYPE_INT64, {});
  int64_t v64 = 1;
  b = {&v64, 8};
  EXPECT_EQ(*OpenVINOAxis(o.Desc(), b), 1u);
  v64 = int64_t{1} << 40;  // would alias axis 0 if truncated to 32 bits
  EXPECT_NE(AxisRejection(o.Desc(), b), "");

  b = {nullptr, 8};
  EXPECT_EQ(AxisRejection(o.Desc(), b), "the axis binding holds no INT32 or INT64 scalar");

  o.has_axis = false;  // absent: axis 0, the binding ignored
  EXPECT_EQ(*OpenVINOAxis(o.Desc(), opcts_binding{nullptr, 0}), 0u);
}

// ---- CheckBindings -------------------------------------------------------------------------

// The message of rejected bindings; "" when they pass.
std::string BindingsRejection(const opcts_op_desc& op, const opcts_binding* bindings,
                              uint32_t count) {
  const Result<void> checked = CheckBindings(op, bindings, count);
  if (checked.ok()) return "";
  EXPECT_EQ(checked.error().code, ErrorCode::kInvalidInput);
  return checked.error().message;
}

TEST(CheckBindings, ChecksCountDataAndSize) {
  Cumulative c;
  c.Check();
  const opcts_op_desc op{OPCTS_OP_DML_CUMULATIVE_SUMMATION, &c.desc};
  std::vector<float> in(12), out(12);
  opcts_binding b[2] = {{in.data(), 48}, {out.data(), 48}};
  EXPECT_EQ(BindingsRejection(op, b, 2), "");
  EXPECT_EQ(BindingsRejection(op, b, 3), "binding_count 3 is not 2");
  EXPECT_EQ(BindingsRejection(op, nullptr, 2), "bindings is null");
  b[1].data = nullptr;
  EXPECT_EQ(BindingsRejection(op, b, 2), "bindings[1] (OutputTensor).data is null");
  b[1] = {out.data(), 44};
  EXPECT_EQ(BindingsRejection(op, b, 2),
            "bindings[1] (OutputTensor).size_in_bytes 44 differs from "
            "OutputTensor.TotalTensorSizeInBytes 48");
}

TEST(CheckBindings, IgnoresTheAbsentOpenVINOAxis) {
  OvCumSum o;
  o.has_axis = false;
  const opcts_op_desc op{OPCTS_OP_OPENVINO_CUMSUM_3, &o.Desc()};
  std::vector<uint16_t> data(24), out(24);
  const opcts_binding b[3] = {{data.data(), 48}, {nullptr, 0}, {out.data(), 48}};
  EXPECT_EQ(BindingsRejection(op, b, 3), "");
  o.has_axis = true;
  o.Desc();
  EXPECT_EQ(BindingsRejection(op, b, 3), "bindings[1] (axis).data is null");
}

TEST(CheckBindings, RejectsNullDescWithoutCrashing) {
  const opcts_op_desc op{OPCTS_OP_DML_SCATTER_ND, nullptr};
  EXPECT_EQ(BindingsRejection(op, nullptr, 0), "opcts_op_desc.desc is null");
}

// ---- answering the harness -----------------------------------------------------------------

TEST(AbiStatus, MapsEachErrorCode) {
  EXPECT_EQ(AbiStatus(NotSupported("x")), OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(AbiStatus(InvalidInput("x")), OPCTS_STATUS_INVALID);
  EXPECT_EQ(AbiStatus(Unavailable("x")), OPCTS_STATUS_ERROR);
  EXPECT_EQ(AbiStatus(IoError("x")), OPCTS_STATUS_ERROR);
  EXPECT_EQ(AbiStatus(InternalError("x")), OPCTS_STATUS_ERROR);
}

TEST(ReportResult, WritesTheMessageOfAFailureAndNothingElse) {
  char buffer[32] = "stale";
  EXPECT_EQ(ReportResult(InvalidInput("Axis 9 is not less than 4"), buffer, sizeof buffer),
            OPCTS_STATUS_INVALID);
  EXPECT_STREQ(buffer, "Axis 9 is not less than 4");
  EXPECT_EQ(ReportResult(Result<void>(), buffer, sizeof buffer), OPCTS_STATUS_OK);
  EXPECT_STREQ(buffer, "");
}

TEST(GuardedCall, TurnsAnExceptionIntoAnError) {
  char buffer[64] = "";
  EXPECT_EQ(GuardedCall("cpu-test", buffer, sizeof buffer,
                        []() -> Result<void> { throw std::runtime_error("boom"); }),
            OPCTS_STATUS_ERROR);
  EXPECT_STREQ(buffer, "cpu-test: boom");
  EXPECT_EQ(GuardedCall("cpu-test", buffer, sizeof buffer,
                        [] { return Result<void>(NotSupported("no")); }),
            OPCTS_STATUS_NOT_SUPPORTED);
  EXPECT_STREQ(buffer, "no");
}

// ---- small helpers -------------------------------------------------------------------------

TEST(WriteMessage, TruncatesAndTerminates) {
  char buffer[6];
  std::memset(buffer, 'x', sizeof buffer);
  WriteMessage("hello world", buffer, sizeof buffer);
  EXPECT_STREQ(buffer, "hello");
  WriteMessage("ok", buffer, sizeof buffer);
  EXPECT_STREQ(buffer, "ok");
  WriteMessage("ignored", nullptr, 10);  // must not crash
  WriteMessage("ignored", buffer, 0);
  EXPECT_STREQ(buffer, "ok");
}

TEST(DTypeSize, CoversEveryDType) {
  EXPECT_EQ(DTypeSize(OPCTS_DTYPE_FLOAT64), 8u);
  EXPECT_EQ(DTypeSize(OPCTS_DTYPE_UINT64), 8u);
  EXPECT_EQ(DTypeSize(OPCTS_DTYPE_INT32), 4u);
  EXPECT_EQ(DTypeSize(OPCTS_DTYPE_BFLOAT16), 2u);
  EXPECT_EQ(DTypeSize(OPCTS_DTYPE_FLOAT16), 2u);
  EXPECT_EQ(DTypeSize(OPCTS_DTYPE_INT8), 1u);
  EXPECT_EQ(DTypeSize(0), 0u);
  EXPECT_EQ(DTypeSize(13), 0u);
}

TEST(DTypeName, AgreesWithTheSpecForEveryDType) {
  for (const DType t : kAllDTypes)
    EXPECT_EQ(DTypeName(static_cast<uint32_t>(t)), opcts::DTypeName(t));
  EXPECT_EQ(DTypeName(0), "0");
  EXPECT_EQ(DTypeName(13), "13");
}

// The seeds: DirectML's float rules let float32 (only) flush subnormals; ONNX and OpenVINO keep
// IEEE 754.
TEST(OperatorTable, SaysWhichFloatTypesMayFlushSubnormals) {
  for (const abi::Operator& op : abi::Operators()) {
    const bool directml = std::string(op.scheme) == "directml";
    EXPECT_EQ(op.MayFlushSubnormals(OPCTS_DTYPE_FLOAT32), directml) << op.name;
    for (uint32_t t : {OPCTS_DTYPE_FLOAT16, OPCTS_DTYPE_BFLOAT16, OPCTS_DTYPE_FLOAT64})
      EXPECT_FALSE(op.MayFlushSubnormals(t)) << op.name << " " << t;
  }
}

TEST(MakeLayout, FillsStridesAndDetectsPacking) {
  Tensor packed(OPCTS_DTYPE_FLOAT32, {2, 3, 4});
  TensorLayout l = MakeLayout(packed.desc);
  EXPECT_EQ(l.strides, (std::vector<uint32_t>{12, 4, 1}));
  EXPECT_TRUE(l.packed);
  EXPECT_EQ(l.element_count, 24u);

  Tensor explicit_packed(OPCTS_DTYPE_FLOAT32, {2, 1, 4}, {4, 99, 1});  // size-1 stride is moot
  EXPECT_TRUE(MakeLayout(explicit_packed.desc).packed);

  Tensor padded(OPCTS_DTYPE_FLOAT32, {2, 3, 4}, {16, 5, 1});
  l = MakeLayout(padded.desc);
  EXPECT_FALSE(l.packed);
  EXPECT_EQ(l.strides, (std::vector<uint32_t>{16, 5, 1}));

  Tensor broadcast(OPCTS_DTYPE_FLOAT32, {2, 3}, {0, 1});
  EXPECT_FALSE(MakeLayout(broadcast.desc).packed);

  Tensor scalar(OPCTS_DTYPE_INT64, {});
  l = MakeLayout(scalar.desc);
  EXPECT_TRUE(l.sizes.empty());
  EXPECT_EQ(l.element_count, 1u);
}

}  // namespace
}  // namespace opcts::plugin
