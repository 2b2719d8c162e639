// Cases for the scan family (DML cumulative sum/product, OpenVINO and ONNX CumSum, any spec
// whose family is scan): per support-table entry, every axis class x direction x exclusive, each
// layout, each value class, size-1 axes; per float dtype, the IEEE edges (signed zeros,
// cancellation, zero-then-overflow and underflow-then-recover products); per dtype, long axes;
// and dtypes outside every table (clean refusal or a correct answer).
#include <algorithm>
#include <set>

#include "conformance/case_generator.h"

namespace opcts {
namespace {

struct Attributes {
  int axis = 0;  // negative only for OpenVINO
  bool reverse = false;
  bool exclusive = false;
  DType axis_dtype = DType::kInt64;
  bool axis_absent = false;  // OpenVINO: the optional input left out (axis 0)
};

// The id's values part.
std::string ValueTag(Values values, DType dtype) {
  switch (values) {
    case Values::kExtremes:
      return IsFloat(dtype) ? "specials" : "extremes";
    case Values::kNegZeroSum:
    case Values::kNegZeroProduct:
      return "neg-zero";
    case Values::kCancellation:
      return "cancellation";
    case Values::kZeroThenOverflow:
      return "zero-overflow";
    case Values::kUnderflowRecover:
      return "underflow-recover";
    default:
      return "random";
  }
}

class ScanCaseBuilder {
 public:
  ScanCaseBuilder(const OperatorSpec& spec, const GenerateOptions& options,
                  std::vector<CaseRecipe>& out)
      : spec_(spec), options_(options), out_(out), binding_(ScanBindingOf(spec)) {}

  void Add(DType dtype, const std::vector<uint32_t>& shape, const Attributes& a, Layout layout,
           Values values) {
    CaseRecipe r;
    r.spec = &spec_;
    r.group = CaseGroup::kValid;
    r.dtype = dtype;
    r.shape = shape;
    r.layout = layout;
    const unsigned rank = static_cast<unsigned>(shape.size());
    const unsigned axis =
        static_cast<unsigned>(a.axis < 0 ? a.axis + static_cast<int>(rank) : a.axis);
    const uint64_t line = shape[axis];

    uint64_t inner = 1;
    for (unsigned d = axis + 1; d < rank; ++d) inner *= shape[d];
    TensorRecipe input{LayoutDesc(dtype, shape, Layout::kPacked), values, {}, line, 0, inner};
    TensorRecipe output{LayoutDesc(dtype, shape, Layout::kPacked), Values::kNone, {}, 1, 0};
    if (layout == Layout::kPadded) {
      input.desc = LayoutDesc(dtype, shape, Layout::kPadded);
      output.desc = LayoutDesc(dtype, shape, Layout::kPadded);
      output.desc.strides[0] += 1;  // a different padding than the input's
      output.desc.total_bytes = ImpliedMinimumBytes(output.desc) + 8;
    } else if (layout == Layout::kTransposed) {
      input.desc = LayoutDesc(dtype, shape, Layout::kTransposed);
    } else if (layout == Layout::kBroadcast || layout == Layout::kBroadcastAxis) {
      unsigned dim = axis;
      if (layout == Layout::kBroadcast)
        for (unsigned d = 0; d < rank; ++d)
          if (d != axis && shape[d] > 1) dim = d;
      input.desc = LayoutDesc(dtype, shape, Layout::kBroadcast, dim);
    } else if (layout == Layout::kInPlace) {
      r.in_place = true;
    }
    r.tensors[binding_.input] = input;
    r.tensors[binding_.output] = output;

    std::string attrs;
    if (!binding_.axis_param.empty()) {
      r.params[binding_.axis_param] = a.axis;
      attrs = "axis" + std::to_string(a.axis);
    } else if (a.axis_absent) {
      attrs = "noaxis";
    } else {
      TensorRecipe axis_input{PackedDesc(a.axis_dtype, {}), Values::kScalar, {}, 1, a.axis};
      r.tensors[binding_.axis_tensor] = axis_input;
      attrs = (a.axis < 0 ? "axism" + std::to_string(-a.axis) : "axis" + std::to_string(a.axis)) +
              "-" + std::string(DTypeShortName(a.axis_dtype));
    }
    r.params[binding_.reverse_param] = a.reverse;
    r.params[binding_.exclusive_param] = a.exclusive;
    attrs += std::string(a.reverse ? "-rev" : "-fwd") + (a.exclusive ? "-excl" : "-incl");

    r.value_tag = ValueTag(values, dtype);
    const CaseId id{OperatorKey(spec_),
                    false,
                    dtype,
                    rank,
                    {FormatShape(shape), attrs, std::string(LayoutName(layout)), r.value_tag},
                    options_.seed};
    if (!seen_.insert(id.Stem()).second) return;  // e.g. axis first == axis last on rank 1
    FinishRecipe(r, id);
    out_.push_back(std::move(r));
  }

  Values Random() const { return binding_.product ? Values::kRandomProduct : Values::kRandomSum; }
  Values NegZero() const {
    return binding_.product ? Values::kNegZeroProduct : Values::kNegZeroSum;
  }
  // The float edge classes of this operator's combine, -0.0 first.
  std::vector<Values> FloatEdges() const {
    if (binding_.product) return {NegZero(), Values::kZeroThenOverflow, Values::kUnderflowRecover};
    return {NegZero(), Values::kCancellation};
  }
  bool InPlaceAllowed() const { return spec_.semantics.in_place; }
  bool HasAxisTensor() const { return !binding_.axis_tensor.empty(); }
  bool AxisMayBeAbsent() const {
    return HasAxisTensor() && spec_.FindTensor(binding_.axis_tensor)->optional;
  }
  // The axis input's dtypes, for variant v; INT64 when the axis is a parameter (unused).
  DType AxisDType(int variant) const {
    if (!HasAxisTensor()) return DType::kInt64;
    const auto& dtypes = TopSupport(spec_).tensors.at(binding_.axis_tensor).dtypes;
    return dtypes[static_cast<size_t>(variant) % dtypes.size()];
  }

 private:
  const OperatorSpec& spec_;
  const GenerateOptions& options_;
  std::vector<CaseRecipe>& out_;
  const ScanBinding binding_;
  std::set<std::string> seen_;
};

// 3 (or `axis_len`) along the axis; 2, 3, 1, ... elsewhere: every dimension is exercised and
// rank 8 stays a few hundred elements.
std::vector<uint32_t> Shape(unsigned rank, unsigned axis, uint32_t axis_len) {
  static constexpr uint32_t kOther[] = {2, 3, 1};
  std::vector<uint32_t> shape(rank);
  for (unsigned d = 0, k = 0; d < rank; ++d) shape[d] = d == axis ? axis_len : kOther[k++ % 3];
  return shape;
}

}  // namespace

ScanBinding ScanBindingOf(const OperatorSpec& spec) {
  const std::string axis = spec.Role("axis");
  const bool axis_is_param = spec.FindParam(axis) != nullptr;
  return {spec.Role("input"),
          spec.Role("output"),
          axis_is_param ? axis : "",
          axis_is_param ? "" : axis,
          spec.Role("reverse"),
          spec.Role("exclusive"),
          spec.accuracy.model == AccuracyModel::kRunningProduct};
}

void GenerateScanCases(const OperatorSpec& spec, const GenerateOptions& options,
                       std::vector<CaseRecipe>& out) {
  ScanCaseBuilder b(spec, options, out);
  const SupportLevel& top = TopSupport(spec);
  const TensorSupport& data = top.tensors.at(spec.Role("input"));
  auto attrs = [&](int axis, bool reverse, bool exclusive, int variant) {
    Attributes a{axis, reverse, exclusive};
    a.axis_dtype = b.AxisDType(variant);
    return a;
  };

  for (DType dtype : data.dtypes) {
    for (unsigned rank = data.min_rank; rank <= data.max_rank; ++rank) {
      const std::vector<unsigned> axes = {0, rank / 2, rank - 1};
      int variant = 0;
      // Every axis class x direction x exclusive.
      for (unsigned axis : axes)
        for (bool reverse : {false, true})
          for (bool exclusive : {false, true}) {
            const int signed_axis = b.HasAxisTensor() && (variant % 3 == 1)
                                        ? static_cast<int>(axis) - static_cast<int>(rank)
                                        : static_cast<int>(axis);
            b.Add(dtype, Shape(rank, axis, 5), attrs(signed_axis, reverse, exclusive, variant++),
                  Layout::kPacked, b.Random());
          }
      // One shape (no size-1 dimension) scanned along each axis class: a backend that caches
      // plans or kernels per shape must key them on the axis too.
      if (rank >= 2) {
        std::vector<uint32_t> same = Shape(rank, rank - 1, 4);
        std::replace(same.begin(), same.end(), 1u, 2u);
        for (unsigned axis : axes)
          b.Add(dtype, same, attrs(static_cast<int>(axis), false, false, variant++),
                Layout::kPacked, b.Random());
      }
      // Layouts, each with a forward inclusive and a reverse exclusive scan.
      for (Layout layout : {Layout::kPadded, Layout::kTransposed, Layout::kBroadcast,
                            Layout::kBroadcastAxis, Layout::kInPlace})
        for (bool second : {false, true}) {
          if (layout == Layout::kInPlace && !spec.semantics.in_place) continue;
          const unsigned axis = second ? 0 : rank - 1;
          b.Add(dtype, Shape(rank, axis, 4),
                attrs(static_cast<int>(axis), second, second, variant++), layout, b.Random());
        }
      // Special values along the last and the first axis.
      for (unsigned axis : {rank - 1, 0u})
        for (bool second : {false, true})
          b.Add(dtype, Shape(rank, axis, 6),
                attrs(static_cast<int>(axis), second, second, variant++), Layout::kPacked,
                Values::kExtremes);
      // A size-1 axis: exclusive + reverse writes only the identity.
      for (bool exclusive : {true, false})
        b.Add(dtype, Shape(rank, rank - 1, 1),
              attrs(static_cast<int>(rank - 1), true, exclusive, variant++), Layout::kPacked,
              b.Random());
      if (b.AxisMayBeAbsent()) {
        Attributes absent;
        absent.axis_absent = true;
        b.Add(dtype, Shape(rank, 0, 3), absent, Layout::kPacked, b.Random());
      }
    }
    // Float edges on one rank (4 where the tables allow it, so that the lowest DirectML level
    // has them too): each class in all four modes along the last axis and in two along the
    // first (the row recurrence); -0.0 also in place, padded and transposed.
    if (IsFloat(dtype)) {
      const unsigned rank = std::clamp(4u, data.min_rank, data.max_rank);
      const int last = static_cast<int>(rank - 1);
      int variant = 0;
      for (Values values : b.FloatEdges()) {
        for (bool reverse : {false, true})
          for (bool exclusive : {false, true})
            b.Add(dtype, Shape(rank, rank - 1, 7), attrs(last, reverse, exclusive, variant++),
                  Layout::kPacked, values);
        for (bool second : {false, true})
          b.Add(dtype, Shape(rank, 0, 7), attrs(0, second, second, variant++), Layout::kPacked,
                values);
        if (values != b.NegZero()) continue;
        if (b.InPlaceAllowed())
          for (bool second : {false, true})
            b.Add(dtype, Shape(rank, rank - 1, 7), attrs(last, second, !second, variant++),
                  Layout::kInPlace, values);
        b.Add(dtype, Shape(rank, rank - 1, 7), attrs(last, true, true, variant++), Layout::kPadded,
              values);
        b.Add(dtype, Shape(rank, 0, 7), attrs(0, false, true, variant++), Layout::kTransposed,
              values);
      }
    }
    if (options.long_axes) {
      // Long innermost axes cross blocks and workgroups (> 4096, > 65 536); a long outer axis too.
      const unsigned r1 = std::max(1u, data.min_rank), r2 = std::max(2u, data.min_rank);
      if (r2 <= data.max_rank) {
        std::vector<uint32_t> inner(r1, 1), huge(r1, 1), outer(r2, 1);
        inner.back() = 5000;
        huge.back() = 70000;
        outer[r2 - 2] = 4500;
        outer.back() = 3;
        b.Add(dtype, inner, attrs(static_cast<int>(r1 - 1), false, false, 0), Layout::kPacked,
              b.Random());
        b.Add(dtype, huge, attrs(static_cast<int>(r1 - 1), true, true, 1), Layout::kPacked,
              b.Random());
        b.Add(dtype, outer, attrs(static_cast<int>(r2 - 2), false, true, 0), Layout::kPacked,
              b.Random());
        // One line of -0.0 (the first line's pattern): every carry between blocks, workgroups
        // and threads must keep the sign, and only the exclusive head is +0.0.
        if (IsFloat(dtype)) {
          b.Add(dtype, inner, attrs(static_cast<int>(r1 - 1), false, false, 0), Layout::kPacked,
                b.NegZero());
          b.Add(dtype, huge, attrs(static_cast<int>(r1 - 1), true, true, 1), Layout::kPacked,
                b.NegZero());
        }
      }
    }
  }

  // Types outside every table: a backend must refuse them cleanly or compute them correctly.
  for (DType dtype : kAllDTypes) {
    if (std::find(data.dtypes.begin(), data.dtypes.end(), dtype) != data.dtypes.end()) continue;
    const unsigned rank = std::clamp(4u, data.min_rank, data.max_rank);
    b.Add(dtype, Shape(rank, rank - 1, 5), attrs(static_cast<int>(rank - 1), false, false, 0),
          Layout::kPacked, b.Random());
    b.Add(dtype, Shape(rank, 0, 5), attrs(0, true, true, 1), Layout::kPacked, b.Random());
  }
}

}  // namespace opcts
