// opcts_bench: every benchmark case (bench_cases.h) on every chosen backend, plus memcpy of each
// case's byte count, as Google Benchmark runs. bench/README.md shows how to run it.
//
//   opcts_bench [--backend NAME[@OPTIONS]]... [--benchmark_* flags]
//
// NAME is a built-in backend (cpu-reference, cpu-simd, vulkan) or a plugin path; OPTIONS go to
// its create() ("threads=1"). Default: every built-in backend found.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/bench_cases.h"
#include "bench/case_timer.h"
#include "bench/device_copy.h"
#include "conformance/plugin_loader.h"
#include "conformance/spec_set.h"

namespace opcts::bench {
namespace {

struct Backend {
  std::string label;  // in benchmark names: "cpu-simd", or "cpu-simd@threads=1"
  std::unique_ptr<Plugin> plugin;
  std::unique_ptr<DeviceCopy> device_copy;  // the vulkan backend's device, else null
};

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

// A built-in's name, or a plugin path's file name without "opcts-" and ".so": two builds of
// one backend stay apart.
std::string PluginName(const std::string& name_or_path) {
  std::string label = std::filesystem::path(name_or_path).stem().string();
  return label.rfind("opcts-", 0) == 0 ? label.substr(6) : label;
}

// Removes --backend flags from argv; returns false (with a message) on a bad one.
bool TakeBackendFlags(int* argc, char** argv, std::vector<std::string>* specs) {
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--backend") {
      if (i + 1 >= *argc) {
        std::cerr << "opcts_bench: --backend needs a value (a built-in name or a plugin path)\n";
        return false;
      }
      specs->push_back(argv[++i]);
    } else if (arg.rfind("--backend=", 0) == 0) {
      specs->push_back(arg.substr(10));
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return true;
}

int Main(int argc, char** argv) {
  std::vector<std::string> specs;
  if (!TakeBackendFlags(&argc, argv, &specs)) return 2;
  if (specs.empty()) specs = BuiltinBackendNames();
  if (specs.empty()) {
    std::cerr << "opcts_bench: no built-in backend in " << BuiltinPluginDir()
              << " (set OPCTS_PLUGIN_DIR or pass --backend PATH)\n";
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  std::vector<Backend> backends;
  for (const std::string& spec : specs) {
    const BackendArg arg = ParseBackendArg(spec, "");
    const std::string& name = arg.name_or_path;
    const std::string& options = arg.options;
    PluginLoad load = LoadPlugin(name, options);
    if (IsUnavailable(load)) {  // e.g. no Vulkan device: say so, benchmark the others
      std::cerr << "opcts_bench: backend " << spec << " unavailable here: " << load.error().message
                << "\n";
      benchmark::AddCustomContext("backend " + spec, "unavailable: " + load.error().message);
      continue;
    }
    if (!load) {
      std::cerr << "opcts_bench: " << load.error().message << "\n";
      return 2;
    }
    const opcts_backend_info& info = (*load)->info();
    const std::string label = arg.Label(PluginName(name));  // NAME@OPTIONS, as opcts run names it
    const std::string details = info.details;
    benchmark::AddCustomContext("backend " + label,
                                info.device + (details.empty() ? "" : "; " + details));
    Result<std::unique_ptr<DeviceCopy>> device_copy = OpenDeviceCopy(name, options);
    if (!device_copy) {  // the backend opened this device a moment ago: not expected
      std::cerr << "opcts_bench: backend " << spec
                << " loaded, but its device's copy baseline could not be opened: "
                << device_copy.error().message << "\n";
      return 2;
    }
    backends.push_back({label, std::move(load).value(), std::move(device_copy).value()});
  }

  const SpecSet spec_set = LoadSpecSet(DefaultSpecDir());
  if (!spec_set.errors.empty()) {
    for (const std::string& e : spec_set.errors) std::cerr << e << "\n";
    return 2;
  }
  // Static: the registered lambdas refer to the cases until the program ends.
  static const std::vector<BenchCase> cases = GenerateBenchCases(spec_set);
  benchmark::AddCustomContext("load average at start", LoadAverage());

  // The copies on their own, of every case's size; of zero bytes too at the DRAM class's tensor
  // size (the report says how much faster this machine writes zeros).
  std::set<uint64_t> copy_sizes;
  for (const BenchCase& c : cases) copy_sizes.insert(c.bytes);
  const uint64_t zeros_size = kSizeClasses[std::size(kSizeClasses) - 1].tensor_bytes;
  for (uint64_t bytes : copy_sizes) {
    const std::string name = "memcpy/" + std::to_string(bytes);
    benchmark::RegisterBenchmark(name.c_str(), [bytes](benchmark::State& s) {
      TimeMemcpy(s, bytes, /*zeros=*/false);
    })->UseManualTime();
    if (bytes == zeros_size)
      benchmark::RegisterBenchmark((name + "/zeros").c_str(), [bytes](benchmark::State& s) {
        TimeMemcpy(s, bytes, /*zeros=*/true);
      })->UseManualTime();
  }
  for (const BenchCase& c : cases)
    for (const Backend& b : backends) {
      const Plugin* plugin = b.plugin.get();
      DeviceCopy* device_copy = b.device_copy.get();
      benchmark::RegisterBenchmark(c.Name(b.label).c_str(), [plugin, device_copy,
                                                             &c](benchmark::State& s) {
        TimeCase(s, *plugin, c, device_copy);
      })->UseManualTime();
    }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace opcts::bench

int main(int argc, char** argv) { return opcts::bench::Main(argc, argv); }
