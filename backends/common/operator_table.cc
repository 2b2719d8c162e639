#include "common/operator_table.h"

#include <algorithm>
#include <cstring>

namespace opcts::abi {

// memcpy: the struct is the plugin's or the harness's, of whatever alignment it was given.
const opcts_tensor_desc* Field::ReadTensor(const void* desc) const {
  const opcts_tensor_desc* value;
  // NOLINTNEXTLINE(bugprone-sizeof-expression): the field holds the pointer itself.
  std::memcpy(&value, static_cast<const char*>(desc) + offset, sizeof value);
  return value;
}

uint32_t Field::ReadUInt32(const void* desc) const {
  uint32_t value;
  std::memcpy(&value, static_cast<const char*>(desc) + offset, sizeof value);
  return value;
}

void Field::WriteTensor(void* desc, const opcts_tensor_desc* value) const {
  // NOLINTNEXTLINE(bugprone-sizeof-expression): the field holds the pointer itself.
  std::memcpy(static_cast<char*>(desc) + offset, &value, sizeof value);
}

void Field::WriteUInt32(void* desc, uint32_t value) const {
  std::memcpy(static_cast<char*>(desc) + offset, &value, sizeof value);
}

size_t Operator::TensorCount() const {
  size_t n = 0;
  for (const Field& f : fields) n += f.is_tensor;
  return n;
}

const Field* Operator::FindField(const std::string& field_name) const {
  for (const Field& f : fields)
    if (field_name == f.name) return &f;
  return nullptr;
}

const Field* Operator::RoleField(const std::string& role) const {
  for (const Role& r : roles)
    if (role == r.role) return FindField(r.name);
  return nullptr;
}

bool Operator::MayFlushSubnormals(uint32_t data_type) const {
  return std::find(flushes_subnormals.begin(), flushes_subnormals.end(), data_type) !=
         flushes_subnormals.end();
}

const Operator* FindOperator(uint32_t type) {
  for (const Operator& op : Operators())
    if (op.type == type) return &op;
  return nullptr;
}

const Operator* FindOperator(const std::string& name) {
  for (const Operator& op : Operators())
    if (name == op.name) return &op;
  return nullptr;
}

}  // namespace opcts::abi
