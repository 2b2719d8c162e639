// Runs one materialized case through one backend and judges it: query, execute into
// harness-owned buffers with guard bytes, NaN/pattern-prefilled outputs, inputs compared after
// execute, outputs judged by the accuracy model.
//
//   CaseOutcome o = ExecuteCase(plugin, op, CaseGroup::kValid, expected, FloatRules::kPlatform);
//   o.status == Status::kPass
#pragma once

#include <map>
#include <optional>
#include <string>

#include "conformance/case.h"
#include "conformance/float_rules.h"
#include "conformance/judge.h"
#include "conformance/plugin_loader.h"
#include "reference/reference.h"
#include "reports/journal.h"
#include "reports/status.h"

namespace opcts {

// How a backend handled data the spec lets it refuse (CaseOutcome::behaviour).
inline constexpr const char* kRefusedAtExecute = "out-of-range indices refused at execute";
inline constexpr const char* kSkipped = "out-of-range indices skipped";
inline constexpr const char* kWrittenElsewhere =
    "out-of-range indices written elsewhere in the output";

struct CaseOutcome {
  Status status = Status::kPass;
  std::string message;
  // What the backend did where the spec leaves it a choice, "" if nothing: for data it may
  // refuse (out-of-range ScatterND tuples) kRefusedAtExecute, kSkipped or kWrittenElsewhere;
  // for a float result valid only under the platform's float rules, the judge's words
  // ("flushes FLOAT32 subnormals"); both joined by kBehaviourSeparator (reports/journal.h).
  // Journaled; reports count each per backend.
  std::string behaviour;
  std::optional<double> max_error, bound, ulp;
  uint64_t duration_us = 0;
  // The output tensors as the backend left them (only when ExecuteCase was asked to keep them).
  std::map<std::string, TensorData> outputs;
};

// `expected` may be null for kInvalid cases (nothing is judged). `float_rules` says which rules
// judge float outputs. `keep_outputs` fills CaseOutcome::outputs (for repro). `fault`: an
// invalid case's defect below the Operation, put into the descriptor or the bindings.
CaseOutcome ExecuteCase(const Plugin& plugin, const Operation& op, CaseGroup group,
                        const ReferenceResult* expected, FloatRules float_rules,
                        bool keep_outputs = false, AbiFault fault = AbiFault::kNone);

// "OK", "NOT_SUPPORTED", "INVALID", "ERROR", or "unknown status N": an ABI status in messages.
std::string AbiStatusName(int32_t status);

}  // namespace opcts
