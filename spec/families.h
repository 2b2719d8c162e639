// Operator families: the shapes of computation opcts knows (a scan, a scatter). A spec names its
// family and maps each family role to one of its own tensors or parameters; everything generic
// (the reference's core, backends, case generators, fuzz decoders, bench cases) works on roles,
// so an operator of a known family needs no code outside its spec and reference entry.
//
//   const FamilyInfo* scan = FindFamily("scan");
//   for (const FamilyRole& role : scan->roles) ...  // what a `family.roles` map may hold
#pragma once

#include <string>
#include <vector>

namespace opcts {

struct FamilyRole {
  enum class Kind {
    kTensor,       // an input or output tensor
    kUInt32Param,  // a uint32 parameter
    kFlagParam,    // a bool, or an enum whose value 0 is "off"
    kEnumParam,    // an enum whose values are among `enum_values`, value 0 first
    kAxis,         // a uint32 parameter, or a scalar_input tensor whose value is the axis
  };
  const char* name;
  Kind kind;
  bool required;
  std::vector<std::string> enum_values;  // kEnumParam: the names a spec may use, in ABI order
};

struct FamilyInfo {
  const char* name;
  std::vector<FamilyRole> roles;
};

const std::vector<FamilyInfo>& Families();
const FamilyInfo* FindFamily(const std::string& name);
std::vector<std::string> FamilyNames();

}  // namespace opcts
