// A small XML well-formedness checker for the tests (no XML library is a dependency): parses
// elements, attributes, text and the five entities plus character references, and collects every
// element so tests can count and inspect them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace opcts::testing {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;  // entities decoded
  std::string text;                               // direct text content, entities decoded
};

struct XmlDocument {
  std::vector<XmlElement> elements;  // document order

  size_t Count(const std::string& name) const {
    size_t count = 0;
    for (const auto& element : elements) count += element.name == name;
    return count;
  }
};

// ErrorCode::kInvalidInput "offset N: what" when `text` is not well-formed.
Result<XmlDocument> ParseXml(const std::string& text);

}  // namespace opcts::testing
