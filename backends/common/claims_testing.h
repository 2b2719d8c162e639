// For backend tests: what `extra_support` says for a backend that supports every level of every
// operator the specs define (spec/*.yaml, through the generated table): each non-DirectML
// scheme's highest level, "onnx.opset14 openvino.opset3", schemes in name order.
#pragma once

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "common/operator_table.h"

namespace opcts::claims {

// The schemes other than DirectML that some spec uses: "onnx", "openvino".
inline std::set<std::string> ExtraSchemes() {
  std::set<std::string> schemes;
  for (const abi::Operator& op : abi::Operators())
    if (std::string(op.scheme) != "directml") schemes.insert(op.scheme);
  return schemes;
}

// The schemes an extra_support string claims a level of: "onnx.opset14 openvino.opset3" ->
// {onnx, openvino}.
inline std::set<std::string> ClaimedSchemes(const std::string& extra_support) {
  std::set<std::string> schemes;
  std::istringstream words(extra_support);
  for (std::string word; words >> word;) schemes.insert(word.substr(0, word.find('.')));
  return schemes;
}

inline std::string EveryExtraLevel() {
  std::map<std::string, int> highest;  // scheme -> N of opsetN
  for (const abi::Operator& op : abi::Operators()) {
    if (std::string(op.scheme) == "directml") continue;
    for (const abi::Level& level : op.support) {
      const int n = std::stoi(std::string(level.name).substr(5));  // "opset14"
      if (n > highest[op.scheme]) highest[op.scheme] = n;
    }
  }
  std::string claims;
  for (const auto& [scheme, n] : highest)
    claims += (claims.empty() ? "" : " ") + scheme + ".opset" + std::to_string(n);
  return claims;
}

}  // namespace opcts::claims
