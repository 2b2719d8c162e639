#include "conformance/case_executor.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "conformance/abi_operation.h"
#include "conformance/guarded_memory.h"
#include "spec/element.h"

namespace opcts {
namespace {

constexpr size_t kMessageCapacity = 1024;

// A never-written output element shows up as this: a quiet NaN with a recognisable payload for
// floats, 0xCD bytes for integers.
uint64_t Prefill(DType t) {
  switch (t) {
    case DType::kFloat64:
      return 0x7FF8DEADDEADDEADull;
    case DType::kFloat32:
      return 0x7FC0DEADu;
    case DType::kFloat16:
      return 0x7EADu;
    case DType::kBFloat16:
      return 0x7FCDu;
    default:
      return 0xCDCDCDCDCDCDCDCDull & BitsMask(t);
  }
}

// Whether the logical element `index` of `t` still holds the Prefill pattern.
bool IsPrefill(const TensorData& t, uint64_t index) {
  const StridedIndexer indexer(t.desc);
  return LoadBits(t.desc.dtype, t.Element(indexer.BufferIndex(index))) == Prefill(t.desc.dtype);
}

CaseOutcome Outcome(Status status, std::string message) {
  CaseOutcome o;
  o.status = status;
  o.message = std::move(message);
  return o;
}

std::string Message(const char* text) { return text[0] ? text : "(no message)"; }

bool IsAbiStatus(int32_t status) {
  return status == OPCTS_STATUS_OK || status == OPCTS_STATUS_NOT_SUPPORTED ||
         status == OPCTS_STATUS_INVALID || status == OPCTS_STATUS_ERROR;
}

// The verdict when query or execute did not return OK. An answer the ABI does not define fails
// whatever the case; after query said OK, only a refusal the spec allows for the data passes.
CaseOutcome Refused(CaseGroup group, const char* stage, int32_t status, const char* text,
                    const ReferenceResult* expected) {
  const std::string what =
      std::string(stage) + " answered " + AbiStatusName(status) + ": " + Message(text);
  if (!IsAbiStatus(status))
    return Outcome(Status::kFail,
                   what + " (the ABI defines OK 0, NOT_SUPPORTED 1, INVALID 2 and ERROR 3)");
  if (group == CaseGroup::kInvalid) return Outcome(Status::kInvalidRejected, what);
  if (std::string(stage) == "execute") {  // query said OK: the backend promised to run it
    if (status == OPCTS_STATUS_INVALID && expected && expected->refusable) {
      CaseOutcome o =
          Outcome(Status::kPass, "refused the data at execute, which the spec allows: " +
                                     *expected->refusable + " (" + what + ")");
      o.behaviour = kRefusedAtExecute;
      return o;
    }
    if (status == OPCTS_STATUS_INVALID && group == CaseGroup::kValid)
      return Outcome(Status::kClaimViolation, "within the claimed level, but " + what);
    return Outcome(Status::kFail, "query accepted the case, then " + what +
                                      "; a backend that cannot run a case must say so at query");
  }
  if (group == CaseGroup::kUnclaimed) return Outcome(Status::kNotSupported, what);
  if (status == OPCTS_STATUS_NOT_SUPPORTED || status == OPCTS_STATUS_INVALID)
    return Outcome(Status::kClaimViolation, "within the claimed level, but " + what);
  return Outcome(Status::kFail, what);
}

// For data the spec lets a backend refuse but which it executed: did it leave the output as
// skipping the offending data would (every element meets its expectation without the
// alternatives that data allows), or write some of it elsewhere?
std::string RefusableHandling(const ExpectedTensor& e, const TensorData& actual,
                              const std::vector<FloatRule>& rules) {
  ExpectedTensor skipping = e;
  skipping.alternatives.clear();
  return MismatchingElements(skipping, actual, 1, rules).empty() ? kSkipped : kWrittenElsewhere;
}

// Applies a binding fault of an invalid case to what execute gets (the operator's first tensor
// is the one broken); returns the binding_count to pass. The array always holds every binding
// the count could make a backend read.
uint32_t BreakBindings(AbiFault fault, const Operation& op, const std::vector<std::string>& order,
                       std::vector<opcts_binding>& bindings) {
  const auto first = static_cast<size_t>(
      std::find(order.begin(), order.end(), op.spec->tensors.front().name) - order.begin());
  switch (fault) {
    case AbiFault::kBindingCountBelow:
      return static_cast<uint32_t>(bindings.size() - 1);
    case AbiFault::kBindingCountAbove:
      bindings.push_back({nullptr, 0});
      break;
    case AbiFault::kBindingSizeMismatch:
      bindings.at(first).size_in_bytes -= 1;
      break;
    case AbiFault::kNone:
    case AbiFault::kNullTensorDesc:
    case AbiFault::kDataTypeZero:
    case AbiFault::kDataTypePastLast:
      break;
  }
  return static_cast<uint32_t>(bindings.size());
}

// "DirectML": the scheme as its documents spell it, for messages.
const char* PlatformName(LevelScheme scheme) {
  switch (scheme) {
    case LevelScheme::kDirectML:
      return "DirectML";
    case LevelScheme::kOpenVINO:
      return "OpenVINO";
    case LevelScheme::kONNX:
      return "ONNX";
  }
  return "?";
}

void AddBehaviour(std::string& behaviours, const std::string& behaviour) {
  if (behaviour.empty()) return;
  if (!behaviours.empty()) behaviours += kBehaviourSeparator;
  behaviours += behaviour;
}

}  // namespace

CaseOutcome ExecuteCase(const Plugin& plugin, const Operation& op, CaseGroup group,
                        const ReferenceResult* expected, FloatRules float_rules, bool keep_outputs,
                        AbiFault fault) {
  const Result<std::unique_ptr<AbiOperation>> built = AbiOperation::Build(op, fault);
  if (!built) return Outcome(Status::kInternalError, built.error().message);
  const std::unique_ptr<AbiOperation>& abi = *built;
  char message[kMessageCapacity] = "";
  const AbiOperation::Snapshot pristine = abi->Take();
  SetInCall(true);
  const int32_t query =
      plugin.api().query(plugin.instance(), &abi->desc(), message, sizeof message);
  SetInCall(false);
  message[sizeof message - 1] = '\0';
  if (std::string changed = abi->ChangedSince(pristine); !changed.empty())
    return Outcome(Status::kFail,
                   "query wrote into the const descriptors it was given: " + changed + " changed");
  if (query != OPCTS_STATUS_OK) return Refused(group, "query", query, message, expected);

  // Bind: inputs copied in, outputs prefilled, the in-place output sharing its input's buffer.
  std::map<std::string, GuardedBuffer> buffers;
  std::vector<opcts_binding> bindings;
  std::string aliased_input;
  for (const std::string& name : abi->binding_order()) {
    const TensorData* t = op.Tensor(name);
    const TensorSpec* spec = op.spec->FindTensor(name);
    if (t == nullptr) {
      bindings.push_back({nullptr, 0});
      continue;
    }
    if (spec->role == TensorRole::kOutput && op.in_place && !spec->may_alias.empty()) {
      aliased_input = spec->may_alias;
      GuardedBuffer& shared = buffers.at(aliased_input);
      bindings.push_back({shared.data(), shared.size()});
      continue;
    }
    const auto guard = static_cast<uint8_t>(0xA5 + 0x3B * buffers.size());
    GuardedBuffer& b =
        buffers.emplace(name, GuardedBuffer(name, t->desc.total_bytes, guard)).first->second;
    if (spec->role == TensorRole::kOutput) {
      const uint64_t fill = Prefill(t->desc.dtype);
      const size_t element = DTypeSize(t->desc.dtype);
      for (uint64_t i = 0; i + element <= b.size(); i += element)
        StoreBits(t->desc.dtype, b.data() + i, fill);
    } else {
      std::memcpy(b.data(), t->bytes.data(), t->bytes.size());
    }
    bindings.push_back({b.data(), b.size()});
  }

  const uint32_t binding_count = BreakBindings(fault, op, abi->binding_order(), bindings);

  message[0] = '\0';
  const std::vector<opcts_binding> bound = bindings;
  const auto start = std::chrono::steady_clock::now();
  SetInCall(true);
  const int32_t execute = plugin.api().execute(plugin.instance(), &abi->desc(), bindings.data(),
                                               binding_count, message, sizeof message);
  SetInCall(false);
  const auto duration = std::chrono::steady_clock::now() - start;
  // Nothing may write them now: a backend thread that still does faults, named (guarded_memory).
  for (auto& [name, b] : buffers) b.Seal();
  message[sizeof message - 1] = '\0';
  if (std::string changed = abi->ChangedSince(pristine); !changed.empty())
    return Outcome(Status::kFail, "execute wrote into the const descriptors it was given: " +
                                      changed + " changed");
  for (size_t i = 0; i < bound.size(); ++i)
    if (bindings[i].data != bound[i].data || bindings[i].size_in_bytes != bound[i].size_in_bytes)
      return Outcome(
          Status::kFail,
          "execute wrote into the const bindings array: entry " + std::to_string(i) + " (" +
              (i < abi->binding_order().size() ? abi->binding_order()[i] : "extra") + ") changed");
  CaseOutcome outcome;
  if (execute != OPCTS_STATUS_OK) outcome = Refused(group, "execute", execute, message, expected);
  outcome.duration_us = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(duration).count());

  // Memory safety first, whatever execute answered: it fails a case whatever the values are.
  for (auto& [name, b] : buffers) {
    if (std::string damage = b.GuardDamage(); !damage.empty()) {
      outcome.status = Status::kFail;
      outcome.message = name + ": " + damage + " (outside TotalTensorSizeInBytes)";
      return outcome;
    }
    const TensorData* t = op.Tensor(name);
    if (op.spec->FindTensor(name)->role == TensorRole::kOutput || name == aliased_input) continue;
    for (size_t i = 0; i < t->bytes.size(); ++i)
      if (b.data()[i] != t->bytes[i]) {
        outcome.status = Status::kFail;
        outcome.message =
            "modified input " + name + " at byte " + std::to_string(i) + " (not in place)";
        return outcome;
      }
  }
  if (execute != OPCTS_STATUS_OK) return outcome;
  if (group == CaseGroup::kInvalid) {
    outcome.status = Status::kInvalidAccepted;
    outcome.message = "executed an invalid descriptor instead of rejecting it";
    return outcome;
  }

  outcome.status = Status::kPass;
  bool warning = false;
  const std::vector<FloatRule>& rules = RulesFor(float_rules, *op.spec);
  std::string platform_behaviour;  // what only the platform's float rules allowed
  for (const ExpectedTensor& e : expected->outputs) {
    // An in-place output lives in its input's buffer.
    const std::string& alias = op.spec->FindTensor(e.name)->may_alias;
    const GuardedBuffer& b = buffers.at(op.in_place && !alias.empty() ? alias : e.name);
    TensorData actual{op.Tensor(e.name)->desc, {}};
    actual.bytes.assign(b.data(), b.data() + b.size());
    Judgement j = JudgeTensor(e, actual, rules);
    if (j.verdict == Verdict::kFail && IsPrefill(actual, j.first_mismatch))
      j.message += " (never written: still the fill pattern opcts put there)";
    if (j.max_error &&
        (!outcome.max_error || *j.max_error / *j.bound > *outcome.max_error / *outcome.bound)) {
      outcome.max_error = j.max_error;
      outcome.bound = j.bound;
      outcome.ulp = j.ulp;
    }
    if (j.verdict == Verdict::kFail) {
      outcome.status = Status::kFail;
      outcome.message = j.message;
    } else if (j.verdict == Verdict::kQualityWarning && outcome.status == Status::kPass) {
      warning = true;
      outcome.message = j.message;
    }
    if (j.verdict != Verdict::kFail) AddBehaviour(platform_behaviour, j.behaviour);
    if (expected->refusable) outcome.behaviour = RefusableHandling(e, actual, rules);
    if (keep_outputs) outcome.outputs[e.name] = std::move(actual);
  }
  if (warning && outcome.status == Status::kPass) outcome.status = Status::kQualityWarning;
  if (outcome.status == Status::kPass && group == CaseGroup::kUnclaimed)
    outcome.message = "beyond the claimed support, and correct";
  if (outcome.status == Status::kPass && !outcome.behaviour.empty())
    outcome.message = outcome.behaviour + " (the spec leaves their effect free)";
  if (outcome.status == Status::kPass && !platform_behaviour.empty()) {
    std::string note = std::string("passes under the ") + PlatformName(op.spec->scheme) +
                       " platform rules: " + platform_behaviour;
    outcome.message = outcome.message.empty() ? note : outcome.message + "; " + note;
  }
  if (outcome.status != Status::kFail) AddBehaviour(outcome.behaviour, platform_behaviour);
  return outcome;
}

std::string AbiStatusName(int32_t s) {
  switch (s) {
    case OPCTS_STATUS_OK:
      return "OK";
    case OPCTS_STATUS_NOT_SUPPORTED:
      return "NOT_SUPPORTED";
    case OPCTS_STATUS_INVALID:
      return "INVALID";
    case OPCTS_STATUS_ERROR:
      return "ERROR";
  }
  return "unknown status " + std::to_string(s);
}

}  // namespace opcts
