#include "conformance/vector_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "spec/element.h"

namespace opcts {
namespace {

using nlohmann::json;

// Thrown inside this file only; ParseVector turns it into an Error.
struct VectorError {
  std::string field, message;
};

const json& Get(const json& j, const std::string& key, const std::string& path) {
  if (!j.is_object() || !j.contains(key)) throw VectorError{path + key, "missing"};
  return j.at(key);
}

std::string GetString(const json& j, const std::string& key, const std::string& path) {
  const json& v = Get(j, key, path);
  if (!v.is_string()) throw VectorError{path + key, "must be a string"};
  return v.get<std::string>();
}

std::vector<uint32_t> GetDims(const json& j, const std::string& field) {
  if (!j.is_array()) throw VectorError{field, "must be an array of non-negative integers"};
  std::vector<uint32_t> dims;
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number_unsigned() || j[i].get<uint64_t>() > 0xFFFFFFFFull)
      throw VectorError{field + "[" + std::to_string(i) + "]", "must be an integer in [0, 2^32)"};
    dims.push_back(j[i].get<uint32_t>());
  }
  return dims;
}

// A number, "nan"/"inf"/"-inf"/"-0", or "0x..." raw bits.
uint64_t ParseElement(DType t, const json& v, const std::string& field) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.rfind("0x", 0) == 0 && s.size() > 2 && s.size() <= 2 + DTypeSize(t) * 2) {
      size_t used = 0;
      uint64_t bits = 0;
      try {
        bits = std::stoull(s.substr(2), &used, 16);
      } catch (...) {
        used = 0;
      }
      if (used == s.size() - 2) return bits;
    }
    if (IsFloat(t)) {
      if (s == "nan") return DoubleToBits(t, NAN);
      if (s == "inf") return DoubleToBits(t, INFINITY);
      if (s == "-inf") return DoubleToBits(t, -INFINITY);
      if (s == "-0") return DoubleToBits(t, -0.0);
    }
    throw VectorError{field, "'" + s + "' is not a number, hex bit pattern of " +
                                 std::to_string(DTypeSize(t) * 8) + " bits" +
                                 (IsFloat(t) ? ", nan, inf, -inf or -0" : "")};
  }
  if (!v.is_number()) throw VectorError{field, "must be a number or a string"};
  if (IsFloat(t)) return DoubleToBits(t, v.get<double>());
  // Integers must be exact and in range of the dtype.
  const unsigned bits = DTypeBits(t);
  if (v.is_number_float()) throw VectorError{field, "an integer type needs an integer"};
  if (IsSignedInt(t)) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      throw VectorError{field, "out of range for " + std::string(DTypeName(t))};
    const int64_t x = v.get<int64_t>();
    const int64_t lo = bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    const int64_t hi = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
    if (x < lo || x > hi) throw VectorError{field, "out of range for " + std::string(DTypeName(t))};
    return static_cast<uint64_t>(x) & BitsMask(t);
  }
  if (!v.is_number_unsigned() || (bits < 64 && v.get<uint64_t>() > BitsMask(t)))
    throw VectorError{field, "out of range for " + std::string(DTypeName(t))};
  return v.get<uint64_t>();
}

json ElementToJson(DType t, uint64_t bits) {
  if (!IsFloat(t)) {
    if (IsSignedInt(t)) return BitsToInt64(t, bits);
    return bits;
  }
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%0*llx", static_cast<int>(DTypeSize(t) * 2),
                static_cast<unsigned long long>(bits));
  return hex;  // bit patterns: exact for every value, NaN payloads included
}

TensorData ParseTensor(const TensorSpec& spec, const json& j, const std::string& path) {
  TensorDesc desc;
  const std::string dtype_name = GetString(j, "dtype", path);
  const auto dtype = ParseDType(dtype_name);
  if (!dtype) throw VectorError{path + "dtype", "unknown data type '" + dtype_name + "'"};
  desc.dtype = *dtype;
  desc.sizes = GetDims(Get(j, "sizes", path), path + "sizes");
  if (j.contains("strides")) desc.strides = GetDims(j.at("strides"), path + "strides");
  if (!desc.strides.empty() && desc.strides.size() != desc.sizes.size())
    throw VectorError{path + "strides", "needs one entry per dimension"};
  desc.total_bytes = ImpliedMinimumBytes(desc);
  if (j.contains("total_bytes")) {
    if (!j.at("total_bytes").is_number_unsigned())
      throw VectorError{path + "total_bytes", "must be a non-negative integer"};
    desc.total_bytes = j.at("total_bytes").get<uint64_t>();
  }
  if (desc.total_bytes > (uint64_t{1} << 30))
    throw VectorError{path + "total_bytes", "larger than 1 GiB; not a test vector"};
  if (j.contains("alignment")) {
    if (!j.at("alignment").is_number_unsigned())
      throw VectorError{path + "alignment", "must be a non-negative integer"};
    desc.alignment = j.at("alignment").get<uint32_t>();
  }
  TensorData t = MakeTensor(desc);
  if (spec.role == TensorRole::kOutput) {
    for (size_t d = 0; d < desc.strides.size(); ++d)
      if (desc.strides[d] == 0 && desc.sizes[d] > 1)
        throw VectorError{path + "strides[" + std::to_string(d) + "]",
                          "0 broadcasts, which an output cannot: two of its elements would share "
                          "one address"};
    return t;
  }
  const json& data = Get(j, "data", path);
  const uint64_t count = BufferElementCount(desc);
  if (!data.is_array() || data.size() != count)
    throw VectorError{path + "data", "must be an array of " + std::to_string(count) +
                                         " buffer elements (IndexOfLastElement + 1)"};
  if (count * DTypeSize(desc.dtype) > t.bytes.size())
    throw VectorError{path + "total_bytes", "smaller than the data"};
  for (uint64_t i = 0; i < count; ++i)
    StoreBits(desc.dtype, t.Element(i),
              ParseElement(desc.dtype, data[i], path + "data[" + std::to_string(i) + "]"));
  return t;
}

// The first field in which two descriptors differ ("Sizes"), or "".
std::string DescDifference(const TensorDesc& a, const TensorDesc& b) {
  if (a.dtype != b.dtype) return "dtype";
  if (a.sizes != b.sizes) return "sizes";
  if (a.strides != b.strides) return "strides";
  if (a.total_bytes != b.total_bytes) return "total_bytes";
  if (a.alignment != b.alignment) return "alignment";
  return "";
}

// In place, the output is bound to its input's buffer under its own descriptor: the operator
// must allow it, and both descriptors must describe the same memory the same way.
void CheckInPlace(const Operation& op) {
  const OperatorSpec& spec = *op.spec;
  const TensorSpec* output = nullptr;
  for (const TensorSpec& t : spec.tensors)
    if (t.role == TensorRole::kOutput && !t.may_alias.empty()) output = &t;
  if (!spec.semantics.in_place || output == nullptr)
    throw VectorError{"in_place", spec.name +
                                      " does not run in place: no output of its spec may alias "
                                      "an input (may_alias)"};
  const TensorData* out = op.Tensor(output->name);
  const TensorData* in = op.Tensor(output->may_alias);
  if (out == nullptr || in == nullptr) return;  // a missing tensor breaks a rule of its own
  if (const std::string field = DescDifference(in->desc, out->desc); !field.empty())
    throw VectorError{"in_place", "tensors." + output->name + " would alias tensors." +
                                      output->may_alias + ", but their " + field + " differ"};
}

TestVector Parse(const json& j, const std::string& file, const SpecSet& specs) {
  if (!j.is_object()) throw VectorError{"", "a vector file holds one JSON object"};
  TestVector v;
  v.file = file;
  if (GetString(j, "format", "") != "opcts-vector/1")
    throw VectorError{"format", "must be \"opcts-vector/1\""};
  v.name = GetString(j, "name", "");
  if (j.contains("source")) v.source = GetString(j, "source", "");
  const std::string op_name = GetString(j, "operator", "");
  v.op.spec = specs.Find(op_name);
  if (!v.op.spec) throw VectorError{"operator", "unknown operator '" + op_name + "'"};
  const OperatorSpec& spec = *v.op.spec;

  const json& params = j.contains("parameters") ? j.at("parameters") : json::object();
  if (!params.is_object()) throw VectorError{"parameters", "must be an object"};
  for (const auto& [name, value] : params.items()) {
    const ParamSpec* p = spec.FindParam(name);
    const std::string field = "parameters." + name;
    if (!p) throw VectorError{field, "not a parameter of " + spec.name};
    if (p->type == ParamType::kBool) {
      if (!value.is_boolean()) throw VectorError{field, "must be true or false"};
      v.op.params[name] = value.get<bool>();
    } else if (p->type == ParamType::kEnum) {
      if (!value.is_string()) throw VectorError{field, "must be one of the enum's names"};
      auto it = std::find(p->enum_values.begin(), p->enum_values.end(), value.get<std::string>());
      if (it == p->enum_values.end())
        throw VectorError{field, "'" + value.get<std::string>() + "' is not a value of " + name};
      v.op.params[name] = it - p->enum_values.begin();
    } else {
      if (!value.is_number_integer()) throw VectorError{field, "must be an integer"};
      v.op.params[name] = value.get<int64_t>();
    }
  }
  if (j.contains("in_place")) {
    if (!j.at("in_place").is_boolean()) throw VectorError{"in_place", "must be true or false"};
    v.op.in_place = j.at("in_place").get<bool>();
  }

  const json& tensors = Get(j, "tensors", "");
  if (!tensors.is_object()) throw VectorError{"tensors", "must be an object"};
  for (const auto& [name, value] : tensors.items()) {
    const TensorSpec* t = spec.FindTensor(name);
    if (!t) throw VectorError{"tensors." + name, "not a tensor of " + spec.name};
    v.op.tensors[name] = ParseTensor(*t, value, "tensors." + name + ".");
  }
  if (v.op.in_place) CheckInPlace(v.op);

  const json& expected = Get(j, "expected", "");
  if (expected.is_string()) {
    if (expected.get<std::string>() != "reject")
      throw VectorError{"expected", "must be \"reject\" or an object of output tensors"};
    v.expect_reject = true;
  } else if (expected.is_object()) {
    for (const auto& [name, value] : expected.items()) {
      const TensorSpec* t = spec.FindTensor(name);
      const TensorData* out = v.op.Tensor(name);
      const std::string field = "expected." + name;
      if (!t || t->role != TensorRole::kOutput || !out)
        throw VectorError{field, "not an output tensor given under tensors"};
      const uint64_t count = ElementCount(out->desc);
      if (!value.is_array() || value.size() != count)
        throw VectorError{field, "must be an array of " + std::to_string(count) +
                                     " logical elements (row-major)"};
      std::vector<uint64_t> bits;
      for (uint64_t i = 0; i < count; ++i)
        bits.push_back(
            ParseElement(out->desc.dtype, value[i], field + "[" + std::to_string(i) + "]"));
      v.expected[name] = std::move(bits);
    }
    for (const TensorSpec& t : spec.tensors)
      if (t.role == TensorRole::kOutput && !v.expected.count(t.name))
        throw VectorError{"expected." + t.name, "missing"};
  } else {
    throw VectorError{"expected", "must be \"reject\" or an object of output tensors"};
  }

  if (j.contains("tolerance")) {
    const json& tol = j.at("tolerance");
    Tolerance t;
    for (const auto& [key, value] : tol.items()) {
      if (!value.is_number() || value.get<double>() < 0)
        throw VectorError{"tolerance." + key, "must be a non-negative number"};
      if (key == "abs")
        t.abs = value.get<double>();
      else if (key == "rel")
        t.rel = value.get<double>();
      else
        throw VectorError{"tolerance." + key, "unknown key (abs, rel)"};
    }
    v.tolerance = t;
  }
  return v;
}

}  // namespace

Result<TestVector> ParseVector(const std::string& text, const std::string& file,
                               const SpecSet& specs) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e400
    return InvalidInput(file + ": not valid JSON: " + e.what());
  }
  try {
    return Parse(j, file, specs);
  } catch (const VectorError& e) {
    return InvalidInput(file + ": " + (e.field.empty() ? "" : e.field + ": ") + e.message);
  } catch (const json::exception& e) {
    return InvalidInput(file + ": " + e.what());
  }
}

Result<TestVector> LoadVectorFile(const std::string& path, const SpecSet& specs) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(path + ": cannot open");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseVector(buffer.str(), path, specs);
}

json VectorToJson(const TestVector& v) {
  const OperatorSpec& spec = *v.op.spec;
  json j = {{"format", "opcts-vector/1"}, {"name", v.name}, {"operator", spec.name}};
  if (!v.source.empty()) j["source"] = v.source;
  json params = json::object();
  for (const ParamSpec& p : spec.params) {
    const auto value = v.op.Param(p.name);
    if (!value) continue;
    if (p.type == ParamType::kBool)
      params[p.name] = *value != 0;
    else if (p.type == ParamType::kEnum && *value >= 0 &&
             *value < static_cast<int64_t>(p.enum_values.size()))
      params[p.name] = p.enum_values[*value];
    else
      params[p.name] = *value;
  }
  j["parameters"] = params;
  if (v.op.in_place) j["in_place"] = true;
  json tensors = json::object();
  for (const TensorSpec& t : spec.tensors) {
    const TensorData* data = v.op.Tensor(t.name);
    if (!data) continue;
    json tj = {{"dtype", DTypeName(data->desc.dtype)}, {"sizes", data->desc.sizes}};
    if (!data->desc.strides.empty()) tj["strides"] = data->desc.strides;
    if (data->desc.total_bytes != ImpliedMinimumBytes(data->desc))
      tj["total_bytes"] = data->desc.total_bytes;
    if (data->desc.alignment != 0) tj["alignment"] = data->desc.alignment;
    if (t.role != TensorRole::kOutput) {
      json elements = json::array();
      for (uint64_t i = 0; i < BufferElementCount(data->desc); ++i)
        elements.push_back(
            ElementToJson(data->desc.dtype, LoadBits(data->desc.dtype, data->Element(i))));
      tj["data"] = elements;
    }
    tensors[t.name] = tj;
  }
  j["tensors"] = tensors;
  if (v.expect_reject) {
    j["expected"] = "reject";
  } else {
    json expected = json::object();
    for (const auto& [name, bits] : v.expected) {
      const DType t = v.op.Tensor(name)->desc.dtype;
      json elements = json::array();
      for (uint64_t b : bits) elements.push_back(ElementToJson(t, b));
      expected[name] = elements;
    }
    j["expected"] = expected;
  }
  if (v.tolerance) j["tolerance"] = {{"abs", v.tolerance->abs}, {"rel", v.tolerance->rel}};
  return j;
}

}  // namespace opcts
