// libFuzzer target: the spec loader on arbitrary YAML. It must never crash, leak or hit UB, and
// must explain every refusal: a load that yields no spec carries at least one error naming
// what is wrong.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "spec/spec_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const opcts::SpecLoadResult r = opcts::LoadSpecText(text, "fuzz.yaml");
  if (r.spec.has_value() == !r.errors.empty()) std::abort();  // exactly one of spec and errors
  for (const opcts::SpecError& e : r.errors)
    if (e.message.empty() || opcts::FormatSpecError(e).empty()) std::abort();
  if (r.spec) opcts::CheckSpecSet({*r.spec});
  return 0;
}
