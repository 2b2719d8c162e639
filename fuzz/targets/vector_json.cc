// libFuzzer target: the opcts-vector/1 parser on arbitrary text, then, for a vector that
// parses, the reference check and a round trip: writing the vector and parsing it back must
// give the same JSON (the campaign writes findings with VectorToJson).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "conformance/vector_check.h"
#include "fuzz/embedded_specs.h"

namespace {

// The format admits buffers up to 1 GiB and 2^32 - 1 elements: allowed, but memory and time
// rather than bugs. Vectors beyond these are parsed but not checked against the reference.
constexpr uint64_t kMaxCheckedElements = 1 << 16;
// Asking for a buffer this large is skipped before parsing: it only allocates.
constexpr uint64_t kMaxTotalBytes = 1 << 20;

bool AsksForHugeBuffers(const std::string& text) {
  if (text.find("total_bytes") == std::string::npos) return false;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("tensors") || !j["tensors"].is_object()) return false;
  for (const auto& [name, t] : j["tensors"].items())
    if (t.is_object() && t.contains("total_bytes") && t["total_bytes"].is_number_unsigned() &&
        t["total_bytes"].get<uint64_t>() > kMaxTotalBytes)
      return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (AsksForHugeBuffers(text)) return -1;
  const opcts::SpecSet& specs = opcts::EmbeddedSpecSet();
  const opcts::Result<opcts::TestVector> r = opcts::ParseVector(text, "fuzz.json", specs);
  if (!r) {
    if (r.error().message.empty()) std::abort();
    return 0;
  }
  bool small = true;
  for (const auto& [name, t] : r->op.tensors)
    small = small && opcts::ElementCount(t.desc) <= kMaxCheckedElements;
  if (small) opcts::CheckVectorAgainstReference(*r);

  const std::string written = opcts::VectorToJson(*r).dump();
  const opcts::Result<opcts::TestVector> again = opcts::ParseVector(written, "fuzz.json", specs);
  if (!again || opcts::VectorToJson(*again).dump() != written) {
    std::fprintf(
        stderr, "vector does not survive VectorToJson + ParseVector:\n%s\n%s\n", written.c_str(),
        again ? opcts::VectorToJson(*again).dump().c_str() : again.error().message.c_str());
    std::abort();
  }
  return 0;
}
