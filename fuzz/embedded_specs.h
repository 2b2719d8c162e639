// The operator specs (spec/*.yaml) compiled into the fuzz targets, so a target runs where the
// source tree is absent (ClusterFuzzLite's runners) and always judges by the specs it was built
// from. The campaign decodes findings with the same set.
//
//   const SpecSet& specs = EmbeddedSpecSet();   // loaded once; errors listed in specs.errors
#pragma once

#include <string>
#include <vector>

#include "conformance/spec_set.h"

namespace opcts {

struct EmbeddedSpecFile {
  const char* name;  // "dml_scatter_nd.yaml"
  const char* text;
};

// Generated at build time by fuzz/embed_specs.cmake.
const std::vector<EmbeddedSpecFile>& EmbeddedSpecFiles();

const SpecSet& EmbeddedSpecSet();

}  // namespace opcts
