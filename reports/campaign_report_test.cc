// The campaign report in its three formats: the figures, new and known findings apart, and
// every string from a backend or a target escaped.
#include "reports/campaign_report.h"

#include <gtest/gtest.h>

namespace opcts {
namespace {

FuzzCampaign Example() {
  FuzzCampaign c;
  c.version = "0.1.0";
  c.backend = "vendor<x>";
  c.seconds = 60;
  c.jobs = 2;
  c.started = "2026-11-24T10:00:00Z";
  c.triage_limit = 30;
  c.fuzz_seconds = 60.4;
  c.triage_seconds = 4.2;
  TargetCampaign t;
  t.target = "opcts_fuzz_dml_scatter_nd";
  t.executions = 50000;
  t.seconds = 10;
  t.processes = 2;
  t.corpus_files = 571;
  t.corpus = "merged 812 -> 571 inputs, kept";
  t.coverage.resize(2);
  t.coverage[0].seconds = 0.2;
  t.coverage[0].cov = 400;
  t.coverage[1].seconds = 9.8;
  t.coverage[1].cov = 447;
  c.targets.push_back(t);
  TargetCampaign broken;
  broken.target = "opcts_fuzz_waivers";
  broken.error = "exit 2 before fuzzing";
  c.targets.push_back(broken);
  CampaignFinding fresh;
  fresh.signature = "Fail DML_SCATTER_ND (float): OutputTensor: wrong elements";
  fresh.target = t.target;
  fresh.count = 6712;
  fresh.first_seen = 10.4;
  fresh.summary = "<script>alert(1)</script> | pipe";
  fresh.input = "findings/x";
  fresh.input_bytes = 1;
  fresh.minimized = "29 → 1 bytes in 2 s";
  fresh.vector = "findings/fuzz.dml_scatter_nd.8601bb45.json";
  fresh.repro = "opcts vectors --backend vendor findings/fuzz.dml_scatter_nd.8601bb45.json";
  c.findings.push_back(fresh);
  CampaignFinding known;
  known.signature = "Fail DML_CUMULATIVE_SUMMATION (integer): OutputTensor: wrong elements";
  known.target = "opcts_fuzz_dml_cumulative_summation";
  known.known = "regression r1.json";
  known.count = 30;
  c.findings.push_back(known);
  return c;
}

TEST(CampaignReport, JsonCarriesTheFiguresAndTellsNewFromKnown) {
  const nlohmann::json j = CampaignToJson(Example());
  EXPECT_EQ(j["format"], "opcts-fuzz-campaign/1");
  EXPECT_EQ(j["new_findings"], 1);
  EXPECT_EQ(j["targets"][0]["executions"], 50000);
  EXPECT_DOUBLE_EQ(j["targets"][0]["exec_per_sec"].get<double>(), 5000);
  EXPECT_EQ(j["targets"][0]["coverage"].size(), 2u);
  EXPECT_EQ(j["targets"][1]["error"], "exit 2 before fuzzing");
  EXPECT_EQ(j["findings"][0]["new"], true);
  EXPECT_EQ(j["findings"][0]["first_seen"], 10.4);
  EXPECT_EQ(j["findings"][1]["new"], false);
  EXPECT_TRUE(j["findings"][1]["first_seen"].is_null());
  EXPECT_EQ(j["findings"][1]["known"], "regression r1.json");
}

TEST(CampaignReport, MarkdownAndHtmlShowEveryFindingEscaped) {
  const FuzzCampaign c = Example();
  const std::string md = CampaignMarkdown(c), html = CampaignHtml(c);
  for (const std::string& page : {md, html}) {
    EXPECT_NE(page.find("1 new finding(s), 1 known"), std::string::npos);
    EXPECT_NE(page.find("6712"), std::string::npos);
    EXPECT_NE(page.find("opcts vectors --backend vendor findings/fuzz.dml_scatter_nd"),
              std::string::npos);
    EXPECT_NE(page.find("regression r1.json"), std::string::npos);
    EXPECT_EQ(page.find("<script>"), std::string::npos);
    EXPECT_EQ(page.find("vendor<x>"), std::string::npos);
  }
  EXPECT_NE(md.find("\\| pipe"), std::string::npos) << "a pipe must not split the table";
  EXPECT_NE(html.find("<polyline"), std::string::npos) << "the coverage plot";
  EXPECT_NE(html.find("400 to 447 edges"), std::string::npos);
  EXPECT_NE(html.find("href=\"findings/fuzz.dml_scatter_nd.8601bb45.json\""), std::string::npos);
  EXPECT_NE(html.find("did not run: exit 2 before fuzzing"), std::string::npos);
}

// A campaign of a backend's options (cpu-simd's target=AVX2) says which, in every format: the same
// backend with other options runs other code.
TEST(CampaignReport, EveryFormatNamesTheBackendOptions) {
  FuzzCampaign c = Example();
  EXPECT_EQ(CampaignToJson(c)["backend_options"], "");
  EXPECT_EQ(CampaignMarkdown(c).find("options"), std::string::npos);
  c.backend_options = "target=AVX2;x=<b>";
  EXPECT_EQ(CampaignToJson(c)["backend_options"], "target=AVX2;x=<b>");
  const std::string md = CampaignMarkdown(c), html = CampaignHtml(c);
  EXPECT_NE(md.find("(options \"target=AVX2;x=&lt;b&gt;\")"), std::string::npos) << md;
  EXPECT_NE(html.find("(options &quot;target=AVX2;x=&lt;b&gt;&quot;)"), std::string::npos) << html;
}

TEST(CampaignReport, NoFindingSaysSo) {
  FuzzCampaign c = Example();
  c.findings.clear();
  EXPECT_NE(CampaignMarkdown(c).find("**no new finding**"), std::string::npos);
  EXPECT_NE(CampaignHtml(c).find("verdict pass"), std::string::npos);
}

}  // namespace
}  // namespace opcts
