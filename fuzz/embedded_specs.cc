#include "fuzz/embedded_specs.h"

#include "spec/spec_loader.h"

namespace opcts {

const SpecSet& EmbeddedSpecSet() {
  static const SpecSet set = [] {
    SpecSet s;
    std::vector<OperatorSpec> loaded;
    for (const EmbeddedSpecFile& f : EmbeddedSpecFiles()) {
      SpecLoadResult r = LoadSpecText(f.text, std::string("spec/") + f.name);
      for (const SpecError& e : r.errors) s.errors.push_back(FormatSpecError(e));
      if (r.spec) loaded.push_back(std::move(*r.spec));
    }
    for (const SpecError& e : CheckSpecSet(loaded)) s.errors.push_back(FormatSpecError(e));
    s.specs.assign(loaded.begin(), loaded.end());
    return s;
  }();
  return set;
}

}  // namespace opcts
