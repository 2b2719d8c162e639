// libFuzzer target: one operator (OPCTS_FUZZ_OPERATOR, a spec's operator name) run on the
// reference and on a backend through the conformance run's pipeline (conformance/case_run.h:
// guard bytes, prefilled outputs, input clobbering, the oracle's bounds, the gate's rule). A case
// the spec's constraints (or the reference) call invalid must be rejected, as the conformance run's
// invalid cases must. A mismatch prints the case as an opcts-vector/1 JSON whose `expected` is the
// reference's answer (or a must-reject vector) and its failure signature, then aborts; in a
// campaign, a mismatch whose signature is known already is counted instead (finding_filter.h).
//
//   opcts_fuzz_dml_scatter_nd [--backend=NAME|PATH] [--backend-options=S] [--strict]
//                             [libFuzzer flags] [CORPUS_DIR|FILE...]
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include "conformance/case.h"
#include "conformance/case_run.h"
#include "conformance/constraints.h"
#include "fuzz/embedded_specs.h"
#include "fuzz/finding_vector.h"
#include "fuzz/fuzz_case.h"
#include "fuzz/targets/finding_filter.h"
#include "fuzz/targets/target_support.h"

namespace {

const opcts::OperatorSpec& TargetSpec() {
  static const opcts::OperatorSpec* spec = [] {
    const opcts::SpecSet& specs = opcts::EmbeddedSpecSet();
    for (const std::string& e : specs.errors) std::fprintf(stderr, "%s\n", e.c_str());
    const opcts::OperatorSpec* s = specs.Find(OPCTS_FUZZ_OPERATOR);
    if (s == nullptr || opcts::FindReferenceKernel(s->reference) == nullptr) {
      std::fprintf(stderr, "opcts fuzz: no spec or reference kernel for %s\n", OPCTS_FUZZ_OPERATOR);
      std::exit(2);
    }
    return s;
  }();
  return *spec;
}

[[noreturn]] void ReportMismatch(opcts::PreparedCase& prepared, const opcts::CaseOutcome& outcome,
                                 const std::string& input) {
  const opcts::Operation& op = prepared.op();
  const opcts::Plugin& backend = opcts::FuzzBackend();
  const std::string source = std::string(backend.info().name) + ": " +
                             std::string(opcts::StatusName(outcome.status)) + ": " +
                             outcome.message;
  const opcts::TestVector v = opcts::FuzzFinding(prepared, input, source);
  std::fprintf(stderr,
               "\n==opcts-fuzz== %s on %s: %s\n==opcts-fuzz== signature: %s\n"
               "==opcts-fuzz== the case (expected: the reference):\n%s\n",
               std::string(opcts::StatusName(outcome.status)).c_str(), op.spec->name.c_str(),
               source.c_str(), opcts::FuzzSignature(op, outcome).c_str(),
               opcts::VectorToJson(v).dump(1).c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  opcts::InitFuzzTarget(*argc, *argv);
  opcts::FuzzBackend();
  opcts::FindingFilter::Get().LoadRegressions(TargetSpec().name);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const opcts::OperatorSpec& spec = TargetSpec();
  FuzzedDataProvider fdp(data, size);
  const std::optional<opcts::Operation> op = opcts::DecodeOperation(spec, fdp);
  if (!op) return -1;  // -1: libFuzzer keeps the input out of the corpus
  // A long case (fuzz_case.h: one input in 256 draws one) runs for one such input in
  // opcts::kLongCaseShare, by a hash of the whole input, and stays out of the corpus. libFuzzer
  // learns the byte that draws it (its persistent auto-dictionary): unchecked, 9 % of the
  // executions were long ones, at a quarter of the rate overall.
  const bool long_case = opcts::HasLongDimension(*op);
  if (long_case && !opcts::RunsLongCase(std::string(reinterpret_cast<const char*>(data), size)))
    return -1;
  const opcts::Plugin& backend = opcts::FuzzBackend();
  opcts::PreparedCase prepared(*op);
  // The reference runs on valid operations only; an invalid one must be rejected. A valid one no
  // support level admits is nothing a backend can claim: kept out of the corpus.
  const std::optional<std::string>& invalid = prepared.invalid_reason();
  if (!invalid && !opcts::LowestSupportingLevel(*op)) return -1;
  const opcts::CaseGroup group = opcts::GroupOfOperation(prepared, opcts::ClaimsOf(backend));
  const opcts::CaseVerdict verdict =
      opcts::RunCase(backend, prepared, group, {.strict = opcts::FuzzStrict()});
  if (!verdict.acceptable) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    if (opcts::FindingFilter::Get().Tolerates(*op, verdict.outcome, input)) return 0;
    ReportMismatch(prepared, verdict.outcome, input);
  }
  return long_case && !invalid ? -1 : 0;
}
