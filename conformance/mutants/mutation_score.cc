// opcts_mutation_score: the mutation score of the default conformance run. Runs it against the
// correct mutant backend (the control, which must pass everything) and against every mutant in
// the catalogue, prints "mutant | bug | killed by | after" and "mutation score: K/N", and exits
// non-zero when a mutant survives: the fix is to the generators or the spec, never the mutant.
//
//   opcts_mutation_score --catalogue conformance/mutants/README.md
//       --plugins build/release/mutant-plugins --work-dir build/release/mutants-work
//       [--jobs 2] [--mutant GLOB] [--timeout S]
#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "base/cli_args.h"
#include "conformance/mutants/catalogue.h"
#include "conformance/mutants/mutant_run.h"

namespace opcts {
namespace {

constexpr const char* kUsage =
    "usage: opcts_mutation_score --catalogue README.md --plugins DIR --work-dir DIR [--jobs N]\n"
    "                            [--mutant GLOB] [--timeout SECONDS]\n";

std::string Seconds(double s) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << s << " s";
  return text.str();
}

// What the default run made of one mutant.
struct Verdict {
  bool killed = false;
  std::string killed_by, after, kills, smallest;
};

Verdict Judge(const MutantEntry& m, const RunReport& r) {
  Verdict v;
  if (!r.error.empty()) {
    v.killed_by = "ERROR: " + r.error;
    return v;
  }
  const CaseHit* first = nullptr;
  const CaseHit* smallest = nullptr;
  size_t count = 0;
  for (const CaseHit& h : r.hits) {
    if (h.status != m.caught_as) continue;
    ++count;
    if (!first) first = &h;
    if (!smallest || h.elements < smallest->elements) smallest = &h;
  }
  if (first) {
    v.killed = true;
    v.killed_by = std::string(StatusName(first->status)) + " " + first->id;
    v.after = Seconds(first->seconds);
    v.kills = std::to_string(count);
    v.smallest = smallest->id + " (" + std::to_string(smallest->elements) +
                 (smallest->elements == 1 ? " element)" : " elements)");
  } else if (!r.hits.empty()) {  // caught, but not the way the catalogue says: its bug is not the
                                 // one tested
    v.killed_by = "SURVIVED as " + std::string(StatusName(m.caught_as)) + "; first hit is " +
                  std::string(StatusName(r.hits.front().status)) + " " + r.hits.front().id;
  } else {
    v.killed_by = "SURVIVED";
  }
  return v;
}

void PrintTable(const std::vector<std::vector<std::string>>& rows, std::ostream& out) {
  std::vector<size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  for (size_t i = 0; i < rows.size(); ++i) {
    out << "|";
    for (size_t c = 0; c < rows[i].size(); ++c)
      out << " " << std::left << std::setw(static_cast<int>(width[c])) << rows[i][c] << " |";
    out << "\n";
    if (i == 0) {
      out << "|";
      for (size_t w : width) out << std::string(w + 2, '-') << "|";
      out << "\n";
    }
  }
}

int Main(const std::vector<std::string>& raw) {
  CliArgs args(raw, {},
               {"--catalogue", "--plugins", "--work-dir", "--jobs", "--mutant", "--timeout"});
  const auto catalogue_path = args.Get("--catalogue"), plugins = args.Get("--plugins"),
             work = args.Get("--work-dir");
  ChildOptions options;
  options.jobs = static_cast<unsigned>(args.GetNumber("--jobs").value_or(2));
  options.timeout_s =
      static_cast<unsigned>(args.GetNumber("--timeout").value_or(options.timeout_s));
  const std::string glob = args.Get("--mutant").value_or("*");
  if (!args.error().empty() || !args.positionals().empty() || !catalogue_path || !plugins ||
      !work) {
    if (!args.error().empty()) std::cerr << args.error() << "\n";
    std::cerr << kUsage;
    return 2;
  }
  const Catalogue catalogue = ReadCatalogue(*catalogue_path);
  if (!catalogue.error.empty()) {
    std::cerr << catalogue.error << "\n";
    return 2;
  }
  const SpecSet specs = LoadSpecSet(DefaultSpecDir());
  for (const std::string& e : specs.errors) std::cerr << e << "\n";
  if (!specs.errors.empty()) return 2;
  std::error_code ec;
  std::filesystem::create_directories(*work, ec);
  if (ec) {
    std::cerr << "cannot create --work-dir " << *work << ": " << ec.message() << "\n";
    return 2;
  }
  options.work_dir = *work;

  // The control first: the same backend without a bug must pass the whole run.
  std::vector<MutantEntry> mutants;
  std::vector<RunRequest> runs = {{"none", *plugins + "/opcts-mutant-none.so"}};
  for (const MutantEntry& m : catalogue.mutants) {
    if (fnmatch(glob.c_str(), m.name.c_str(), 0) != 0) continue;
    mutants.push_back(m);
    runs.push_back({m.name, *plugins + "/opcts-mutant-" + m.name + ".so"});
  }
  for (const RunRequest& r : runs)
    if (!std::filesystem::exists(r.plugin)) {
      std::cerr << r.plugin << " does not exist: build the mutant plugins first\n";
      return 2;
    }

  std::cout << "default conformance run against the control and " << mutants.size() << " mutants, "
            << options.jobs << " at a time (journals and logs in " << *work << ")\n";
  const auto start = std::chrono::steady_clock::now();
  const std::vector<RunReport> reports = RunInChildren(specs, runs, options);
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const RunReport& control = reports.front();
  if (!control.error.empty() || !control.hits.empty()) {
    std::cout
        << "CONTROL FAILED: the correct mutant backend (none) must pass every case; no score.\n";
    if (!control.error.empty()) std::cout << "  " << control.error << "\n";
    for (size_t i = 0; i < control.hits.size() && i < 10; ++i)
      std::cout << "  " << StatusName(control.hits[i].status) << " " << control.hits[i].id << ": "
                << control.hits[i].message << "\n";
    return 1;
  }

  std::vector<std::vector<std::string>> rows = {
      {"mutant", "bug", "killed by", "after", "kills", "smallest kill"}};
  size_t killed = 0;
  std::vector<std::string> survivors;
  for (size_t i = 0; i < mutants.size(); ++i) {
    const Verdict v = Judge(mutants[i], reports[i + 1]);
    rows.push_back({mutants[i].name, mutants[i].bug, v.killed_by, v.after, v.kills, v.smallest});
    if (v.killed)
      ++killed;
    else
      survivors.push_back(mutants[i].name);
  }
  std::cout << "\n";
  PrintTable(rows, std::cout);
  std::cout << "\ncontrol (none): every case passed, " << Seconds(control.seconds) << "\n";
  std::cout << "mutation score: " << killed << "/" << mutants.size()
            << " killed by the default run (" << Seconds(total) << " for " << runs.size()
            << " runs)\n";
  if (!survivors.empty()) {
    std::cout << "SURVIVED:";
    for (const std::string& s : survivors) std::cout << " " << s;
    std::cout << "\nA survivor is a gap in the generators or the spec: close it there, never in "
                 "the mutant.\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace opcts

int main(int argc, char** argv) {
  return opcts::Main(std::vector<std::string>(argv + 1, argv + argc));
}
