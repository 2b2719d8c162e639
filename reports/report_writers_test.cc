#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "reports/html_report.h"
#include "reports/json_summary.h"
#include "reports/junit_report.h"
#include "reports/markdown_report.h"
#include "reports/report_model.h"
#include "reports/test_support.h"
#include "reports/xml_check.h"

namespace opcts {
namespace {

using testing::LoadJournals;
using testing::ParseXml;
using testing::Testdata;
using testing::XmlDocument;

Report Build(bool with_waivers) {
  std::vector<Waiver> waivers;
  if (with_waivers) waivers = *LoadWaivers(Testdata("waivers.yaml")).value;
  auto report =
      BuildReport(LoadJournals({"cpu_simd.jsonl", "vulkan.jsonl"}), waivers, {false, "2026-01-01"});
  EXPECT_TRUE(report.value) << report.error;
  return std::move(*report.value);
}

size_t Occurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(JsonSummary, CountsAndVerdict) {
  const auto json = nlohmann::json::parse(RenderJsonSummary(Build(false)));
  EXPECT_EQ(json["format"], "opcts-report/1");
  EXPECT_EQ(json["gate"]["passed"], false);
  EXPECT_EQ(json["gate"]["failing_cases"], 5);
  EXPECT_EQ(json["gate"]["reasons"].size(), 4u);
  EXPECT_EQ(json["totals"]["cases"], 12);
  EXPECT_EQ(json["totals"]["by_status"]["Pass"], 4);
  EXPECT_EQ(json["totals"]["by_status"]["Fail"], 2);
  EXPECT_EQ(json["totals"]["by_status"]["Crash"], 1);
  EXPECT_FALSE(json["totals"]["by_status"].contains("Waived"));
  ASSERT_EQ(json["backends"].size(), 2u);
  EXPECT_EQ(json["backends"][0]["name"], "cpu-simd");
  EXPECT_EQ(json["backends"][0]["claim_holds"], true);
  EXPECT_EQ(json["backends"][1]["name"], "vulkan");
  EXPECT_EQ(json["backends"][1]["claim_holds"], false);
  EXPECT_EQ(json["backends"][1]["feature_level"], "4_0");
  EXPECT_EQ(json["matrix"].size(), 11u);
  ASSERT_EQ(json["failure_groups"].size(), 4u);
  EXPECT_EQ(json["failure_groups"][0]["cases"].size(), 2u);
  EXPECT_EQ(json["failure_groups"][0]["cases"][0]["repro"],
            "opcts repro --backend cpu-simd dml_cumulative_product.f32.rank2.axis1.s1");
  EXPECT_EQ(json["failure_groups"][0]["cases"][0]["max_error"], 0.5);
  EXPECT_EQ(json["waived"].size(), 0u);
  ASSERT_EQ(json["sources"].size(), 2u);
  EXPECT_EQ(json["sources"][1]["path"], "vulkan.jsonl");
  EXPECT_EQ(json["sources"][1]["planned_cases"], 4);
}

TEST(JsonSummary, WaivedCasesListed) {
  const auto json = nlohmann::json::parse(RenderJsonSummary(Build(true)));
  EXPECT_EQ(json["totals"]["by_status"]["Waived"], 2);
  ASSERT_EQ(json["waived"].size(), 2u);
  EXPECT_EQ(json["waived"][0]["journal_status"], "Fail");
  EXPECT_EQ(json["waived"][0]["status"], "Waived");
  EXPECT_EQ(json["gate"]["failing_cases"], 3);
  EXPECT_EQ(json["warnings"].size(), 1u);
}

TEST(Junit, WellFormedWithExpectedCounts) {
  const std::string xml = RenderJunit(Build(false));
  const XmlDocument document = ParseXml(xml);
  ASSERT_EQ(document.error, "") << xml;
  const auto& root = document.elements[0];
  EXPECT_EQ(root.name, "testsuites");
  EXPECT_EQ(root.attributes.at("tests"), "12");
  EXPECT_EQ(root.attributes.at("failures"), "4");  // Fail x2, InvalidAccepted, ClaimViolation
  EXPECT_EQ(root.attributes.at("errors"), "1");    // Crash
  EXPECT_EQ(root.attributes.at("skipped"), "1");   // NotSupported
  EXPECT_EQ(root.attributes.at("time"), "0.001194");
  EXPECT_EQ(document.Count("testsuite"), 6u);
  EXPECT_EQ(document.Count("testcase"), 12u);
  EXPECT_EQ(document.Count("failure"), 4u);
  EXPECT_EQ(document.Count("error"), 1u);
  EXPECT_EQ(document.Count("skipped"), 1u);
  EXPECT_EQ(document.Count("system-out"), 1u);  // the QualityWarning note
}

TEST(Junit, FailureCarriesMessageAndRepro) {
  const XmlDocument document = ParseXml(RenderJunit(Build(false)));
  ASSERT_EQ(document.error, "");
  const testing::XmlElement* failure = nullptr;
  const testing::XmlElement* skipped = nullptr;
  for (const auto& element : document.elements) {
    if (element.name == "failure" && !failure) failure = &element;
    if (element.name == "skipped") skipped = &element;
  }
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->attributes.at("type"), "Fail");
  EXPECT_EQ(failure->attributes.at("message"),
            "Fail: index 3: got 1.5 expected 2 <script>document.title='pwned'</script>");
  EXPECT_EQ(failure->text,
            "index 3: got 1.5 expected 2 <script>document.title='pwned'</script>\n"
            "max_error=0.5 bound=1e-05 ulp=4e+06\n"
            "repro: opcts repro --backend cpu-simd dml_cumulative_product.f32.rank2.axis1.s1");
  ASSERT_TRUE(skipped);
  EXPECT_EQ(skipped->attributes.at("message"), "NotSupported: UINT8 indices not supported");
}

TEST(Junit, WaivedAreSkippedAndExpiredWaiverFails) {
  const std::string xml = RenderJunit(Build(true));
  const XmlDocument document = ParseXml(xml);
  ASSERT_EQ(document.error, "") << xml;
  const auto& root = document.elements[0];
  EXPECT_EQ(root.attributes.at("tests"), "13");    // 12 cases + the expired waiver
  EXPECT_EQ(root.attributes.at("failures"), "3");  // InvalidAccepted, ClaimViolation, waiver
  EXPECT_EQ(root.attributes.at("errors"), "1");
  EXPECT_EQ(root.attributes.at("skipped"), "3");  // NotSupported + 2 Waived
  EXPECT_NE(xml.find("classname=\"opcts.gate\""), std::string::npos);
  EXPECT_NE(xml.find("expired on 2025-06-30"), std::string::npos);
}

TEST(Markdown, ContainsVerdictAndBackendTable) {
  const std::string markdown = RenderMarkdown(Build(false));
  EXPECT_EQ(markdown.rfind("## opcts conformance: ❌ failed\n", 0), 0u) << markdown;
  EXPECT_NE(markdown.find("| Backend | Version | Device | Claimed level | Claim holds | Cases | "
                          "Pass | Fail | QualityWarning | NotSupported | InvalidRejected | "
                          "InvalidAccepted | ClaimViolation | Crash |\n"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| cpu-simd | 1.0 | x86-64 AVX2 | 5\\_0 | yes | 8 | 3 | 2 | 1 | 1 | 1 | "
                          "0 | 0 | 0 |\n"),
            std::string::npos);
  EXPECT_NE(markdown.find("| vulkan | 0.3 | llvmpipe (LLVM 15.0.6, 256 bits) | 4\\_0 | **no** | 4 "
                          "| 1 | 0 | 0 | 0 | 0 | 1 | 1 | 1 |\n"),
            std::string::npos);
  EXPECT_NE(markdown.find("| **total** | | | | | 12 | 4 | 2 | 1 | 1 | 1 | 1 | 1 | 1 |\n"),
            std::string::npos);
  EXPECT_NE(
      markdown.find("  opcts repro --backend cpu-simd dml_cumulative_product.f32.rank2.axis1.s1\n"),
      std::string::npos);
  EXPECT_EQ(markdown.find("<script>"), std::string::npos);
  EXPECT_NE(markdown.find("&lt;script&gt;"), std::string::npos);
}

TEST(Markdown, PassingReport) {
  auto report = BuildReport(LoadJournals({"shard0of3.jsonl"}), {}, {});
  ASSERT_TRUE(report.value);
  const std::string markdown = RenderMarkdown(*report.value);
  EXPECT_EQ(markdown.rfind("## opcts conformance: ✅ passed\n", 0), 0u) << markdown;
  EXPECT_EQ(markdown.find("Failures by cause"), std::string::npos);
}

TEST(Html, EscapesJournalText) {
  const std::string html = RenderHtml(Build(false));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"),
            std::string::npos);
}

TEST(Html, EscapesBackendNamesEverywhere) {
  const std::string text = testing::HeaderLine("<b>bold</b>") + "\n" +
                           testing::CaseLine("<b>bold</b>", "x.<i>.s1", "Fail", "<img src=x>") +
                           "\n";
  auto journal = ParseJournal(text, "inline.jsonl");
  ASSERT_TRUE(journal.value) << journal.error;
  const auto report = BuildReport({{"inline.jsonl", *journal.value}}, {}, {});
  ASSERT_TRUE(report.value) << report.error;
  const std::string html = RenderHtml(*report.value);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;bold&lt;/b&gt;"), std::string::npos);
  const std::string junit = RenderJunit(*report.value);
  EXPECT_EQ(ParseXml(junit).error, "") << junit;
  EXPECT_EQ(RenderMarkdown(*report.value).find("<b>"), std::string::npos);
}

TEST(Html, MatrixClaimsAndPlot) {
  const std::string html = RenderHtml(Build(false));
  EXPECT_NE(html.find("<title>opcts conformance report</title>"), std::string::npos);
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"s-Crash\" data-backend=\"vulkan\" data-op=\"DML_SCATTER_ND\" "
                      "data-dtype=\"INT32\" data-rank=\"rank5-8\" data-status=\"Crash\""),
            std::string::npos);
  EXPECT_NE(html.find("data-dtype=\"FLOAT32\" data-rank=\"rank2-4\" data-status=\"Fail\""),
            std::string::npos);
  EXPECT_NE(html.find("no: 1 ClaimViolation"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "<table class=\"matrix\""), 4u);  // one per operator
  EXPECT_EQ(Occurrences(html, "<svg"), 1u);
  EXPECT_EQ(Occurrences(html, "<circle"), 6u);  // the six cases with error and bound
  EXPECT_EQ(Occurrences(html, "<details class=\"failure-group\""), 4u);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // nothing fetched
  EXPECT_EQ(html.find("https://"), std::string::npos);
}

}  // namespace
}  // namespace opcts
