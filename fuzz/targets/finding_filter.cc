#include "fuzz/targets/finding_filter.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "conformance/case_generator.h"
#include "conformance/vector_file.h"
#include "fuzz/embedded_specs.h"
#include "fuzz/finding_vector.h"
#include "fuzz/targets/target_support.h"
#include "reports/failure_cause.h"

namespace fs = std::filesystem;

namespace opcts {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// The case's first output: its dtype and rank are what the case is about (a scan's data, a
// scatter's data, not its indices).
const TensorDesc& MainOutput(const Operation& op) {
  for (const TensorSpec& t : op.spec->tensors)
    if (t.role == TensorRole::kOutput)
      if (const TensorData* data = op.Tensor(t.name)) return data->desc;
  return op.tensors.begin()->second.desc;  // every decoded case has its outputs
}

}  // namespace

std::string FuzzSignature(const Operation& op, const CaseOutcome& outcome) {
  CaseRecord record;
  record.op = op.spec->name;
  record.dtype = std::string(DTypeName(MainOutput(op).dtype));
  record.status = outcome.status;
  record.message = outcome.message;
  return FailureSignature(record);
}

std::string FuzzCaseId(const Operation& op, const std::string& input) {
  const TensorDesc& main = MainOutput(op);
  return OperatorKey(*op.spec) + "." + std::string(DTypeShortName(main.dtype)) + ".rank" +
         std::to_string(main.sizes.size()) + ".fuzz." + InputHash(input);
}

FindingFilter& FindingFilter::Get() {
  static FindingFilter* const filter = new FindingFilter();  // lives until exit, as its atexit hook
  return *filter;
}

FindingFilter::FindingFilter()
    : known_path_(Env("OPCTS_FUZZ_KNOWN")),
      only_(Env("OPCTS_FUZZ_ONLY")),
      hits_path_(Env("OPCTS_FUZZ_HITS")),
      regressions_dir_(Env("OPCTS_FUZZ_REGRESSIONS")),
      today_(TodayUtc()),
      last_write_(std::chrono::steady_clock::now()) {
  if (const std::string waivers = Env("OPCTS_FUZZ_WAIVERS"); !waivers.empty()) {
    Result<std::vector<Waiver>> loaded = LoadWaivers(waivers);
    if (!loaded) {
      std::fprintf(stderr, "opcts fuzz: %s\n", loaded.error().message.c_str());
      std::exit(2);
    }
    waivers_ = std::move(*loaded);
  }
  ReloadKnown();
  if (!hits_path_.empty()) std::atexit([] { Get().WriteHits(); });
}

void FindingFilter::ReloadKnown() {
  std::error_code ec;
  const uintmax_t size = known_path_.empty() ? 0 : fs::file_size(known_path_, ec);
  if (ec || size == known_size_) return;
  known_size_ = size;
  std::ifstream in(known_path_);
  for (std::string line; std::getline(in, line);)
    if (const size_t tab = line.find('\t'); tab != std::string::npos)
      known_.emplace(line.substr(0, tab), line.substr(tab + 1));
}

void FindingFilter::LoadRegressions(const std::string& op_name) {
  if (regressions_dir_.empty() || !fs::is_directory(regressions_dir_)) return;
  for (const auto& entry : fs::directory_iterator(regressions_dir_)) {
    if (entry.path().extension() != ".json") continue;
    const Result<TestVector> v = LoadVectorFile(entry.path().string(), EmbeddedSpecSet());
    if (!v || v->op.spec->name != op_name) continue;  // unreadable ones: `opcts vectors` says why
    const CaseVerdict verdict = RunVector(FuzzBackend(), *v, {.strict = FuzzStrict()});
    if (!verdict.acceptable)
      known_.emplace(FuzzSignature(v->op, verdict.outcome),
                     "regression " + entry.path().filename().string());
  }
}

bool FindingFilter::Tolerates(const Operation& op, const CaseOutcome& outcome,
                              const std::string& input) {
  const std::string signature = FuzzSignature(op, outcome);
  if (!only_.empty()) return signature != only_;
  std::string source;
  const std::string id = FuzzCaseId(op, input);
  for (const Waiver& w : waivers_)
    if (!IsExpired(w, today_) && GlobMatch(w.id_glob, id) &&
        GlobMatch(w.backend_glob, FuzzBackend().info().name)) {
      source = "waiver " + w.location;
      break;
    }
  if (source.empty()) {
    ReloadKnown();
    const auto known = known_.find(signature);
    if (known == known_.end()) {
      if (!known_path_.empty()) std::ofstream(known_path_, std::ios::app) << signature << "\tnew\n";
      return false;
    }
    source = known->second;
  }
  ++hits_[{signature, source}];
  if (std::chrono::steady_clock::now() - last_write_ > std::chrono::seconds(1)) WriteHits();
  return true;
}

void FindingFilter::WriteHits() {
  last_write_ = std::chrono::steady_clock::now();
  if (hits_path_.empty()) return;
  std::ofstream out(hits_path_ + ".tmp");
  for (const auto& [key, count] : hits_)
    out << key.first << "\t" << key.second << "\t" << count << "\n";
  out.close();
  std::error_code ec;
  fs::rename(hits_path_ + ".tmp", hits_path_, ec);
}

}  // namespace opcts
