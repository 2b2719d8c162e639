#include "conformance/property_case.h"

#include <charconv>

#include "conformance/case_generator.h"
#include "conformance/constraints.h"
#include "conformance/layout.h"
#include "spec/family_hooks.h"

namespace opcts {
namespace {

std::string AttributeTag(const ScanChoices& c) {
  std::string tag;
  if (!ScanBindingOf(*c.spec).axis_param.empty())
    tag = "axis" + std::to_string(c.axis);
  else if (c.axis_absent)
    tag = "noaxis";
  else
    tag = (c.axis < 0 ? "axism" + std::to_string(-c.axis) : "axis" + std::to_string(c.axis)) + "-" +
          std::string(DTypeShortName(c.axis_dtype));
  return tag + (c.reverse ? "-rev" : "-fwd") + (c.exclusive ? "-excl" : "-incl");
}

// The id's layout part: "broadcast2", "padded+out-transposed".
std::string LayoutTag(const ScanChoices& c) {
  std::string tag(LayoutName(c.input_layout));
  if (c.input_layout == Layout::kBroadcast) tag += std::to_string(c.broadcast_dim);
  if (c.output_layout != Layout::kPacked && c.output_layout != Layout::kInPlace)
    tag += "+out-" + std::string(LayoutName(c.output_layout));
  return tag;
}

std::string ValueTag(const ScanChoices& c) {
  switch (c.values) {
    case Values::kExtremes:
      return IsFloat(c.dtype) ? "specials" : "extremes";
    case Values::kOnes:
      return "ones";
    default:
      return "random";
  }
}

std::string IndexTag(Values v) {
  switch (v) {
    case Values::kIndexBoundary:
      return "boundary";
    case Values::kIndexNegative:
      return "negative";
    case Values::kIndexDuplicates:
      return "duplicates";
    default:
      return "unique";
  }
}

// ---- Reading an id's parts back ----

std::vector<std::string> SplitOn(const std::string& text, const std::string& separator) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + separator.size();
  }
}

std::optional<uint32_t> Number(const std::string& text) {
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::vector<uint32_t>> Shape(const std::string& text) {
  if (text == "scalar") return std::vector<uint32_t>{};
  std::vector<uint32_t> sizes;
  for (const std::string& part : SplitOn(text, "x")) {
    const std::optional<uint32_t> size = Number(part);
    if (!size) return std::nullopt;
    sizes.push_back(*size);
  }
  return sizes;
}

std::optional<DType> ShortDType(const std::string& text) {
  for (DType t : kAllDTypes)
    if (DTypeShortName(t) == text) return t;
  return std::nullopt;
}

// "packed", "broadcast2" (the stride-0 dimension after the name).
std::optional<std::pair<Layout, unsigned>> LayoutPart(const std::string& text) {
  if (const auto layout = LayoutNamed(text)) return std::pair{*layout, 0u};
  const std::string_view broadcast = LayoutName(Layout::kBroadcast);
  if (text.rfind(broadcast, 0) != 0) return std::nullopt;
  const std::optional<uint32_t> dim = Number(text.substr(broadcast.size()));
  if (!dim) return std::nullopt;
  return std::pair{Layout::kBroadcast, *dim};
}

struct IdReader {
  const CaseId& id;
  Error Bad(const std::string& part, const std::string& what) const {
    return InvalidInput("case id '" + id.ToString() + "': '" + part + "' is not " + what);
  }
};

// Rebuilt from its choices, the recipe must carry exactly the id it was read from.
Result<CaseRecipe> Checked(CaseRecipe recipe, const CaseId& id) {
  if (recipe.id != id.ToString())
    return InvalidInput("case id '" + id.ToString() +
                        "': no property test draws it (the nearest reads " + recipe.id + ")");
  return recipe;
}

// <shape>.<attributes>.<layout>.<values>
Result<CaseRecipe> ScanFromId(const OperatorSpec& spec, const CaseId& id) {
  const IdReader read{id};
  if (id.variant.size() != 4) return read.Bad(id.ToString(), "shape.attributes.layout.values");
  const ScanBinding binding = ScanBindingOf(spec);
  ScanChoices c;
  c.spec = &spec;
  c.dtype = id.dtype;
  c.seed = id.seed;
  const std::optional<std::vector<uint32_t>> shape = Shape(id.variant[0]);
  if (!shape) return read.Bad(id.variant[0], "a shape");
  c.shape = *shape;

  std::vector<std::string> attrs = SplitOn(id.variant[1], "-");
  const auto bad_attrs = read.Bad(id.variant[1], "axis<N>[-<dtype>]-fwd|rev-incl|excl");
  if (attrs.size() < 3) return bad_attrs;
  c.reverse = attrs[attrs.size() - 2] == "rev";
  c.exclusive = attrs.back() == "excl";
  if (attrs[0] == "noaxis") {
    c.axis_absent = true;
  } else {
    const bool negative = attrs[0].rfind("axism", 0) == 0;
    const std::optional<uint32_t> axis = Number(attrs[0].substr(negative ? 5 : 4));
    if (!axis || attrs[0].rfind("axis", 0) != 0) return bad_attrs;
    c.axis = negative ? -static_cast<int>(*axis) : static_cast<int>(*axis);
    if (binding.axis_param.empty()) {
      const std::optional<DType> axis_dtype =
          attrs.size() == 4 ? ShortDType(attrs[1]) : std::nullopt;
      if (!axis_dtype) return bad_attrs;
      c.axis_dtype = *axis_dtype;
    }
  }

  const std::vector<std::string> layouts = SplitOn(id.variant[2], "+out-");
  const auto input = LayoutPart(layouts[0]);
  const auto output =
      layouts.size() == 2 ? LayoutNamed(layouts[1]) : std::optional<Layout>(Layout::kPacked);
  if (!input || !output || layouts.size() > 2) return read.Bad(id.variant[2], "a layout");
  c.input_layout = input->first;
  c.broadcast_dim = input->second;
  c.output_layout = c.input_layout == Layout::kInPlace ? Layout::kInPlace : *output;

  const std::string& values = id.variant[3];
  if (values == "random")
    c.values = binding.product ? Values::kRandomProduct : Values::kRandomSum;
  else if (values == "specials" || values == "extremes")
    c.values = Values::kExtremes;
  else if (values == "ones")
    c.values = Values::kOnes;
  else
    return read.Bad(values, "random, specials, extremes or ones");
  if (c.shape.empty() || ScanDimensionOf(c.axis, c.axis_absent,
                                         static_cast<unsigned>(c.shape.size())) >= c.shape.size())
    return read.Bad(id.variant[1], "an axis of shape " + id.variant[0]);
  return Checked(BuildScanRecipe(c), id);
}

// DirectML: <input>.in<A>-idx<B>-<indices>-<index dtype>.<layout>.<values>[.<reduction>]
// ONNX:     <input>-idx<indices>-<index dtype>.<layout>.<values>[.<reduction>[.specials]]
Result<CaseRecipe> ScatterFromId(const OperatorSpec& spec, const CaseId& id) {
  const IdReader read{id};
  const ScatterForm f = ScatterFormOf(spec);
  const size_t shape_parts = f.HasDimensionCounts() ? 2 : 1;
  if (id.variant.size() < shape_parts + 2 || id.variant.size() > shape_parts + 4)
    return read.Bad(id.ToString(), "a scatter case id");
  std::string input_text, indices_text, index_dtype_text;
  unsigned input_dims = 0, indices_dims = 0;
  if (f.HasDimensionCounts()) {
    input_text = id.variant[0];
    const std::vector<std::string> config = SplitOn(id.variant[1], "-");
    const auto in = config.size() == 4 && config[0].rfind("in", 0) == 0
                        ? Number(config[0].substr(2))
                        : std::nullopt;
    const auto idx = config.size() == 4 && config[1].rfind("idx", 0) == 0
                         ? Number(config[1].substr(3))
                         : std::nullopt;
    if (!in || !idx) return read.Bad(id.variant[1], "in<A>-idx<B>-<indices shape>-<index dtype>");
    input_dims = *in;
    indices_dims = *idx;
    indices_text = config[2];
    index_dtype_text = config[3];
  } else {
    const std::vector<std::string> halves = SplitOn(id.variant[0], "-idx");
    const std::vector<std::string> indices =
        halves.size() == 2 ? SplitOn(halves[1], "-") : std::vector<std::string>{};
    if (indices.size() != 2)
      return read.Bad(id.variant[0], "<input>-idx<indices shape>-<index dtype>");
    input_text = halves[0];
    indices_text = indices[0];
    index_dtype_text = indices[1];
  }
  const auto input = Shape(input_text);
  const auto indices = Shape(indices_text);
  const auto index_dtype = ShortDType(index_dtype_text);
  if (!input || !indices || indices->empty() || !index_dtype)
    return read.Bad(id.variant[shape_parts - 1], "input and indices shapes and an index dtype");
  if (!f.HasDimensionCounts()) {
    input_dims = static_cast<unsigned>(input->size());
    indices_dims = static_cast<unsigned>(indices->size());
  }
  if (input_dims == 0 || input_dims > input->size() || indices_dims == 0 ||
      indices_dims > indices->size())
    return read.Bad(id.variant[shape_parts - 1], "dimension counts within the shapes");
  // The meaningful dimensions are the trailing ones; the tuples' grid is all of the indices' but
  // the last.
  const std::vector<uint32_t> data(input->end() - input_dims, input->end());
  const std::vector<uint32_t> grid(indices->end() - indices_dims, indices->end() - 1);
  const auto shapes =
      ShapeScatter(f, data, grid, indices->back(), static_cast<unsigned>(input->size()));
  if (!shapes) return read.Bad(id.variant[shape_parts - 1], "shapes a scatter case can have");

  ScatterChoices c;
  c.spec = &spec;
  c.dtype = id.dtype;
  c.index_dtype = *index_dtype;
  c.shapes = *shapes;
  c.seed = id.seed;
  const auto layout = LayoutPart(id.variant[shape_parts]);
  if (!layout) return read.Bad(id.variant[shape_parts], "a layout");
  c.layout = layout->first;
  c.broadcast_dim = layout->second;
  const std::string& values = id.variant[shape_parts + 1];
  bool known = false;
  for (Values v : {Values::kIndexUnique, Values::kIndexBoundary, Values::kIndexNegative,
                   Values::kIndexDuplicates})
    if (IndexTag(v) == values) c.index_values = v, known = true;
  if (!known) return read.Bad(values, "unique, boundary, negative or duplicates");
  // Then the reduction, if any, and "specials" (float data from the specials) after it.
  if (id.variant.size() == shape_parts + 4) {
    if (id.variant.back() != "specials") return read.Bad(id.variant.back(), "specials");
    if (!IsFloat(c.dtype)) return read.Bad(id.variant.back(), "a part of float cases only");
    c.specials = true;
  }
  if (id.variant.size() >= shape_parts + 3) {
    const std::string& reduction = id.variant[shape_parts + 2];
    const ParamSpec* param =
        f.reduction_param.empty() ? nullptr : spec.FindParam(f.reduction_param);
    known = false;
    for (size_t v = 0; param && v < param->enum_values.size(); ++v)
      if (ReductionName(spec, f, static_cast<int64_t>(v)) == reduction)
        c.reduction = static_cast<int64_t>(v), known = true;
    if (!known) return read.Bad(reduction, "a reduction of " + spec.name);
    if (c.specials && c.reduction == 0) return read.Bad(reduction, "a reduction other than none");
  }
  return Checked(BuildScatterRecipe(c), id);
}

using IdParser = Result<CaseRecipe> (*)(const OperatorSpec&, const CaseId&);
const FamilyHooks<IdParser>& IdParsers() {
  static const FamilyHooks<IdParser> hooks("property case id reader (conformance/property_case.cc)",
                                           {{"scan", ScanFromId}, {"scatter_nd", ScatterFromId}});
  return hooks;
}

}  // namespace

TensorRecipe FilledWith(const TensorDesc& desc, Values values) {
  TensorRecipe t;
  t.desc = desc;
  t.values = values;
  return t;
}

unsigned ScanDimensionOf(int axis, bool absent, unsigned rank) {
  if (absent) return 0;
  return static_cast<unsigned>(axis < 0 ? axis + static_cast<int>(rank) : axis);
}

unsigned ScanChoices::Axis() const {
  return ScanDimensionOf(axis, axis_absent, static_cast<unsigned>(shape.size()));
}

CaseRecipe BuildScanRecipe(const ScanChoices& c) {
  const OperatorSpec& spec = *c.spec;
  const ScanBinding binding = ScanBindingOf(spec);
  CaseRecipe r;
  r.spec = &spec;
  r.group = CaseGroup::kValid;
  r.dtype = c.dtype;
  r.shape = c.shape;
  r.layout = c.input_layout;
  r.value_tag = ValueTag(c);
  r.seed = c.seed;  // the data depends on the seed alone: variants of one draw share their input
  r.in_place = c.input_layout == Layout::kInPlace;

  const Layout in_layout = r.in_place ? Layout::kPacked : c.input_layout;
  TensorRecipe& input = r.tensors[binding.input];
  input = FilledWith(LayoutDesc(c.dtype, c.shape, in_layout, c.broadcast_dim), c.values);
  input.line_length = c.shape[c.Axis()];  // keeps signed random sums in range
  // The line classes (neg-zero, ...) lay each line along the axis (the shrinker keeps them).
  for (unsigned d = c.Axis() + 1; d < c.shape.size(); ++d) input.line_inner *= c.shape[d];
  r.tensors[binding.output] =
      FilledWith(LayoutDesc(c.dtype, c.shape, r.in_place ? Layout::kPacked : c.output_layout));
  if (!binding.axis_param.empty()) {
    r.params[binding.axis_param] = c.axis;
  } else if (!c.axis_absent) {
    TensorRecipe& axis = r.tensors[binding.axis_tensor];
    axis = FilledWith(PackedDesc(c.axis_dtype, {}), Values::kScalar);
    axis.scalar = c.axis;
  }
  r.params[binding.reverse_param] = c.reverse;
  r.params[binding.exclusive_param] = c.exclusive;

  r.id = CaseId{OperatorKey(spec),
                /*property=*/true,
                c.dtype,
                static_cast<unsigned>(c.shape.size()),
                {FormatShape(c.shape), AttributeTag(c), LayoutTag(c), r.value_tag},
                c.seed}
             .ToString();
  std::map<std::string, TensorDesc> descs;
  for (const auto& [name, t] : r.tensors) descs[name] = t.desc;
  r.level = LowestSupportingLevel(spec, descs, r.params).value_or("");
  return r;
}

CaseRecipe BuildScatterRecipe(const ScatterChoices& c) {
  const OperatorSpec& spec = *c.spec;
  const ScatterForm f = ScatterFormOf(spec);
  const ScatterShapes& s = c.shapes;
  const bool padded = c.layout == Layout::kPadded;

  CaseRecipe r;
  r.spec = &spec;
  r.group = CaseGroup::kValid;
  r.dtype = c.dtype;
  r.shape = s.input;
  r.layout = c.layout;
  // The id's layout part: "broadcast1" names the stride-0 dimension.
  const std::string layout_tag =
      std::string(LayoutName(c.layout)) +
      (c.layout == Layout::kBroadcast ? std::to_string(c.broadcast_dim) : "");
  r.value_tag = IndexTag(c.index_values) + (c.specials ? "-specials" : "");
  r.seed = c.seed;
  r.in_place = c.layout == Layout::kInPlace;
  r.params = s.params;
  const std::string reduction = ReductionName(spec, f, c.reduction);
  const Values values = c.specials ? Values::kExtremes : ScatterDataValues(reduction);
  if (!reduction.empty()) r.params[f.reduction_param] = c.reduction;
  const uint64_t terms = ElementCount(PackedDesc(c.index_dtype, s.indices)) / s.indices.back() + 1;
  const Layout input_layout =
      padded || c.layout == Layout::kTransposed ? c.layout : Layout::kPacked;
  r.tensors[f.input] = FilledWith(LayoutDesc(c.dtype, s.input, input_layout), values);
  r.tensors[f.input].line_length = terms;
  r.tensors[f.indices] =
      FilledWith(LayoutDesc(c.index_dtype, s.indices, padded ? Layout::kPadded : Layout::kPacked),
                 c.index_values);
  r.tensors[f.indices].index_dims = s.index_dims;
  r.tensors[f.updates] =
      FilledWith(LayoutDesc(c.dtype, s.updates,
                            c.layout == Layout::kBroadcast ? Layout::kBroadcast : Layout::kPacked,
                            c.broadcast_dim),
                 values);
  r.tensors[f.updates].line_length = terms;
  r.tensors[f.output] =
      FilledWith(LayoutDesc(c.dtype, s.input, padded ? Layout::kPadded : Layout::kPacked));

  const bool property = true;
  CaseId id{
      OperatorKey(spec), property, c.dtype, static_cast<unsigned>(s.input.size()), {}, c.seed};
  if (f.HasDimensionCounts()) {
    id.variant = {FormatShape(s.input),
                  "in" + std::to_string(s.params.at(f.input_dims_param)) + "-idx" +
                      std::to_string(s.params.at(f.indices_dims_param)) + "-" +
                      FormatShape(s.indices) + "-" + std::string(DTypeShortName(c.index_dtype))};
  } else {
    id.variant = {FormatShape(s.input) + "-idx" + FormatShape(s.indices) + "-" +
                  std::string(DTypeShortName(c.index_dtype))};
  }
  id.variant.insert(id.variant.end(), {layout_tag, IndexTag(c.index_values)});
  if (!reduction.empty()) id.variant.push_back(reduction);
  if (c.specials) id.variant.push_back("specials");
  r.id = id.ToString();
  std::map<std::string, TensorDesc> descs;
  for (const auto& [name, t] : r.tensors) descs[name] = t.desc;
  r.level = LowestSupportingLevel(spec, descs, r.params).value_or("");
  return r;
}

Result<CaseRecipe> PropertyCaseRecipe(const SpecSet& specs, const CaseId& id) {
  for (const OperatorSpec& spec : specs.specs)
    if (OperatorKey(spec) == id.op) return IdParsers().For(spec)(spec, id);
  return InvalidInput("case id '" + id.ToString() + "': no operator '" + id.op +
                      "' (opcts list names them)");
}

}  // namespace opcts
