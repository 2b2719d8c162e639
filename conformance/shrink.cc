#include "conformance/shrink.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>

#include "conformance/case_generator.h"
#include "conformance/judge.h"
#include "conformance/layout.h"
#include "conformance/property_case.h"
#include "conformance/scatter_form.h"
#include "conformance/vector_check.h"
#include "reports/failure_cause.h"
#include "reports/report_model.h"
#include "spec/element.h"
#include "spec/family_hooks.h"

namespace opcts {
namespace {

using Clock = std::chrono::steady_clock;

// One step away from the current case: what changes, and the recipe that makes it.
struct Candidate {
  std::string change;
  CaseRecipe recipe;
};
using Candidates = std::vector<Candidate>;

// rapidcheck's integer shrink towards 1: 1, then n less half the distance, a quarter, ...,
// one less; a threshold far from 1 (a fault past 4096 elements) is found in O(log^2 n) attempts.
std::vector<uint32_t> SmallerSizes(uint32_t n) {
  if (n <= 1) return {};
  std::vector<uint32_t> sizes = {1};
  for (uint32_t distance = (n - 1) / 2; distance >= 1; distance /= 2)
    if (n - distance > 1) sizes.push_back(n - distance);
  return sizes;
}

std::string Resized(const std::string& what, unsigned dim, uint32_t from, uint32_t to) {
  return what + " " + std::to_string(dim) + ": " + std::to_string(from) + " -> " +
         std::to_string(to);
}

std::string Dropped(const std::string& what, unsigned dim, uint32_t size) {
  return "drop " + what + " " + std::to_string(dim) + " (size " + std::to_string(size) + ")";
}

int64_t ParamOr(const CaseRecipe& r, const std::string& name, int64_t fallback) {
  const auto it = r.params.find(name);
  return it == r.params.end() ? fallback : it->second;
}

// A tensor's layout read back from its descriptor (LayoutDesc's inverse, up to the amount of
// padding): a stride of 0 broadcasts along its dimension.
std::pair<Layout, unsigned> LayoutOf(const TensorDesc& desc) {
  if (desc.strides.empty() || desc.strides == PackedStrides(desc.sizes))
    return {Layout::kPacked, 0};
  for (unsigned d = 0; d < desc.strides.size(); ++d)
    if (desc.strides[d] == 0) return {Layout::kBroadcast, d};
  if (desc.strides == LayoutDesc(desc.dtype, desc.sizes, Layout::kTransposed).strides)
    return {Layout::kTransposed, 0};
  return {Layout::kPadded, 0};
}

// ---- The scan family: a recipe read back as the choices that build it ----

ScanChoices ScanChoicesOf(const CaseRecipe& r) {
  const ScanBinding b = ScanBindingOf(*r.spec);
  const TensorRecipe& input = r.tensors.at(b.input);
  ScanChoices c;
  c.spec = r.spec;
  c.dtype = input.desc.dtype;
  c.shape = input.desc.sizes;
  if (!b.axis_param.empty()) {
    c.axis = static_cast<int>(ParamOr(r, b.axis_param, 0));
  } else if (const auto axis = r.tensors.find(b.axis_tensor); axis != r.tensors.end()) {
    c.axis = static_cast<int>(axis->second.scalar);
    c.axis_dtype = axis->second.desc.dtype;
  } else {
    c.axis_absent = true;
  }
  c.reverse = ParamOr(r, b.reverse_param, 0) != 0;
  c.exclusive = ParamOr(r, b.exclusive_param, 0) != 0;
  if (r.in_place) {
    c.input_layout = c.output_layout = Layout::kInPlace;
  } else {
    std::tie(c.input_layout, c.broadcast_dim) = LayoutOf(input.desc);
    c.output_layout = LayoutOf(r.tensors.at(b.output).desc).first;
  }
  c.values = input.values;
  c.seed = r.seed;
  return c;
}

Candidates ScanCandidates(const CaseRecipe& recipe) {
  const ScanChoices c = ScanChoicesOf(recipe);
  const auto rank = static_cast<unsigned>(c.shape.size());
  const unsigned axis = c.Axis();
  Candidates out;
  auto add = [&out](std::string change, const ScanChoices& next) {
    out.push_back({std::move(change), BuildScanRecipe(next)});
  };
  // Rank: a dimension other than the scanned one dropped; the axis value keeps naming it.
  for (unsigned d = 0; d < rank && rank > 1; ++d) {
    if (d == axis) continue;
    ScanChoices next = c;
    next.shape.erase(next.shape.begin() + d);
    const int kept = static_cast<int>(axis) - (d < axis ? 1 : 0);
    if (!c.axis_absent) next.axis = c.axis < 0 ? kept - static_cast<int>(rank - 1) : kept;
    if (c.input_layout == Layout::kBroadcast && c.broadcast_dim == d)
      next.input_layout = Layout::kPacked;
    else if (c.input_layout == Layout::kBroadcast && c.broadcast_dim > d)
      --next.broadcast_dim;
    add(Dropped("dimension", d, c.shape[d]), next);
  }
  // Elements: each dimension towards 1, the scanned axis first.
  std::vector<unsigned> dims = {axis};
  for (unsigned d = 0; d < rank; ++d)
    if (d != axis) dims.push_back(d);
  for (unsigned d : dims)
    for (uint32_t size : SmallerSizes(c.shape[d])) {
      ScanChoices next = c;
      next.shape[d] = size;
      add(Resized(d == axis ? "scanned dimension" : "dimension", d, c.shape[d], size), next);
    }
  if (c.input_layout != Layout::kPacked || c.output_layout != Layout::kPacked) {
    ScanChoices next = c;
    next.input_layout = next.output_layout = Layout::kPacked;
    add("packed layout (was " + std::string(LayoutName(c.input_layout)) + " input, " +
            std::string(LayoutName(c.output_layout)) + " output)",
        next);
  }
  if (c.reverse) {
    ScanChoices next = c;
    next.reverse = false;
    add("forward", next);
  }
  if (c.exclusive) {
    ScanChoices next = c;
    next.exclusive = false;
    add("inclusive", next);
  }
  if (c.values != Values::kOnes) {
    ScanChoices next = c;
    next.values = Values::kOnes;
    add("values: ones", next);
  }
  return out;
}

// ---- The scatter family: the choices, and the meaningful shapes ShapeScatter makes them of ----

struct ScatterState {
  ScatterChoices choices;
  std::vector<uint32_t> data, grid;  // the input's meaningful dimensions; the grid of tuples
  unsigned tuple = 1;                // coordinates per index tuple
  unsigned rank = 1;                 // the common rank (DirectML form)
};

ScatterState ScatterStateOf(const CaseRecipe& r) {
  const ScatterForm f = ScatterFormOf(*r.spec);
  const TensorRecipe& input = r.tensors.at(f.input);
  const TensorRecipe& indices = r.tensors.at(f.indices);
  const std::vector<uint32_t>& in = input.desc.sizes;
  const std::vector<uint32_t>& idx = indices.desc.sizes;
  const auto counts = f.HasDimensionCounts();
  const auto in_dims = static_cast<size_t>(counts ? ParamOr(r, f.input_dims_param, 0) : 0);
  const auto idx_dims = static_cast<size_t>(counts ? ParamOr(r, f.indices_dims_param, 0) : 0);
  ScatterState s;
  s.data.assign(in.end() - static_cast<ptrdiff_t>(counts ? in_dims : in.size()), in.end());
  s.grid.assign(idx.end() - static_cast<ptrdiff_t>(counts ? idx_dims : idx.size()), idx.end() - 1);
  s.tuple = idx.back();
  s.rank = static_cast<unsigned>(in.size());
  ScatterChoices& c = s.choices;
  c.spec = r.spec;
  c.dtype = input.desc.dtype;
  c.index_dtype = indices.desc.dtype;
  c.reduction = f.reduction_param.empty() ? 0 : ParamOr(r, f.reduction_param, 0);
  c.index_values = indices.values;
  c.layout = r.in_place ? Layout::kInPlace : r.layout;
  c.broadcast_dim = LayoutOf(r.tensors.at(f.updates).desc).second;
  c.seed = r.seed;
  return s;
}

Candidates ScatterCandidates(const CaseRecipe& recipe) {
  const ScatterForm f = ScatterFormOf(*recipe.spec);
  const ScatterState s = ScatterStateOf(recipe);
  Candidates out;
  auto add = [&](std::string change, ScatterState next) {
    const std::optional<ScatterShapes> shapes =
        ShapeScatter(f, next.data, next.grid, next.tuple, next.rank);
    if (!shapes) return;
    uint64_t positions = 1, tuples = 1;
    for (uint32_t d : shapes->index_dims) positions *= d;
    for (uint32_t d : next.grid) tuples *= d;
    // The generators' rule: unique tuples need as many positions.
    if (next.choices.index_values == Values::kIndexUnique && tuples > positions) return;
    next.choices.shapes = *shapes;
    next.choices.broadcast_dim =
        std::min(next.choices.broadcast_dim, static_cast<unsigned>(shapes->updates.size() - 1));
    out.push_back({std::move(change), BuildScatterRecipe(next.choices)});
  };
  // Dimension numbers as the tensors have them (the DirectML form leads with ones).
  const auto input_first = static_cast<unsigned>(s.rank - s.data.size());
  const auto indices_first =
      static_cast<unsigned>(f.HasDimensionCounts() ? s.rank - s.grid.size() - 1 : 0);
  // Rank: the common rank, an input dimension (an addressed one takes its coordinate of every
  // tuple with it), a grid dimension. The input's first: without a grid dimension left, a
  // single-element input may need two dimensions (ONNX updates have a rank).
  if (f.HasDimensionCounts() && s.rank > 1) {
    ScatterState next = s;
    --next.rank;
    add("rank " + std::to_string(s.rank) + " -> " + std::to_string(next.rank), next);
  }
  for (unsigned d = 0; d < s.data.size() && s.data.size() > 1; ++d) {
    ScatterState next = s;
    next.data.erase(next.data.begin() + d);
    if (d < s.tuple && --next.tuple == 0) continue;
    add(Dropped("input dimension", input_first + d, s.data[d]), next);
  }
  for (unsigned g = 0; g < s.grid.size(); ++g) {
    ScatterState next = s;
    next.grid.erase(next.grid.begin() + g);
    add(Dropped("indices dimension", indices_first + g, s.grid[g]), next);
  }
  // Elements: fewer tuples first, then a smaller input.
  for (unsigned g = 0; g < s.grid.size(); ++g)
    for (uint32_t size : SmallerSizes(s.grid[g])) {
      ScatterState next = s;
      next.grid[g] = size;
      add(Resized("indices dimension", indices_first + g, s.grid[g], size), next);
    }
  for (unsigned d = 0; d < s.data.size(); ++d)
    for (uint32_t size : SmallerSizes(s.data[d])) {
      ScatterState next = s;
      next.data[d] = size;
      add(Resized("input dimension", input_first + d, s.data[d], size), next);
    }
  if (s.choices.layout != Layout::kPacked) {
    ScatterState next = s;
    next.choices.layout = Layout::kPacked;
    add("packed layout (was " + std::string(LayoutName(s.choices.layout)) + ")", next);
  }
  if (s.choices.index_values != Values::kIndexUnique) {
    ScatterState next = s;
    next.choices.index_values = Values::kIndexUnique;
    add("indices: unique, in range", next);
  }
  if (s.choices.reduction != 0) {
    ScatterState next = s;
    next.choices.reduction = 0;
    add("reduction " + ReductionName(*recipe.spec, f, 0) + " (was " +
            ReductionName(*recipe.spec, f, s.choices.reduction) + ")",
        next);
  }
  return out;
}

using CandidateMaker = Candidates (*)(const CaseRecipe&);
const FamilyHooks<CandidateMaker>& CandidateMakers() {
  static const FamilyHooks<CandidateMaker> hooks(
      "shrinker (conformance/shrink.cc)",
      {{"scan", ScanCandidates}, {"scatter_nd", ScatterCandidates}});
  return hooks;
}

// ---- Data values ----

// How simple a value is: integers before fractions before infinities and NaN; then smaller
// magnitudes; then positive before negative (+0 before -0). A value is replaced only by a
// simpler one, so the values move ends.
std::tuple<int, long double, bool> Simplicity(DType t, uint64_t bits) {
  const long double v = BitsToLongDouble(t, bits);
  if (!std::isfinite(v)) return {2, 0, false};
  return {v == std::trunc(v) ? 0 : 1, std::fabs(v), std::signbit(v)};
}

// Simpler values to try in place of `bits`, simplest first: 0, 1, half (truncated), the integer
// part, the magnitude.
std::vector<uint64_t> SimplerValues(DType t, uint64_t bits) {
  const long double v = BitsToLongDouble(t, bits);
  std::vector<long double> tries = {0, 1};
  if (std::isfinite(v)) tries.insert(tries.end(), {std::trunc(v / 2), std::trunc(v), std::fabs(v)});
  std::vector<uint64_t> simpler;
  for (long double x : tries) {
    if (!IsFloat(t) && std::fabs(x) >= 0x1p63L) continue;  // beyond int64: no simpler anyway
    const uint64_t candidate = DoubleToBits(t, static_cast<double>(x));
    if (Simplicity(t, candidate) < Simplicity(t, bits) &&
        std::find(simpler.begin(), simpler.end(), candidate) == simpler.end())
      simpler.push_back(candidate);
  }
  std::sort(simpler.begin(), simpler.end(),
            [t](uint64_t a, uint64_t b) { return Simplicity(t, a) < Simplicity(t, b); });
  return simpler;
}

// Inputs holding data (not indices, not an axis value, not outputs).
bool HoldsData(const TensorRecipe& t) {
  return t.values != Values::kNone && t.values != Values::kScalar && t.index_dims.empty();
}

// ---- The search ----

class Search {
 public:
  Search(const Plugin& plugin, const ShrinkOptions& options, Clock::time_point start,
         CaseGroup group, PreparedCase original, CaseVerdict verdict)
      : plugin_(plugin),
        claims_(ClaimsOf(plugin)),
        options_(options),
        deadline_(start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(options.seconds))),
        group_(group),
        kind_(FailureKind(verdict.outcome)),
        best_(std::move(original)),
        best_verdict_(std::move(verdict)) {}

  bool BudgetLeft() const { return attempts_ < options_.max_attempts && Clock::now() < deadline_; }
  int attempts() const { return attempts_; }
  PreparedCase& best() { return best_; }
  const CaseVerdict& best_verdict() const { return best_verdict_; }

  bool TryRecipe(const CaseRecipe& recipe) {
    return Try(PreparedCase(recipe), GroupFor(recipe, claims_));
  }
  bool TryOperation(Operation op) {
    PreparedCase candidate(std::move(op));
    const CaseGroup group = GroupOfOperation(candidate, claims_);
    return Try(std::move(candidate), group);
  }

 private:
  // A candidate the claims group otherwise than the original, or that breaks a rule, is not
  // the same test: it is never run. One that fails the same way becomes the best.
  bool Try(PreparedCase candidate, CaseGroup group) {
    if (group != group_ || candidate.invalid_reason()) return false;
    ++attempts_;
    RunCaseOptions run = options_.run;
    run.keep_outputs = true;
    CaseVerdict verdict = RunCase(plugin_, candidate, group_, run);
    if (verdict.acceptable || FailureKind(verdict.outcome) != kind_) return false;
    best_ = std::move(candidate);
    best_verdict_ = std::move(verdict);
    return true;
  }

  const Plugin& plugin_;
  const BackendClaims claims_;
  const ShrinkOptions& options_;
  const Clock::time_point deadline_;
  const CaseGroup group_;
  const std::string kind_;
  int attempts_ = 0;
  PreparedCase best_;
  CaseVerdict best_verdict_;
};

// Greedy: the first candidate that fails the same way is taken, then the moves start over.
void ShrinkStructure(Search& search, CaseRecipe& current, std::vector<ShrinkStep>& steps) {
  for (bool taken = true; taken && search.BudgetLeft();) {
    taken = false;
    for (Candidate& c : CandidateMakers().For (*current.spec)(current)) {
      if (!search.BudgetLeft()) break;
      if (!search.TryRecipe(c.recipe)) continue;
      current = std::move(c.recipe);
      steps.push_back({std::move(c.change), {current.shape}});
      taken = true;
      break;
    }
  }
}

void ShrinkValues(Search& search, const CaseRecipe& recipe, std::vector<ShrinkStep>& steps) {
  std::vector<std::string> data;
  uint64_t elements = 0;
  for (const auto& [name, t] : recipe.tensors)
    if (HoldsData(t)) {
      data.push_back(name);
      elements += ElementCount(t.desc);
    }
  if (elements > kMaxValueShrinkElements) return;
  for (bool taken = true; taken && search.BudgetLeft();) {
    taken = false;
    for (const std::string& name : data) {
      const TensorDesc desc = search.best().op().Tensor(name)->desc;
      const StridedIndexer indexer(desc);
      for (uint64_t i = 0; i < ElementCount(desc) && search.BudgetLeft(); ++i) {
        const uint64_t at = indexer.BufferIndex(i);
        const uint64_t bits = LoadBits(desc.dtype, search.best().op().Tensor(name)->Element(at));
        for (uint64_t simpler : SimplerValues(desc.dtype, bits)) {
          if (!search.BudgetLeft()) break;
          Operation next = search.best().op();
          StoreBits(desc.dtype, next.tensors.at(name).Element(at), simpler);
          if (!search.TryOperation(std::move(next))) continue;
          steps.push_back({name + FormatCoordinates(desc.sizes, i) + ": " +
                               FormatElement(desc.dtype, bits) + " -> " +
                               FormatElement(desc.dtype, simpler),
                           {recipe.shape}});
          taken = true;
          break;
        }
      }
    }
  }
}

}  // namespace

uint64_t CaseSize::Elements() const {
  uint64_t n = 1;
  for (uint32_t s : shape) n *= s;
  return n;
}

std::string ShrinkRefusal(const CaseRecipe& recipe, Status status) {
  if (status == Status::kCrash || status == Status::kTimeout || status == Status::kMemoryLimit)
    return "a " + std::string(StatusName(status)) +
           " is not shrunk: every attempt runs in this process, which the backend would take "
           "down";
  if (recipe.group == CaseGroup::kInvalid)
    return "an invalid case is not shrunk: the generators the shrinker rebuilds cases with make "
           "valid cases only";
  return "";
}

std::string FailureKind(const CaseOutcome& outcome) {
  CaseRecord record;
  record.message = outcome.message;
  return std::string(StatusName(outcome.status)) + ": " + NormalizedCause(record);
}

ShrinkResult Shrink(const Plugin& plugin, const CaseRecipe& failing, const ShrinkOptions& options) {
  const Clock::time_point start = Clock::now();
  ShrinkResult r;
  r.original_size.shape = failing.shape;
  RunCaseOptions run = options.run;
  run.keep_outputs = true;
  PreparedCase original(failing);
  r.original = RunCase(plugin, original, GroupFor(failing, ClaimsOf(plugin)), run);
  if (!r.Failed()) return r;
  r.refused = ShrinkRefusal(failing, r.original.outcome.status);
  if (!r.refused.empty()) return r;

  Search search(plugin, options, start, r.original.group, std::move(original), r.original);
  CaseRecipe current = failing;
  ShrinkStructure(search, current, r.steps);
  ShrinkValues(search, current, r.steps);
  r.budget_spent = !search.BudgetLeft();
  r.attempts = search.attempts();
  r.minimal = search.best().op();
  r.minimal_verdict = search.best_verdict();
  r.expected = search.best().expected();
  r.minimal_size.shape = current.shape;
  const CaseOutcome& o = r.minimal_verdict.outcome;
  r.vector = FindingVector(r.minimal, r.expected, failing.id + ".shrunk",
                           "shrunk from " + failing.id + " on " + plugin.info().name + ": " +
                               std::string(StatusName(o.status)) + ": " + o.message);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

}  // namespace opcts
