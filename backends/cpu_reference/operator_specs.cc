#include "cpu_reference/operator_specs.h"

#include <map>

#include "common/operator_table.h"
#include "spec/spec_loader.h"

namespace opcts::cpu_reference {

const OperatorSpec* SpecFor(uint32_t op_type) {
  // The generator loaded every one of these texts before embedding it: they load here too.
  static const std::map<uint32_t, OperatorSpec> specs = [] {
    std::map<uint32_t, OperatorSpec> loaded;
    for (const abi::Operator& op : abi::Operators())
      if (SpecLoadResult r = LoadSpecText(op.spec_text, op.spec_file); r.spec)
        loaded.emplace(op.type, *r.spec);
    return loaded;
  }();
  const auto it = specs.find(op_type);
  return it == specs.end() ? nullptr : &it->second;
}

}  // namespace opcts::cpu_reference
