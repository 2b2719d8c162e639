// After a run: the smallest case of each failure group shrunk on its backend (conformance/
// shrink.h), saved as an opcts-vector/1 file, and recorded for the reports (a journal shrunk
// line). Each search runs in a child process under a time limit, so a backend that crashes or
// hangs on a candidate costs that search only.
//
//   for (const ShrunkRecord& s : ShrinkFailureGroups(report, cases, plugins, o, err)) ...
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "conformance/case.h"
#include "conformance/case_run.h"
#include "reports/report_model.h"

namespace opcts {

struct GroupShrinkOptions {
  std::string dir;     // where the vector files go (created if missing)
  RunCaseOptions run;  // float rules and strictness of the run
  double seconds_per_group = 3;
};

// A backend of the run as it was loaded: its plugin and its create() options.
struct ShrinkPlugin {
  std::string path;
  std::string options;
};

// For every failure group whose smallest case can be shrunk (ShrinkRefusal), in order: the
// minimal case found, its file `dir/<backend>.<case id>.json`. `cases` are the run's recipes;
// `plugins` maps a backend's name in the records to how it was loaded. Progress and searches
// that failed go to `err`.
std::vector<ShrunkRecord> ShrinkFailureGroups(const Report& report,
                                              const std::vector<CaseRecipe>& cases,
                                              const std::map<std::string, ShrinkPlugin>& plugins,
                                              const GroupShrinkOptions& options, std::ostream& err);

}  // namespace opcts
