// All operator specs of a directory, loaded and validated together.
//
//   SpecSet specs = LoadSpecSet(DefaultSpecDir());
//   if (!specs.errors.empty()) ...            // each names file:line and field
//   const OperatorSpec* scatter = specs.Find("DML_SCATTER_ND");
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "spec/operator_spec.h"

namespace opcts {

struct SpecSet {
  std::deque<OperatorSpec> specs;  // deque: pointers stay valid
  std::vector<std::string> errors;

  const OperatorSpec* Find(const std::string& operator_name) const;
};

// $OPCTS_SPEC_DIR if set; else, for an installed opcts, share/opcts/spec beside its bin/; else
// the source tree's spec/ (compiled in).
std::string DefaultSpecDir();
SpecSet LoadSpecSet(const std::string& dir);

}  // namespace opcts
