// The run judged on backends whose faults are known: each deliberately faulty plugin (one fault
// injected into cpu-reference, see testing/faulty_plugin.cc) must get exactly the statuses its
// fault deserves, on exactly the cases it affects, with every other case still passing.
#include "conformance/runner.h"

#include <filesystem>
#include <functional>
#include <sstream>

#include <gtest/gtest.h>

#include "reports/journal.h"

namespace opcts {
namespace {

struct FaultCase {
  const char* fault;
  const char* op;     // filter
  const char* dtype;  // filter
  // The status each journal record must have, by its journal name ("" : the status a correct
  // backend gets).
  std::function<std::string(const CaseRecord&)> expected_status;
  const char* id = "*";      // filter
  const char* message = "";  // every faulty case's message contains this
  uint64_t timeout_ms = 0;
};

bool Executed(const CaseRecord& r) { return r.group != CaseGroup::kInvalid; }

const FaultCase kFaults[] = {
    {"flip-bit-f16", "dml_scatter_nd", "*",
     [](const CaseRecord& r) {
       if (!Executed(r)) return std::string("InvalidRejected");
       // Data movement is bit-exact; out-of-range indices free no element to hold anything
       // but a value the operation could have written.
       return r.dtype == "FLOAT16" ? std::string("Fail") : std::string("");
     }},
    {"write-past-end", "dml_cumulative_product", "FLOAT32",
     [](const CaseRecord& r) { return std::string(Executed(r) ? "Fail" : "InvalidRejected"); }},
    {"write-into-input", "dml_cumulative_product", "UINT32",
     [](const CaseRecord& r) {
       if (!Executed(r)) return std::string("InvalidRejected");
       return std::string(r.layout == "in-place" ? "Pass" : "Fail");
     }},
    {"skip-write", "openvino_cumsum_3", "INT8",
     [](const CaseRecord& r) {
       // The reference rejects nothing at query for a bad axis value: skipping execute's check
       // accepts it.
       if (!Executed(r))
         return std::string(r.id.find(".invalid.axis-range") != std::string::npos
                                ? "InvalidAccepted"
                                : "InvalidRejected");
       return std::string("Fail");
     }},
    {"claim-unsupported", "dml_cumulative_summation", "*INT64",
     [](const CaseRecord& r) {
       if (!Executed(r)) return std::string("InvalidRejected");
       return std::string(r.group == CaseGroup::kValid ? "ClaimViolation" : "NotSupported");
     }},
    {"accept-invalid", "dml_scatter_nd", "*",
     [](const CaseRecord& r) { return std::string(Executed(r) ? "Pass" : "InvalidAccepted"); }},
    {"accept-invalid-read-oob", "dml_cumulative_summation", "*",
     [](const CaseRecord& r) { return std::string(Executed(r) ? "" : "InvalidAccepted"); }},
    // The faults below would take an unisolated run down.
    {"segfault-f16", "dml_cumulative_summation", "*",
     [](const CaseRecord& r) {
       return std::string(Executed(r) && r.dtype == "FLOAT16" ? "Crash" : "");
     },
     "*rank[1-4].*", "signal 11 (Segmentation fault)"},
    {"hang-u16", "dml_cumulative_product", "*",
     [](const CaseRecord& r) {
       return std::string(Executed(r) && r.dtype == "UINT16" ? "Timeout" : "");
     },
     // A limit far above a small case's time under the sanitizers on a loaded machine (a case
     // right after a restart took over 1 s there); three cases hang, three limits.
     "*rank4.*axis0-fwd-*.packed.random*", "no result within 3000 ms; the worker was killed", 3000},
    {"abort-i8", "dml_scatter_nd", "*",
     [](const CaseRecord& r) {
       return std::string(Executed(r) && r.dtype == "INT8" ? "Crash" : "");
     },
     "*rank2.*", "signal 6 (Aborted)"},
    {"throw-bf16", "openvino_cumsum_3", "*",
     [](const CaseRecord& r) {
       return std::string(r.dtype == "BFLOAT16" && Executed(r) ? "Crash" : "");
     },
     "*rank3.*", "uncaught exception escaped the backend: boom from the plugin"},
    {"leak", "dml_scatter_nd", "*", [](const CaseRecord&) { return std::string(""); }},
};

class FaultyPluginTest : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FaultyPluginTest, EachFaultGetsItsStatusAndNothingElseFails) {
  const FaultCase& f = GetParam();
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  ASSERT_TRUE(specs.errors.empty());
  RunOptions options;
  options.backends = {std::string(OPCTS_TEST_PLUGIN_DIR) + "/opcts-fault-" + f.fault + ".so"};
  options.filter.ops = {f.op};
  options.filter.dtypes = {f.dtype};
  options.filter.ids = {f.id};
  options.timeout_ms = f.timeout_ms;
  options.progress = false;
  options.journal =
      (std::filesystem::temp_directory_path() / (std::string("opcts-fault-") + f.fault + ".jsonl"))
          .string();
  std::ostringstream log;
  const RunResult result = RunConformance(specs, options, log, log);
  const bool harmless = std::string(f.fault) == "leak";
  EXPECT_EQ(result.exit_code, harmless ? 0 : 1) << log.str();

  const auto journal = ReadJournal(options.journal);
  ASSERT_TRUE(journal) << journal.error().message;
  // Nothing lost: every planned case has its line.
  ASSERT_EQ(journal->cases.size(), journal->header.planned_cases);
  ASSERT_EQ(journal->cases.size(), result.cases);
  ASSERT_GT(result.cases, 10u);
  uint64_t faulty = 0;
  for (const CaseRecord& r : journal->cases) {
    const std::string named = f.expected_status(r);
    // Unaffected cases must be fine.
    Status want = named.empty() ? (r.group == CaseGroup::kValid ? Status::kPass : r.status)
                                : *StatusNamed(named);
    if (want == Status::kPass && r.status == Status::kNotSupported &&
        r.group == CaseGroup::kUnclaimed)
      want = Status::kNotSupported;
    EXPECT_EQ(StatusName(r.status), StatusName(want)) << r.id << ": " << r.message;
    if (r.status == Status::kPass || r.status == Status::kInvalidRejected ||
        r.status == Status::kNotSupported)
      continue;
    ++faulty;
    EXPECT_NE(r.message.find(f.message), std::string::npos) << r.id << ": " << r.message;
  }
  EXPECT_EQ(faulty > 0, !harmless);
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultyPluginTest, ::testing::ValuesIn(kFaults),
                         [](const auto& info) {
                           std::string name = info.param.fault;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace opcts
