#include "reports/junit_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "reports/text_escape.h"

namespace opcts {
namespace {

struct Counts {
  uint64_t tests = 0, failures = 0, errors = 0, skipped = 0, duration_us = 0;
};

enum class Outcome { kPass, kFailure, kError, kSkipped };

Outcome OutcomeOf(const ReportCase& item) {
  const std::string& status = item.status;
  if (status == "NotSupported" || status == "Waived") return Outcome::kSkipped;
  if (!item.gate_failure) return Outcome::kPass;
  if (status == "Crash" || status == "Timeout" || status == "InternalError") return Outcome::kError;
  return Outcome::kFailure;
}

std::string Seconds(uint64_t duration_us) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", duration_us / 1e6);
  return text;
}

std::string CountAttributes(const Counts& counts) {
  return " tests=\"" + std::to_string(counts.tests) + "\" failures=\"" +
         std::to_string(counts.failures) + "\" errors=\"" + std::to_string(counts.errors) +
         "\" skipped=\"" + std::to_string(counts.skipped) + "\" time=\"" +
         Seconds(counts.duration_us) + "\"";
}

void Count(const ReportCase& item, Counts& counts) {
  ++counts.tests;
  counts.duration_us += item.record.duration_us;
  switch (OutcomeOf(item)) {
    case Outcome::kFailure:
      ++counts.failures;
      break;
    case Outcome::kError:
      ++counts.errors;
      break;
    case Outcome::kSkipped:
      ++counts.skipped;
      break;
    case Outcome::kPass:
      break;
  }
}

// The text of a failure: the backend's message, the accuracy numbers, the repro command.
std::string Details(const CaseRecord& record) {
  std::string text = record.message;
  if (record.max_error || record.bound || record.ulp) {
    text += "\nmax_error=" + FormatNumber(record.max_error) +
            " bound=" + FormatNumber(record.bound) + " ulp=" + FormatNumber(record.ulp);
  }
  if (!record.repro.empty()) text += "\nrepro: " + record.repro;
  return text;
}

void WriteCase(const ReportCase& item, std::ostringstream& out) {
  const CaseRecord& record = item.record;
  out << "    <testcase name=\"" << EscapeXml(record.id) << "\" classname=\"opcts."
      << EscapeXml(record.backend) << "." << EscapeXml(record.op) << "\" time=\""
      << Seconds(record.duration_us) << "\"";
  const std::string details = Details(record);
  switch (OutcomeOf(item)) {
    case Outcome::kPass:
      if (record.status == "QualityWarning") {
        out << ">\n      <system-out>QualityWarning: " << EscapeXml(details) << "</system-out>\n"
            << "    </testcase>\n";
      } else {
        out << "/>\n";
      }
      return;
    case Outcome::kSkipped: {
      std::string reason =
          item.status == "Waived"
              ? "Waived (" + item.waiver + "); " + record.status + ": " + record.message
              : "NotSupported: " +
                    (record.message.empty() ? std::string("no reason given") : record.message);
      out << ">\n      <skipped message=\"" << EscapeXml(reason) << "\"/>\n    </testcase>\n";
      return;
    }
    case Outcome::kFailure:
    case Outcome::kError: {
      const char* element = OutcomeOf(item) == Outcome::kError ? "error" : "failure";
      out << ">\n      <" << element << " type=\"" << EscapeXml(item.status) << "\" message=\""
          << EscapeXml(item.status + ": " + record.message) << "\">" << EscapeXml(details) << "</"
          << element << ">\n    </testcase>\n";
      return;
    }
  }
}

}  // namespace

std::string RenderJunit(const Report& report) {
  // Suites in order of first appearance of (backend, op).
  std::vector<std::pair<std::string, std::vector<const ReportCase*>>> suites;
  for (const auto& item : report.cases) {
    const std::string name = item.record.backend + "." + item.record.op;
    auto it = std::find_if(suites.begin(), suites.end(),
                           [&](const auto& suite) { return suite.first == name; });
    if (it == suites.end()) it = suites.insert(suites.end(), {name, {}});
    it->second.push_back(&item);
  }
  Counts total;
  for (const auto& item : report.cases) Count(item, total);
  total.tests += report.gate_problems.size();
  total.failures += report.gate_problems.size();
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"opcts\"" << CountAttributes(total) << ">\n";
  for (const auto& [name, cases] : suites) {
    Counts counts;
    for (const ReportCase* item : cases) Count(*item, counts);
    out << "  <testsuite name=\"" << EscapeXml(name) << "\"" << CountAttributes(counts) << ">\n";
    for (const ReportCase* item : cases) WriteCase(*item, out);
    out << "  </testsuite>\n";
  }
  if (!report.gate_problems.empty()) {
    // Expired waivers and incomplete runs fail the gate without being a case; CI must see them.
    Counts counts{report.gate_problems.size(), report.gate_problems.size(), 0, 0, 0};
    out << "  <testsuite name=\"opcts.gate\"" << CountAttributes(counts) << ">\n";
    for (size_t i = 0; i < report.gate_problems.size(); ++i) {
      out << "    <testcase name=\"gate." << i << "\" classname=\"opcts.gate\" time=\"0.000000\">\n"
          << "      <failure type=\"Gate\" message=\"" << EscapeXml(report.gate_problems[i])
          << "\">" << EscapeXml(report.gate_problems[i]) << "</failure>\n    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace opcts
