#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reports/html_report.h"
#include "reports/json_summary.h"
#include "reports/junit_report.h"
#include "reports/markdown_report.h"
#include "reports/report_model.h"
#include "reports/test_support.h"
#include "reports/text_escape.h"
#include "reports/xml_check.h"

namespace opcts {
namespace {

using testing::CaseLineWith;
using testing::LoadJournals;
using testing::ParseXml;
using testing::Testdata;
using testing::XmlDocument;

Report Build(bool with_waivers, const std::string& interrupted = "") {
  std::vector<Waiver> waivers;
  if (with_waivers) waivers = LoadWaivers(Testdata("waivers.yaml")).value();
  auto report = BuildReport(LoadJournals({"cpu_simd.jsonl", "vulkan.jsonl"}), waivers,
                            {false, "2026-01-01", {}, interrupted});
  EXPECT_TRUE(report.ok()) << report.error().message;
  return std::move(report).value();
}

// The <property> values of the JUnit suite `suite`, by name.
std::map<std::string, std::string> SuiteProperties(const XmlDocument& document,
                                                   const std::string& suite) {
  std::map<std::string, std::string> properties;
  bool inside = false;
  for (const auto& element : document.elements) {
    if (element.name == "testsuite") inside = element.attributes.at("name") == suite;
    if (inside && element.name == "property") {
      properties[element.attributes.at("name")] = element.attributes.at("value");
    }
  }
  return properties;
}

// The sum of the suites' skipped counts.
uint64_t SkippedInSuites(const XmlDocument& document) {
  uint64_t skipped = 0;
  for (const auto& element : document.elements) {
    if (element.name == "testsuite") skipped += std::stoull(element.attributes.at("skipped"));
  }
  return skipped;
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
  EXPECT_EQ(json["format"], "opcts-report/2");
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
  ASSERT_EQ(json["matrix"].size(), 9u);
  const auto& product = json["matrix"][0];  // by operator first
  EXPECT_EQ(product["op"], "DML_CUMULATIVE_PRODUCT");
  EXPECT_EQ(product["highest_passing"], nullptr);
  EXPECT_EQ(product["pass_rate"], 0.0);
  EXPECT_EQ(product["levels"][0]["level"], "3_1");
  EXPECT_EQ(product["levels"][0]["worst"], "Fail");
  EXPECT_EQ(product["rank_classes"][0]["rank_class"], "rank2-4");
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

TEST(JsonSummary, CoverageArray) {
  const auto json = nlohmann::json::parse(RenderJsonSummary(Build(false)));
  ASSERT_EQ(json["coverage"].size(), 6u);
  const auto& scatter = json["coverage"][2];
  EXPECT_EQ(scatter["backend"], "cpu-simd");
  EXPECT_EQ(scatter["op"], "DML_SCATTER_ND");
  EXPECT_EQ(scatter["levels"], nlohmann::json::parse(R"(["3_0", "5_0"])"));
  EXPECT_EQ(scatter["highest_passing"], "3_0");
  EXPECT_EQ(scatter["cases"], 3);
  EXPECT_EQ(scatter["passing"], 2);
  EXPECT_DOUBLE_EQ(scatter["pass_rate"].get<double>(), 2.0 / 3.0);
  EXPECT_TRUE(json["coverage"][1]["highest_passing"].is_null());  // the failing product
}

TEST(Junit, SuitesCarryRunFactsAndCoverage) {
  const std::string xml = RenderJunit(Build(false));
  const Result<XmlDocument> document = ParseXml(xml);
  ASSERT_TRUE(document.ok()) << document.error().message << "\n" << xml;
  EXPECT_EQ(document->Count("properties"), 6u);
  EXPECT_EQ(document->Count("property"), 60u);
  EXPECT_EQ(SuiteProperties(*document, "cpu-simd.DML_SCATTER_ND"),
            (std::map<std::string, std::string>{{"opcts.backend", "cpu-simd"},
                                                {"opcts.backend_version", "1.0"},
                                                {"opcts.device", "x86-64 AVX2"},
                                                {"opcts.claimed_level", "5_0"},
                                                {"opcts.seed", "1"},
                                                {"opcts.version", "0.1.0"},
                                                {"opcts.highest_passing_level", "3_0"},
                                                {"opcts.pass_rate", "0.666666"},
                                                {"opcts.cases", "3"},
                                                {"opcts.passing", "2"}}));
  const auto product = SuiteProperties(*document, "cpu-simd.DML_CUMULATIVE_PRODUCT");
  EXPECT_EQ(product.at("opcts.highest_passing_level"), "none");
  EXPECT_EQ(product.at("opcts.pass_rate"), "0.000000");
  const auto cumsum = SuiteProperties(*document, "vulkan.OPENVINO_CUMSUM_3");
  EXPECT_EQ(cumsum.at("opcts.backend"), "vulkan");
  EXPECT_EQ(cumsum.at("opcts.backend_version"), "0.3");
  EXPECT_EQ(cumsum.at("opcts.device"), "llvmpipe (LLVM 15.0.6, 256 bits)");
  EXPECT_EQ(cumsum.at("opcts.claimed_level"), "4_0");
}

// A backend's suites give the seeds and opcts versions of the journals that ran it, each once:
// the shards of one run agree; separate runs of one backend are joined by ", ".
TEST(Junit, SeedsAndVersionsOfTheBackendsJournals) {
  const auto header = [](const std::string& backend, uint64_t seed, const std::string& version) {
    auto line = nlohmann::json::parse(testing::HeaderLine(backend, seed));
    line["opcts_version"] = version;
    return line.dump() + "\n";
  };
  auto journals = LoadJournals({"shard0of3.jsonl", "shard1of3.jsonl", "shard2of3.jsonl"});
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"gpu1.jsonl", header("gpu", 1, "0.1.0") + testing::CaseLine("gpu", "a", "Pass")},
           {"npu.jsonl", header("npu", 3, "0.1.0") + testing::CaseLine("npu", "a", "Pass")},
           {"gpu7.jsonl", header("gpu", 7, "0.2.0") + testing::CaseLine("gpu", "b", "Pass")},
           {"gpu1b.jsonl", header("gpu", 1, "0.2.0") + testing::CaseLine("gpu", "c", "Pass")}}) {
    auto journal = ParseJournal(text, name);
    ASSERT_TRUE(journal.ok()) << journal.error().message;
    journals.push_back({name, *journal});
  }
  const auto report = BuildReport(journals, {}, {});
  ASSERT_TRUE(report.ok()) << report.error().message;
  const std::string xml = RenderJunit(*report);
  const Result<XmlDocument> document = ParseXml(xml);
  ASSERT_TRUE(document.ok()) << document.error().message << "\n" << xml;
  const auto shards = SuiteProperties(*document, "cpu-reference.DML_CUMULATIVE_SUMMATION");
  EXPECT_EQ(shards.at("opcts.seed"), "5");
  EXPECT_EQ(shards.at("opcts.version"), "0.1.0");
  const auto gpu = SuiteProperties(*document, "gpu.DML_CUMULATIVE_SUMMATION");
  EXPECT_EQ(gpu.at("opcts.seed"), "1, 7");
  EXPECT_EQ(gpu.at("opcts.version"), "0.1.0, 0.2.0");
  const auto npu = SuiteProperties(*document, "npu.DML_CUMULATIVE_SUMMATION");
  EXPECT_EQ(npu.at("opcts.seed"), "3");
  EXPECT_EQ(npu.at("opcts.version"), "0.1.0");
}

TEST(Junit, WellFormedWithExpectedCounts) {
  const std::string xml = RenderJunit(Build(false));
  const Result<XmlDocument> document = ParseXml(xml);
  ASSERT_TRUE(document.ok()) << document.error().message << "\n" << xml;
  const auto& root = document->elements[0];
  EXPECT_EQ(root.name, "testsuites");
  EXPECT_EQ(root.attributes.at("tests"), "12");
  EXPECT_EQ(root.attributes.at("failures"), "4");   // Fail x2, InvalidAccepted, ClaimViolation
  EXPECT_EQ(root.attributes.at("errors"), "1");     // Crash
  EXPECT_EQ(root.attributes.count("skipped"), 0u);  // junit-10.xsd: only on a <testsuite>
  EXPECT_EQ(SkippedInSuites(*document), 1u);        // NotSupported
  EXPECT_EQ(root.attributes.at("time"), "0.001194");
  EXPECT_EQ(document->Count("testsuite"), 6u);
  EXPECT_EQ(document->Count("testcase"), 12u);
  EXPECT_EQ(document->Count("failure"), 4u);
  EXPECT_EQ(document->Count("error"), 1u);
  EXPECT_EQ(document->Count("skipped"), 1u);
  EXPECT_EQ(document->Count("system-out"), 1u);  // the QualityWarning note
}

TEST(Junit, FailureCarriesMessageAndRepro) {
  const Result<XmlDocument> document = ParseXml(RenderJunit(Build(false)));
  ASSERT_TRUE(document.ok()) << document.error().message;
  const testing::XmlElement* failure = nullptr;
  const testing::XmlElement* skipped = nullptr;
  for (const auto& element : document->elements) {
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
  const Result<XmlDocument> document = ParseXml(xml);
  ASSERT_TRUE(document.ok()) << document.error().message << "\n" << xml;
  const auto& root = document->elements[0];
  EXPECT_EQ(root.attributes.at("tests"), "13");    // 12 cases + the expired waiver
  EXPECT_EQ(root.attributes.at("failures"), "3");  // InvalidAccepted, ClaimViolation, waiver
  EXPECT_EQ(root.attributes.at("errors"), "1");
  EXPECT_EQ(SkippedInSuites(*document), 3u);  // NotSupported + 2 Waived
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
  EXPECT_NE(markdown.find("  - smallest (15 elements, cpu-simd): `opcts repro --backend cpu-simd "
                          "dml_cumulative_product.f32.rank2.axis1.s1`\n"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("### Failures by cause (4 group(s))"), std::string::npos);
  EXPECT_EQ(markdown.find("<script>"), std::string::npos);
  EXPECT_NE(markdown.find("&lt;script&gt;"), std::string::npos);
}

TEST(Markdown, CoverageTableRightAfterTheVerdict) {
  const std::string markdown = RenderMarkdown(Build(false));
  const size_t coverage = markdown.find(
      "### Coverage\n\n| Backend | Operator | Highest fully "
      "passing level | Pass rate | Levels |\n");
  ASSERT_NE(coverage, std::string::npos) << markdown;
  EXPECT_LT(markdown.find("- ❌ 1 case(s) with status Crash"), coverage);
  EXPECT_LT(coverage, markdown.find("| Backend | Version |"));
  EXPECT_NE(
      markdown.find("| cpu-simd | DML\\_SCATTER\\_ND | 3\\_0 | 66.6 % (2/3) | 3\\_0, 5\\_0 |\n"),
      std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| cpu-simd | DML\\_CUMULATIVE\\_PRODUCT | **none** | 0.0 % (0/2) | "
                          "3\\_1 |\n"),
            std::string::npos)
      << markdown;
}

TEST(Markdown, PassingReport) {
  auto report = BuildReport(LoadJournals({"shard0of3.jsonl"}), {}, {});
  ASSERT_TRUE(report.ok());
  const std::string markdown = RenderMarkdown(*report);
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
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  const auto report = BuildReport({{"inline.jsonl", *journal}}, {}, {});
  ASSERT_TRUE(report.ok()) << report.error().message;
  const std::string html = RenderHtml(*report);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;bold&lt;/b&gt;"), std::string::npos);
  const std::string junit = RenderJunit(*report);
  const Result<XmlDocument> document = ParseXml(junit);
  EXPECT_TRUE(document.ok()) << document.error().message << "\n" << junit;
  EXPECT_EQ(RenderMarkdown(*report).find("<b>"), std::string::npos);
}

TEST(Html, CoverageTableNearTheTop) {
  const std::string html = RenderHtml(Build(false));
  const size_t coverage = html.find("<table id=\"coverage\">");
  ASSERT_NE(coverage, std::string::npos);
  EXPECT_LT(html.find("id=\"gate-reasons\""), coverage);
  EXPECT_LT(coverage, html.find("<table id=\"sources\">"));
  EXPECT_NE(html.find("<tr data-backend=\"cpu-simd\" data-op=\"DML_SCATTER_ND\"><td>cpu-simd</td>"
                      "<td>DML_SCATTER_ND</td><td class=\"s-QualityWarning\">3_0</td>"
                      "<td class=\"num\">66.6 % (2/3)</td><td>3_0, 5_0</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"s-Fail\">none</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"s-Pass\">2_1</td>"), std::string::npos);
}

TEST(ReportWriters, InterruptedRunShowsInEveryFormat) {
  const Report report = Build(false, "interrupted by SIGINT");
  const std::string reason =
      "the run was interrupted by SIGINT: the journal holds only the cases finished before it";
  const auto json = nlohmann::json::parse(RenderJsonSummary(report));
  EXPECT_EQ(json["gate"]["reasons"].back(), reason);
  EXPECT_NE(RenderMarkdown(report).find("- ❌ " + reason + "\n"), std::string::npos);
  EXPECT_NE(RenderHtml(report).find("<li>" + reason + "</li>"), std::string::npos);
  const Result<XmlDocument> junit = ParseXml(RenderJunit(report));
  ASSERT_TRUE(junit.ok()) << junit.error().message;
  bool found = false;
  for (const auto& element : junit->elements) {
    found |= element.name == "failure" && element.attributes.at("message") == reason;
  }
  EXPECT_TRUE(found);
}

TEST(ReportWriters, ALeakShowsInJsonMarkdownAndHtml) {
  auto journals = LoadJournals({"cpu_simd.jsonl"});
  MemoryRecord leak;
  leak.backend = "cpu-simd";
  leak.cases = 200;
  leak.first_bytes = 1 << 20;
  leak.last_bytes = leak.peak_bytes = 201 << 20;
  leak.growth_per_case = 1 << 20;
  leak.leaking = true;
  journals[0].journal.memory.push_back(leak);
  const auto report = BuildReport(journals, {}, {false, "2026-01-01", {}, ""});
  ASSERT_TRUE(report.ok()) << report.error().message;
  const std::string text = DescribeLeak(leak);
  const auto json = nlohmann::json::parse(RenderJsonSummary(*report));
  EXPECT_EQ(json["backends"][0]["memory"]["leak"]["text"], text);
  EXPECT_EQ(json["backends"][0]["memory"]["peak_resident_bytes"], 201 << 20);
  EXPECT_NE(RenderMarkdown(*report).find("- **cpu-simd leaks memory**: " + text + "\n"),
            std::string::npos);
  EXPECT_NE(RenderHtml(*report).find("LEAKS MEMORY: " + text), std::string::npos);
}

TEST(ReportText, TerminalSafeRemovesForgedStatusLines) {
  EXPECT_EQ(TerminalSafe("\x1b[2K\rPass cpu-simd dml_scatter_nd.i32.rank1.s1"),
            " Pass cpu-simd dml_scatter_nd.i32.rank1.s1");
  EXPECT_EQ(TerminalSafe("a\x1b[1;31mred\x1b[0m b"), "ared b");
  EXPECT_EQ(TerminalSafe("\x1b]0;pwned\x07title\x1b]8;;http://x\x1b\\link"), "titlelink");
  EXPECT_EQ(TerminalSafe("x\x1b"
                         "7y\x1b"),
            "xy");  // ESC 7 (save cursor); a lone last ESC
  EXPECT_EQ(TerminalSafe("tab\tnew\nline\x7f\x01"
                         "end"),
            "tab new line  end");
  EXPECT_EQ(TerminalSafe("\x1b[2"), "");  // cut off by the end
}

TEST(ReportText, TerminalSafeKeepsUtf8AndDropsC1AndInvalidBytes) {
  EXPECT_EQ(TerminalSafe("größe \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "größe \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(TerminalSafe("a\xC2\x9B"
                         "31mb"),
            "a 31mb");  // U+009B, the one-byte CSI
  EXPECT_EQ(TerminalSafe("a\x9B"
                         "31mb\xC3"),
            "a\xEF\xBF\xBD"
            "31mb\xEF\xBF\xBD");
  EXPECT_EQ(TerminalSafe("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
}

TEST(ReportText, FormatPassRateRoundsDown) {
  EXPECT_EQ(FormatPassRate(1234, 1268), "97.3 % (1234/1268)");
  EXPECT_EQ(FormatPassRate(1999, 2000), "99.9 % (1999/2000)");  // not 100.0 % until all pass
  EXPECT_EQ(FormatPassRate(3, 3), "100.0 % (3/3)");
  EXPECT_EQ(FormatPassRate(0, 0), "0.0 % (0/0)");
}

TEST(Html, MatrixClaimsAndPlot) {
  const std::string html = RenderHtml(Build(false));
  EXPECT_NE(html.find("<title>opcts conformance report</title>"), std::string::npos);
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  // The vulkan INT32 row of DML_SCATTER_ND: its crash at level 3_0 and in rank5-8, linking to
  // the crash's group.
  const size_t scatter = html.find("<table class=\"matrix\" data-op=\"DML_SCATTER_ND\"");
  const size_t row = html.find("<tr data-backend=\"vulkan\" data-dtype=\"INT32\">", scatter);
  ASSERT_NE(row, std::string::npos);
  const std::string crash_row = html.substr(row, html.find("</tr>", row) - row);
  EXPECT_NE(crash_row.find("<td class=\"s-Crash\" data-level=\"3_0\" data-status=\"Crash\" "
                           "title=\"Crash 1\"><a href=\"#group-2\">0/1</a></td>"),
            std::string::npos)
      << crash_row;
  EXPECT_NE(crash_row.find("data-rank=\"rank5-8\" data-status=\"Crash\""), std::string::npos);
  EXPECT_NE(crash_row.find("<td class=\"highest\">none</td>"), std::string::npos);
  EXPECT_NE(html.find("<details class=\"failure-group\" id=\"group-2\" open><summary><span "
                      "class=\"s-Crash\">"),
            std::string::npos);
  EXPECT_NE(html.find("no: 1 ClaimViolation"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "<table class=\"matrix\""), 4u);  // one per operator
  // Headroom: one plot per float dtype with an error and a bound; the product Fails in red.
  EXPECT_EQ(Occurrences(html, "<svg"), 2u);
  EXPECT_NE(html.find("<svg class=\"headroom\" data-dtype=\"FLOAT16\""), std::string::npos);
  EXPECT_EQ(Occurrences(html, "class=\"beyond\""), 1u);
  EXPECT_EQ(Occurrences(html, "<details class=\"failure-group\""), 4u);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // nothing fetched
  EXPECT_EQ(html.find("https://"), std::string::npos);
}

// The journal's `behaviour` (what a backend did with data it may refuse) is counted per backend
// and shown by the JSON, Markdown and HTML reports.
TEST(ReportWriters, RecordedBehavioursAreCountedPerBackend) {
  const std::string header =
      R"({"type":"header","format":"opcts-journal/1","seed":1,"planned_cases":3})";
  const std::string text =
      header + "\n" +
      CaseLineWith("gpu", "a", "Pass",
                   {{"group", "valid"}, {"behaviour", "out-of-range indices skipped"}}) +
      "\n" +
      CaseLineWith("gpu", "b", "Pass",
                   {{"group", "valid"}, {"behaviour", "out-of-range indices skipped"}}) +
      "\n" + CaseLineWith("gpu", "c", "Pass", {{"group", "valid"}}) + "\n";
  auto journal = ParseJournal(text, "behaviours.jsonl");
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  EXPECT_EQ(journal->cases[0].behaviour, "out-of-range indices skipped");
  EXPECT_EQ(ToJsonLine(journal->cases[2]).find("behaviour"), std::string::npos);
  const auto report = BuildReport({{"behaviours.jsonl", *journal}}, {}, {});
  ASSERT_TRUE(report.ok()) << report.error().message;
  const auto json = nlohmann::json::parse(RenderJsonSummary(*report));
  EXPECT_EQ(json["backends"][0]["behaviours"]["out-of-range indices skipped"], 2);
  EXPECT_NE(RenderMarkdown(*report).find("gpu: out-of-range indices skipped (2 case(s))"),
            std::string::npos);
  EXPECT_NE(RenderHtml(*report).find("out-of-range indices skipped: 2"), std::string::npos);
}

// A case's behaviours are counted one by one; a passing case that only the platform's float
// rules let pass is counted once more per backend, and the float rules of the run are shown.
TEST(ReportWriters, PlatformFloatRulePassesAreCounted) {
  const std::string header =
      R"({"type":"header","format":"opcts-journal/1","seed":1,"planned_cases":4,)"
      R"("options":{"float_rules":"platform"}})";
  const std::string text =
      header + "\n" +
      CaseLineWith("gpu", "a", "Pass",
                   {{"group", "valid"},
                    {"behaviour", "out-of-range indices skipped; flushes FLOAT32 subnormals"}}) +
      "\n" +
      CaseLineWith("gpu", "b", "Pass",
                   {{"group", "valid"},
                    {"behaviour", "flushes FLOAT32 subnormals and truncates FLOAT32 arithmetic"}}) +
      "\n" +
      CaseLineWith("gpu", "c", "Pass",
                   {{"group", "valid"}, {"behaviour", "out-of-range indices skipped"}}) +
      "\n" +
      CaseLineWith("gpu", "d", "Fail",
                   {{"group", "valid"}, {"behaviour", "truncates FLOAT32 arithmetic"}}) +
      "\n";
  auto journal = ParseJournal(text, "platform.jsonl");
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  const auto report = BuildReport({{"platform.jsonl", *journal}}, {}, {});
  ASSERT_TRUE(report.ok()) << report.error().message;
  const BackendSummary& gpu = report->backends.at(0);
  EXPECT_EQ(gpu.platform_rule_passes, 2u);  // a and b; d failed anyway
  EXPECT_EQ(gpu.behaviours.at("out-of-range indices skipped"), 2u);
  EXPECT_EQ(gpu.behaviours.at("flushes FLOAT32 subnormals"), 1u);
  const auto json = nlohmann::json::parse(RenderJsonSummary(*report));
  EXPECT_EQ(json["backends"][0]["platform_rule_passes"], 2);
  EXPECT_EQ(json["sources"][0]["float_rules"], "platform");
  const std::string markdown = RenderMarkdown(*report);
  EXPECT_NE(markdown.find("Float results judged with `--float-rules platform`."),
            std::string::npos);
  EXPECT_NE(markdown.find("- gpu: 2 case(s) passed only under the platform's float rules "
                          "(`--float-rules ieee` fails them)"),
            std::string::npos)
      << markdown;
  const std::string html = RenderHtml(*report);
  EXPECT_NE(html.find("passed only under the platform&#39;s float rules: 2"), std::string::npos)
      << html;
  EXPECT_NE(html.find("<td>platform</td>"), std::string::npos);
}

TEST(Journal, BehavioursSplitAtTheSeparator) {
  EXPECT_EQ(SplitBehaviours(""), std::vector<std::string>{});
  EXPECT_EQ(SplitBehaviours("a; b and c"), (std::vector<std::string>{"a", "b and c"}));
  EXPECT_TRUE(IsPlatformFloatBehaviour("flushes FLOAT32 subnormals"));
  EXPECT_TRUE(IsPlatformFloatBehaviour("truncates FLOAT32 arithmetic"));
  EXPECT_FALSE(IsPlatformFloatBehaviour("out-of-range indices skipped"));
}

}  // namespace
}  // namespace opcts
