// Renders a generated report in a real headless Chromium: the matrix cells and the escaped
// <script> text must be in the DOM, no script from a journal may run, and a screenshot must
// come out. Chromium missing is a failure, not a skip: CI installs it (scripts/install-deps.sh).
#include <filesystem>

#include <gtest/gtest.h>

#include "base/shell_output.h"
#include "reports/html_report.h"
#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::ScratchDir;

std::string FindChromium() {
  if (const char* path = std::getenv("OPCTS_CHROMIUM")) return path;
  const ShellOutput found = RunShell("command -v chromium 2>/dev/null");
  return found.exit_code == 0 ? found.output.substr(0, found.output.find('\n')) : "";
}

// Headless flags that keep Chromium off the network and away from the user's profile.
std::string ChromiumCommand(const std::string& chromium, const std::string& profile,
                            const std::string& mode, const std::string& url, int width = 1280) {
  return "timeout 120 '" + chromium +
         "' --headless --no-sandbox --disable-gpu --disable-quic "
         "--no-first-run --disable-background-networking --disable-component-update "
         "--disable-sync --user-data-dir='" +
         profile + "' --window-size=" + std::to_string(width) + ",2400 " + mode + " 'file://" +
         url + "' 2>/dev/null";
}

class HtmlInChromium : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    ASSERT_FALSE(chromium_.empty())
        << "chromium not found: install the Debian package `chromium` (scripts/install-deps.sh) "
           "or set OPCTS_CHROMIUM";
    auto report = BuildReport(testing::LoadJournals({"cpu_simd.jsonl", "vulkan.jsonl"}), {},
                              {false, "2026-01-01", {}, ""});
    ASSERT_TRUE(report.ok()) << report.error().message;
    html_path_ = dir_ / "report.html";
    testing::WriteFile(html_path_, RenderHtml(*report));
  }

  ScratchDir dir_;
  std::string chromium_;
  std::string html_path_;
};

TEST_F(HtmlInChromium, DomHasMatrixAndEscapedScriptThatNeverRan) {
  const auto [dom, status] =
      RunShell(ChromiumCommand(chromium_, dir_ / "profile-dom", "--dump-dom", html_path_));
  ASSERT_EQ(status, 0) << "chromium --dump-dom failed";
  ASSERT_FALSE(dom.empty());
  // The journal's message would set the title if it ran; the DOM holds it only as text.
  EXPECT_NE(dom.find("<title>opcts conformance report</title>"), std::string::npos);
  EXPECT_EQ(dom.find("pwned</title>"), std::string::npos);
  EXPECT_EQ(dom.find("<script"), std::string::npos);
  EXPECT_NE(dom.find("&lt;script&gt;document.title='pwned'&lt;/script&gt;"), std::string::npos)
      << dom.substr(0, 2000);
  // The matrix by level: vulkan's INT32 ScatterND crash at 3_0, linking to its failure group.
  const size_t scatter = dom.find("<table class=\"matrix\" data-op=\"DML_SCATTER_ND\"");
  const size_t row = dom.find("<tr data-backend=\"vulkan\" data-dtype=\"INT32\">", scatter);
  ASSERT_NE(row, std::string::npos) << dom.substr(0, 4000);
  const std::string crash_row = dom.substr(row, dom.find("</tr>", row) - row);
  EXPECT_NE(crash_row.find("data-level=\"3_0\" data-status=\"Crash\""), std::string::npos)
      << crash_row;
  EXPECT_NE(crash_row.find("<a href=\"#group-2\">0/1</a>"), std::string::npos) << crash_row;
  EXPECT_NE(dom.find("data-level=\"3_1\" data-status=\"Fail\""), std::string::npos);
  // Every failure group, with its breakdown and smallest case.
  for (int g = 0; g < 4; ++g)
    EXPECT_NE(dom.find("<details class=\"failure-group\" id=\"group-" + std::to_string(g) + "\""),
              std::string::npos)
        << g;
  EXPECT_NE(dom.find("Smallest failing case (15 elements): <code>opcts repro --backend cpu-simd "
                     "dml_cumulative_product.f32.rank2.axis1.s1</code>"),
            std::string::npos);
  // The headroom plots, the product's failure in red.
  EXPECT_NE(dom.find("<svg class=\"headroom\" data-dtype=\"FLOAT32\""), std::string::npos);
  EXPECT_NE(dom.find("class=\"beyond\""), std::string::npos);
}

// Wide and phone-narrow screenshots (left in the build folder for a person to look at).
TEST_F(HtmlInChromium, ScreenshotsAreWritten) {
  for (const auto& [png, width] : {std::pair<std::string, int>{OPCTS_REPORT_PNG, 1280},
                                   std::pair<std::string, int>{OPCTS_REPORT_NARROW_PNG, 420}}) {
    std::filesystem::remove(png);
    const auto [output, status] =
        RunShell(ChromiumCommand(chromium_, dir_ / ("profile-shot-" + std::to_string(width)),
                                 "--screenshot='" + png + "'", html_path_, width));
    ASSERT_EQ(status, 0) << "chromium --screenshot failed: " << output;
    ASSERT_TRUE(std::filesystem::exists(png)) << png;
    const std::string bytes = testing::ReadFile(png);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    // A blank page compresses to a few KiB; tables, colours and the plots do not.
    EXPECT_GT(bytes.size(), 20000u) << png;
  }
}

}  // namespace
}  // namespace opcts
