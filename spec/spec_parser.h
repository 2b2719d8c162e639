// The opcts-spec/1 schema walk behind LoadSpecText: fills an OperatorSpec from a parsed YAML
// document and reports every schema violation through the reader (spec/README.md is the schema).
#pragma once

#include "spec/operator_spec.h"
#include "spec/yaml_reader.h"

namespace opcts {

void ParseSpec(YamlReader& reader, const YamlField& root, OperatorSpec& spec);

}  // namespace opcts
