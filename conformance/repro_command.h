// The one command line that reruns a result as the run that made it: the same plugin, the same
// create() options and the same float rules (a repro that drops one judges another backend or by
// other rules, and can pass where the run failed). Each argument is quoted for a shell as needed.
//
//   ReproCommand(path, {"target=AVX2", FloatRules::kIeee}, 1, id)
//     -> "opcts repro --backend PATH --backend-options target=AVX2 --float-rules ieee --seed 1 ID"
#pragma once

#include <cstdint>
#include <string>

#include "conformance/float_rules.h"

namespace opcts {

struct ReproSetting {
  std::string backend_options;  // "" : none given
  FloatRules float_rules = FloatRules::kPlatform;
};

// `opcts repro` of one generated case.
std::string ReproCommand(const std::string& plugin, const ReproSetting& setting, uint64_t seed,
                         const std::string& case_id);
// `opcts vectors` of one test vector file.
std::string VectorsCommand(const std::string& plugin, const ReproSetting& setting,
                           const std::string& file);

}  // namespace opcts
