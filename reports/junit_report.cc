#include "reports/junit_report.h"

#include <algorithm>
#include <cmath>
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
  if (item.status == Status::kNotSupported || item.status == Status::kWaived) {
    return Outcome::kSkipped;
  }
  if (!item.gate_failure) return Outcome::kPass;
  switch (item.status) {
    case Status::kCrash:
    case Status::kTimeout:
    case Status::kMemoryLimit:
    case Status::kInternalError:
      return Outcome::kError;
    default:
      return Outcome::kFailure;
  }
}

std::string Seconds(uint64_t duration_us) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", duration_us / 1e6);
  return text;
}

std::string CountAttributes(const Counts& counts) {
  return " tests=\"" + std::to_string(counts.tests) + "\" failures=\"" +
         std::to_string(counts.failures) + "\" errors=\"" + std::to_string(counts.errors) +
         "\" time=\"" + Seconds(counts.duration_us) + "\"";
}

// junit-10.xsd allows a skipped count on a <testsuite>, not on <testsuites>.
std::string SuiteStart(const std::string& name, const Counts& counts) {
  return "  <testsuite name=\"" + EscapeXml(name) + "\"" + CountAttributes(counts) + " skipped=\"" +
         std::to_string(counts.skipped) + "\">\n";
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
      if (record.status == Status::kQualityWarning) {
        out << ">\n      <system-out>" << StatusName(record.status) << ": " << EscapeXml(details)
            << "</system-out>\n"
            << "    </testcase>\n";
      } else {
        out << "/>\n";
      }
      return;
    case Outcome::kSkipped: {
      const std::string status(StatusName(item.status));
      const std::string reason =
          item.status == Status::kWaived
              ? status + " (" + item.waiver + "); " + std::string(StatusName(record.status)) +
                    ": " + record.message
              : status + ": " + (record.message.empty() ? "no reason given" : record.message);
      out << ">\n      <skipped message=\"" << EscapeXml(reason) << "\"/>\n    </testcase>\n";
      return;
    }
    case Outcome::kFailure:
    case Outcome::kError: {
      const char* element = OutcomeOf(item) == Outcome::kError ? "error" : "failure";
      const std::string status(StatusName(item.status));
      out << ">\n      <" << element << " type=\"" << EscapeXml(status) << "\" message=\""
          << EscapeXml(status + ": " + record.message) << "\">" << EscapeXml(details) << "</"
          << element << ">\n    </testcase>\n";
      return;
    }
  }
}

std::string Property(const std::string& name, const std::string& value) {
  return "      <property name=\"" + name + "\" value=\"" + EscapeXml(value) + "\"/>\n";
}

// The distinct values of `field` over the journals whose header lists `backend`, in journal
// order, joined by ", ": the shards of one run agree, journals of separate runs may not.
template <typename Field>
std::string JournalFacts(const Report& report, const std::string& backend, Field field) {
  std::vector<std::string> values;
  for (const JournalHeader& header : report.headers) {
    const bool lists =
        std::any_of(header.backends.begin(), header.backends.end(),
                    [&](const BackendRecord& record) { return record.name == backend; });
    if (!lists) continue;
    std::string value = field(header);
    if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end()) {
      values.push_back(std::move(value));
    }
  }
  std::string text;
  for (const std::string& value : values) text += (text.empty() ? "" : ", ") + value;
  return text;
}

// What was tested (backend, its version and device, the level it claims, the seed and opcts
// version of the run) and how far the operator is proven, so CI shows more than what failed.
void WriteProperties(const Report& report, const Coverage& entry, std::ostringstream& out) {
  // Every case's backend has a summary (BuildReport); the first journal's record when several
  // journals describe it.
  const BackendRecord& backend =
      std::find_if(report.backends.begin(), report.backends.end(), [&](const auto& summary) {
        return summary.info.name == entry.backend;
      })->info;
  const std::string seeds = JournalFacts(report, entry.backend, [](const JournalHeader& header) {
    return std::to_string(header.seed);
  });
  const std::string versions = JournalFacts(
      report, entry.backend, [](const JournalHeader& header) { return header.opcts_version; });
  char pass_rate[32];
  std::snprintf(pass_rate, sizeof pass_rate, "%.6f",
                std::floor(entry.PassRate() * 1e6) / 1e6);  // 1.000000 only when all pass
  out << "    <properties>\n"
      << Property("opcts.backend", backend.name)
      << Property("opcts.backend_version", backend.version)
      << Property("opcts.device", backend.device)
      << Property("opcts.claimed_level", backend.feature_level) << Property("opcts.seed", seeds)
      << Property("opcts.version", versions)
      << Property("opcts.highest_passing_level",
                  entry.highest_passing.empty() ? "none" : entry.highest_passing)
      << Property("opcts.pass_rate", pass_rate)
      << Property("opcts.cases", std::to_string(entry.cases))
      << Property("opcts.passing", std::to_string(entry.passing)) << "    </properties>\n";
}

}  // namespace

std::string RenderJunit(const Report& report) {
  // One suite per coverage entry: (backend, op) in order of first appearance.
  std::vector<std::vector<const ReportCase*>> suites(report.coverage.size());
  for (const auto& item : report.cases) {
    const auto entry = std::find_if(report.coverage.begin(), report.coverage.end(), [&](auto& c) {
      return c.backend == item.record.backend && c.op == item.record.op;
    });
    suites[entry - report.coverage.begin()].push_back(&item);
  }
  Counts total;
  for (const auto& item : report.cases) Count(item, total);
  total.tests += report.gate_problems.size();
  total.failures += report.gate_problems.size();
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"opcts\"" << CountAttributes(total) << ">\n";
  for (size_t i = 0; i < suites.size(); ++i) {
    const Coverage& entry = report.coverage[i];
    Counts counts;
    for (const ReportCase* item : suites[i]) Count(*item, counts);
    out << SuiteStart(entry.backend + "." + entry.op, counts);
    WriteProperties(report, entry, out);
    for (const ReportCase* item : suites[i]) WriteCase(*item, out);
    out << "  </testsuite>\n";
  }
  if (!report.gate_problems.empty()) {
    // Interrupted or incomplete runs, expired waivers, missing evidence and unmet levels fail
    // the gate without being a case; CI must see them.
    Counts counts{report.gate_problems.size(), report.gate_problems.size(), 0, 0, 0};
    out << SuiteStart("opcts.gate", counts);
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
