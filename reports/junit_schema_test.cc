// The JUnit report validated by xmllint against reports/schema/junit-10.xsd, the structure of
// Jenkins' junit-10.xsd: CI tools reject or misread a file that does not fit it. xmllint (Debian
// libxml2-utils, scripts/install-deps.sh) missing fails these tests; it is no reason to skip.
#include <string>

#include <gtest/gtest.h>

#include "base/shell_output.h"
#include "base/shell_word.h"
#include "reports/junit_report.h"
#include "reports/report_model.h"
#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::CaseLine;
using testing::HeaderLine;
using testing::LoadJournals;
using testing::ScratchDir;
using testing::Testdata;
using testing::WriteFile;

// xmllint's exit status for a document the schema rejects (its manual: "validation error").
constexpr int kXmllintInvalid = 3;
constexpr int kShellCommandNotFound = 127;

// xmllint on `xml`, written to a scratch file: its exit status and messages.
ShellOutput Validate(const std::string& xml) {
  const ScratchDir dir;
  const std::string path = dir / "junit.xml";
  WriteFile(path, xml);
  return RunShell("xmllint --noout --schema " + ShellWord(OPCTS_JUNIT_SCHEMA) + " " +
                  ShellWord(path) + " 2>&1");
}

std::string Missing(const ShellOutput& validation) {
  return validation.exit_code == kShellCommandNotFound
             ? "xmllint not found: install Debian package libxml2-utils (scripts/install-deps.sh)\n"
             : "";
}

// Success, or xmllint's complaint with the document.
::testing::AssertionResult ValidJunit(const std::string& xml) {
  const ShellOutput validation = Validate(xml);
  if (validation.exit_code == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << Missing(validation) << "xmllint exit status " << validation.exit_code << ":\n"
         << validation.output << "\n"
         << xml;
}

TEST(JunitSchema, PassingReportValidates) {
  const auto report =
      BuildReport(LoadJournals({"shard0of3.jsonl", "shard1of3.jsonl", "shard2of3.jsonl"}), {}, {});
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_TRUE(report->Passed());
  EXPECT_TRUE(ValidJunit(RenderJunit(*report)));
}

// Every element the writer has: <failure> (Fail, InvalidAccepted, ClaimViolation, gate
// problems), <error> (Crash, Timeout, InternalError), <skipped> (NotSupported, Waived),
// <system-out> (QualityWarning) and the suite `opcts.gate`.
TEST(JunitSchema, FailingReportValidates) {
  auto journals = LoadJournals({"cpu_simd.jsonl", "vulkan.jsonl"});
  const std::string text = HeaderLine("gpu", 7) + "\n" +
                           CaseLine("gpu", "gpu.s1", "Timeout", "no result after 10 s") + "\n" +
                           CaseLine("gpu", "gpu.s2", "InternalError", "judge <threw>") + "\n" +
                           CaseLine("gpu", "gpu.s3", "Fail", "index 0: got 1 expected 2") + "\n";
  auto gpu = ParseJournal(text, "gpu.jsonl");
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  journals.push_back({"gpu.jsonl", *gpu});
  const auto report = BuildReport(journals, LoadWaivers(Testdata("waivers.yaml")).value(),
                                  {false, "2026-01-01", {}, "interrupted by SIGINT"});
  ASSERT_TRUE(report.ok()) << report.error().message;
  for (const Status status : {Status::kFail, Status::kInvalidAccepted, Status::kClaimViolation,
                              Status::kCrash, Status::kTimeout, Status::kInternalError,
                              Status::kNotSupported, Status::kWaived, Status::kQualityWarning}) {
    EXPECT_GT(report->by_status.count(status), 0u) << StatusName(status);
  }
  // Interrupted, the expired waiver, gpu computed nothing.
  EXPECT_EQ(report->gate_problems.size(), 3u) << ::testing::PrintToString(report->gate_problems);
  EXPECT_TRUE(ValidJunit(RenderJunit(*report)));
}

// The schema is no formality: what Jenkins' junit-10.xsd forbids, it rejects.
TEST(JunitSchema, RejectsWhatJunit10Forbids) {
  const auto report = BuildReport(LoadJournals({"cpu_simd.jsonl"}), {}, {});
  ASSERT_TRUE(report.ok()) << report.error().message;
  const std::string xml = RenderJunit(*report);
  ASSERT_TRUE(ValidJunit(xml));
  const struct {
    std::string find, replace, why;  // why: in xmllint's message
  } kMutations[] = {
      {"<testsuites name=\"opcts\"", "<testsuites name=\"opcts\" skipped=\"1\"",
       "Element 'testsuites', attribute 'skipped': The attribute 'skipped' is not allowed"},
      {"<properties>\n", "<properties>\n<property name=\"x\"/>\n",
       "Element 'property': The attribute 'value' is required but missing"},
      {"<testcase ", "<testcase result=\"ok\" ",
       "Element 'testcase', attribute 'result': The attribute 'result' is not allowed"},
      {"<failure ", "<system-out>x</system-out><failure ",
       "Element 'failure': This element is not expected"},
      {"    </properties>\n",
       "    </properties>\n    <properties><property name=\"x\" value=\"y\"/></properties>\n",
       "Element 'properties': This element is not expected"},
  };
  for (const auto& mutation : kMutations) {
    SCOPED_TRACE(mutation.replace);
    std::string invalid = xml;
    const size_t at = invalid.find(mutation.find);
    ASSERT_NE(at, std::string::npos);
    invalid.replace(at, mutation.find.size(), mutation.replace);
    const ShellOutput validation = Validate(invalid);
    EXPECT_EQ(validation.exit_code, kXmllintInvalid) << Missing(validation) << validation.output;
    EXPECT_NE(validation.output.find(mutation.why), std::string::npos) << validation.output;
  }
}

}  // namespace
}  // namespace opcts
