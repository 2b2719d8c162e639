// The cpu-simd backend's C ABI surface (backends/include/opcts/backend.h): options, info, query,
// execute. Nothing here throws across the ABI: every entry point catches and reports.
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "common/family_views.h"
#include "common/plugin_support.h"
#include "cpu_simd/parallel.h"
#include "cpu_simd/scan.h"
#include "cpu_simd/scatter_nd.h"
#include "opcts/backend.h"
#include "opcts/version.h"

namespace opcts::cpu_simd {
namespace {

constexpr unsigned kDefaultThreads = 2;  // the development machine's cores; `threads=` overrides
constexpr unsigned kMaxThreads = 256;

struct Instance {
  unsigned threads = kDefaultThreads;
  SimdTarget target = BestTarget();
  std::unique_ptr<WorkPool> pool;  // threads - 1 workers, started by create()
  std::string device, details;
  opcts_backend_info info{};
};

std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
  }
  return "CPU";
}

// "key=value;key=value". Keys: threads=N (worker threads, default 2), target=NAME (this instance's
// kernels run the named compiled target instead of the best one: to test and time each target).
Result<void> ParseOptions(const std::string& options, Instance* instance) {
  size_t begin = 0;
  while (begin < options.size()) {
    size_t end = options.find(';', begin);
    if (end == std::string::npos) end = options.size();
    const std::string item = options.substr(begin, end - begin);
    begin = end + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "threads") {
      const unsigned long n = std::strtoul(value.c_str(), nullptr, 10);
      if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || n < 1 ||
          n > kMaxThreads)
        return InvalidInput("option threads=" + value + " is not a number in [1, 256]");
      instance->threads = static_cast<unsigned>(n);
    } else if (key == "target") {
      instance->target = value.empty() ? BestTarget() : FindTarget(value);
      if (instance->target == 0)
        return NotSupported("option target=" + value + " is not one of the targets compiled (" +
                            CompiledTargetNames() + ") that this CPU supports");
    } else {
      return InvalidInput("unknown option '" + key + "' (known: threads, target)");
    }
  }
  return {};
}

// This backend implements both families for every type, rank and parameter value: it claims
// every level of every operator in the table.
const plugin::Claims& Claimed() {
  static const plugin::Claims claims = plugin::ClaimEveryLevel();
  return claims;
}

int32_t Create(const char* options, void** instance, char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-simd", message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return InvalidInput("instance is null");
    *instance = nullptr;
    auto created = std::make_unique<Instance>();
    OPCTS_TRY(ParseOptions(options ? options : "", created.get()));
    created->pool = std::make_unique<WorkPool>(created->threads - 1);
    const char* target = DispatchedTargetName(created->target);
    created->device = CpuModel() + " (" + target + ")";
    created->details = "Highway " + HighwayVersion() + "; dispatched target " + target +
                       "; compiled targets " + CompiledTargetNames() + "; threads " +
                       std::to_string(created->threads);
    created->info = {"cpu-simd",
                     OPCTS_VERSION_STRING,
                     created->device.c_str(),
                     Claimed().feature_level,
                     Claimed().extra_support.c_str(),
                     created->details.c_str()};
    *instance = created.release();
    return {};
  });
}

void Destroy(void* instance) { delete static_cast<Instance*>(instance); }

int32_t GetInfo(void* instance, opcts_backend_info* info) {
  if (instance == nullptr || info == nullptr) return OPCTS_STATUS_INVALID;
  *info = static_cast<Instance*>(instance)->info;
  return OPCTS_STATUS_OK;
}

// Valid descriptors this backend cannot run. Scans take every dtype and rank the ABI allows.
Result<void> CheckSupported(const opcts_op_desc& op) {
  const abi::Operator& info = *abi::FindOperator(op.type);
  if (std::string_view(info.family) != "scatter_nd") return {};
  const plugin::ScatterView view = plugin::ReadScatter(info, op.desc);
  if (IsSupportedIndexType(view.indices.desc->data_type)) return {};
  return NotSupported(std::string(view.indices.name) + ".DataType " +
                      std::to_string(view.indices.desc->data_type) +
                      " is not supported (INT32, INT64, UINT32, UINT64 are)");
}

Result<void> CheckOp(const opcts_op_desc* op) {
  if (op == nullptr) return InvalidInput("op is null");
  OPCTS_TRY(plugin::CheckDescriptor(*op));
  return CheckSupported(*op);
}

int32_t Query(void* instance, const opcts_op_desc* op, char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-simd", message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return InvalidInput("instance is null");
    return CheckOp(op);
  });
}

void Scan(const Instance& self, const opcts_tensor_desc& in_desc, const opcts_binding& in,
          const opcts_tensor_desc& out_desc, const opcts_binding& out, uint32_t axis, bool reverse,
          ScanOp op, bool exclusive) {
  const plugin::TensorLayout in_layout = plugin::MakeLayout(in_desc);
  const plugin::TensorLayout out_layout = plugin::MakeLayout(out_desc);
  RunScan({&in_layout, &out_layout, in.data, out.data, axis, reverse,
           ScanType{KindOf(in_desc.data_type), op, exclusive}, self.target, self.pool.get()});
}

int32_t Execute(void* instance, const opcts_op_desc* op, const opcts_binding* bindings,
                uint32_t binding_count, char* message, size_t capacity) {
  return plugin::GuardedCall("cpu-simd", message, capacity, [&]() -> Result<void> {
    if (instance == nullptr) return InvalidInput("instance is null");
    const Instance& self = *static_cast<Instance*>(instance);
    // A harness may execute without querying first: check everything again.
    OPCTS_TRY(CheckOp(op));
    OPCTS_TRY(plugin::CheckBindings(*op, bindings, binding_count));
    const abi::Operator& info = *abi::FindOperator(op->type);
    if (std::string_view(info.family) == "scatter_nd") {
      RunScatterND(plugin::ReadScatter(info, op->desc), bindings, *self.pool, self.target);
      return {};
    }
    // CheckDescriptor refuses the families plugin_support does not know: this is a scan.
    const plugin::ScanView scan = plugin::ReadScan(info, op->desc);
    OPCTS_ASSIGN_OR_RETURN(const uint32_t axis, plugin::ResolveScanAxis(scan, bindings));
    Scan(self, *scan.input.desc, bindings[scan.input.binding], *scan.output.desc,
         bindings[scan.output.binding], axis, scan.reverse != 0,
         scan.product ? ScanOp::kProduct : ScanOp::kSum, scan.exclusive != 0);
    return {};
  });
}

const opcts_backend_api kApi = {
    OPCTS_ABI_VERSION, sizeof(opcts_backend_api), Create, Destroy, GetInfo, Query, Execute};

}  // namespace
}  // namespace opcts::cpu_simd

extern "C" OPCTS_EXPORT const opcts_backend_api* opcts_backend_entry(void) {
  return &opcts::cpu_simd::kApi;
}
