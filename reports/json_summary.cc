#include "reports/json_summary.h"

#include <nlohmann/json.hpp>

namespace opcts {
namespace {

using nlohmann::ordered_json;

ordered_json Counts(const StatusCounts& counts) {
  ordered_json out = ordered_json::object();
  for (const auto& [name, count] : CountsByName(counts)) out[std::string(name)] = count;
  return out;
}

ordered_json CaseSummary(const ReportCase& item) {
  const CaseRecord& record = item.record;
  ordered_json out = {{"id", record.id},
                      {"backend", record.backend},
                      {"op", record.op},
                      {"dtype", record.dtype},
                      {"status", StatusName(item.status)},
                      {"journal_status", StatusName(record.status)},
                      {"message", record.message},
                      {"max_error", JsonNumber(record.max_error)},
                      {"bound", JsonNumber(record.bound)},
                      {"ulp", JsonNumber(record.ulp)},
                      {"repro", record.repro}};
  if (!item.waiver.empty()) out["waiver"] = item.waiver;
  return out;
}

// The workers' peak resident memory (null when not measured: an in-process run) and the
// fastest leak (null when none).
ordered_json Memory(const BackendSummary& backend) {
  ordered_json leak = nullptr;
  if (backend.leak)
    leak = {{"cases", backend.leak->cases},
            {"resident_first", backend.leak->first_bytes},
            {"resident_last", backend.leak->last_bytes},
            {"growth_per_case", backend.leak->growth_per_case},
            {"text", DescribeLeak(*backend.leak)}};
  return {{"peak_resident_bytes", backend.peak_resident_bytes
                                      ? ordered_json(backend.peak_resident_bytes)
                                      : ordered_json(nullptr)},
          {"leak", leak}};
}

// What shrinking the group's smallest case found; null when it was not shrunk.
ordered_json Minimal(const FailureGroup& group) {
  if (!group.minimal) return nullptr;
  return {{"id", group.minimal->id},
          {"shape", group.minimal->shape},
          {"elements", group.minimal->elements},
          {"original_elements", group.minimal->original_elements},
          {"file", group.minimal->file},
          {"repro", group.minimal->repro}};
}

}  // namespace

std::string RenderJsonSummary(const Report& report) {
  ordered_json out;
  out["format"] = kReportFormat;
  out["sources"] = ordered_json::array();
  for (size_t i = 0; i < report.sources.size(); ++i) {
    const JournalHeader& header = report.headers[i];
    out["sources"].push_back(
        {{"path", report.sources[i]},
         {"opcts_version", header.opcts_version},
         {"started", header.started},
         {"seed", header.seed},
         {"shard", {{"index", header.shard_index}, {"count", header.shard_count}}},
         {"planned_cases", header.planned_cases}});
    for (const char* key : {"backend_options", "float_rules"})
      if (const auto it = header.options.find(key);
          it != header.options.end() && !it->second.empty())
        out["sources"].back()[key] = it->second;
  }
  out["strict"] = report.strict;
  out["today"] = report.today;
  out["gate"] = {{"passed", report.Passed()},
                 {"failing_cases", report.gate_failures},
                 {"reasons", report.gate_reasons}};
  out["totals"] = {{"cases", report.cases.size()}, {"by_status", Counts(report.by_status)}};
  out["backends"] = ordered_json::array();
  for (const auto& backend : report.backends) {
    out["backends"].push_back({{"name", backend.info.name},
                               {"version", backend.info.version},
                               {"device", backend.info.device},
                               {"feature_level", backend.info.feature_level},
                               {"extra_support", backend.info.extra_support},
                               {"claim_holds", backend.ClaimHolds()},
                               {"cases", backend.cases},
                               {"by_status", Counts(backend.by_status)},
                               {"behaviours", backend.behaviours},
                               {"platform_rule_passes", backend.platform_rule_passes},
                               {"memory", Memory(backend)}});
  }
  out["coverage"] = ordered_json::array();
  for (const auto& entry : report.coverage) {
    out["coverage"].push_back(
        {{"backend", entry.backend},
         {"op", entry.op},
         {"levels", entry.levels},
         {"highest_passing",
          entry.highest_passing.empty() ? ordered_json() : ordered_json(entry.highest_passing)},
         {"cases", entry.cases},
         {"passing", entry.passing},
         {"pass_rate", entry.PassRate()}});
  }
  out["matrix"] = ordered_json::array();
  for (const MatrixRow& row : report.matrix) {
    const auto cells = [&](const std::vector<MatrixCell>& list, const char* key) {
      ordered_json array = ordered_json::array();
      for (const MatrixCell& cell : list)
        array.push_back({{key, cell.column},
                         {"cases", cell.cases},
                         {"passing", cell.passing},
                         {"pass_rate", cell.PassRate()},
                         {"worst", StatusName(cell.worst)},
                         {"by_status", Counts(cell.by_status)}});
      return array;
    };
    out["matrix"].push_back(
        {{"backend", row.backend},
         {"op", row.op},
         {"dtype", row.dtype},
         {"highest_passing",
          row.highest_passing.empty() ? ordered_json(nullptr) : ordered_json(row.highest_passing)},
         {"cases", row.cases},
         {"passing", row.passing},
         {"pass_rate", row.PassRate()},
         {"levels", cells(row.levels, "level")},
         {"rank_classes", cells(row.rank_classes, "rank_class")}});
  }
  out["failure_groups"] = ordered_json::array();
  for (const auto& group : report.failure_groups) {
    ordered_json cases = ordered_json::array();
    for (const size_t index : group.cases) cases.push_back(CaseSummary(report.cases[index]));
    out["failure_groups"].push_back({{"status", StatusName(group.status)},
                                     {"op", group.op},
                                     {"dtype_class", group.dtype_class},
                                     {"cause", group.cause},
                                     {"count", group.cases.size()},
                                     {"by_dtype", group.by_dtype},
                                     {"by_layout", group.by_layout},
                                     {"by_values", group.by_values},
                                     {"by_level", group.by_level},
                                     {"by_kind", group.by_kind},
                                     {"smallest", CaseSummary(report.cases[group.smallest])},
                                     {"minimal", Minimal(group)},
                                     {"cases", cases}});
  }
  out["waived"] = ordered_json::array();
  for (const auto& item : report.cases) {
    if (item.status == Status::kWaived) out["waived"].push_back(CaseSummary(item));
  }
  out["warnings"] = report.warnings;
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace opcts
