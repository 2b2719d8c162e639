#include "spirv_float_controls.h"

#include <string_view>

namespace opcts::vulkan {
namespace {

// From the SPIR-V specification (unified 1.6) and SPV_KHR_float_controls.
constexpr uint32_t kMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kModeDenormPreserve = 4459;
constexpr uint32_t kModeSignedZeroInfNanPreserve = 4461;
constexpr uint32_t kCapabilityDenormPreserve = 4464;
constexpr uint32_t kCapabilitySignedZeroInfNanPreserve = 4466;
constexpr std::string_view kExtension = "SPV_KHR_float_controls";

uint32_t Instruction(uint32_t opcode, uint32_t word_count) { return word_count << 16 | opcode; }

void AppendExtension(std::vector<uint32_t>* out) {
  const size_t string_words = kExtension.size() / 4 + 1;  // NUL-terminated, zero-padded
  out->push_back(Instruction(kOpExtension, static_cast<uint32_t>(1 + string_words)));
  size_t first = out->size();
  out->resize(first + string_words, 0);
  for (size_t i = 0; i < kExtension.size(); ++i) {
    (*out)[first + i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(kExtension[i]))
                             << (8 * (i % 4));
  }
}

}  // namespace

Result<std::vector<uint32_t>> AddFloatControls(std::span<const uint32_t> words,
                                               const FloatControlModes& modes) {
  if (words.size() < kHeaderWords || words[0] != kMagic) {
    return InternalError("embedded SPIR-V is malformed (no SPIR-V header)");
  }
  std::vector<std::pair<uint32_t, uint32_t>> wanted;  // (capability, execution mode)
  if (modes.denorm_preserve) wanted.emplace_back(kCapabilityDenormPreserve, kModeDenormPreserve);
  if (modes.signed_zero_inf_nan_preserve) {
    wanted.emplace_back(kCapabilitySignedZeroInfNanPreserve, kModeSignedZeroInfNanPreserve);
  }

  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size() + 16);
  bool capabilities_added = false;
  bool modes_added = false;
  bool entry_seen = false;
  uint32_t entry = 0;
  for (size_t i = kHeaderWords; i < words.size();) {
    const uint32_t opcode = words[i] & 0xFFFF;
    const uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) {
      return InternalError("embedded SPIR-V is malformed (truncated instruction)");
    }
    // Capabilities come first in a module, then extensions; execution modes follow the
    // entry points.
    if (!capabilities_added && opcode != kOpCapability) {
      for (const auto& [capability, mode] : wanted) {
        out.push_back(Instruction(kOpCapability, 2));
        out.push_back(capability);
      }
      AppendExtension(&out);
      capabilities_added = true;
    }
    if (entry_seen && !modes_added && opcode != kOpEntryPoint) {
      for (const auto& [capability, mode] : wanted) {
        out.insert(out.end(), {Instruction(kOpExecutionMode, 4), entry, mode, modes.width});
      }
      modes_added = true;
    }
    if (opcode == kOpEntryPoint) {
      if (entry_seen || count < 3) {
        return InternalError("embedded SPIR-V must have exactly one entry point");
      }
      entry = words[i + 2];
      entry_seen = true;
    }
    out.insert(out.end(), words.begin() + static_cast<ptrdiff_t>(i),
               words.begin() + static_cast<ptrdiff_t>(i + count));
    i += count;
  }
  if (!modes_added) return InternalError("embedded SPIR-V has no entry point");
  return out;
}

}  // namespace opcts::vulkan
