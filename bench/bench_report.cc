#include "bench/bench_report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bench/bench_cases.h"

namespace opcts::bench {
namespace {

using nlohmann::json;

std::vector<std::string> Split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double Number(const json& entry, const char* key) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The fields kept from one run: the median entry when repetitions were aggregated, else the
// median of the iteration entries field by field.
struct Run {
  std::vector<const json*> iterations;
  const json* median = nullptr;
};

double Field(const Run& run, const char* key) {
  if (run.median != nullptr) return Number(*run.median, key);
  std::vector<double> values;
  for (const json* e : run.iterations) values.push_back(Number(*e, key));
  return Median(values);
}

std::string Fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

// GB/s with two decimals, or three significant digits below 0.1 (the oracle's MB/s).
std::string GBps(double bytes_per_second) {
  const double gb = bytes_per_second / 1e9;
  if (gb >= 0.1) return Fixed(gb, 2);
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", gb);
  return text;
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string ByteTick(double bytes) {
  const double kib = bytes / 1024;
  if (kib < 1024) return Fixed(kib, 0) + "K";
  const double mib = kib / 1024;
  if (mib < 1024) return Fixed(mib, 0) + "M";
  return Fixed(mib / 1024, 0) + "G";
}

template <class T>
void AddOnce(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// Stable: baselines of one size keep their file order.
void SortBySize(std::vector<MemcpyResult>& memcpy) {
  std::stable_sort(memcpy.begin(), memcpy.end(),
                   [](const MemcpyResult& a, const MemcpyResult& b) { return a.bytes < b.bytes; });
}

}  // namespace

Result<BenchResults> LoadBenchJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) return IoError(path + ": cannot open");
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {  // nlohmann reports a parse error only by throwing
    return InvalidInput(path + ": not JSON: " + e.what());
  }
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    return InvalidInput(path + ": no \"benchmarks\" array (not Google Benchmark JSON output)");
  BenchResults results;
  if (const auto ctx = doc.find("context"); ctx != doc.end() && ctx->is_object()) {
    std::string line = ctx->value("date", "");
    if (const auto load = ctx->find("load_avg"); load != ctx->end() && load->is_array()) {
      line += "; load average";
      for (const json& v : *load) {
        line += ' ';
        line += Fixed(v.is_number() ? v.get<double>() : 0, 2);
      }
    }
    for (const auto& [key, value] : ctx->items())
      if (key.rfind("backend ", 0) == 0 && value.is_string())
        line += "; " + key.substr(8) + ": " + value.get<std::string>();
    results.context = line;
  }

  std::map<std::string, Run> runs;
  std::vector<std::string> order;
  for (const json& e : doc["benchmarks"]) {
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string())
      return InvalidInput(path + ": a benchmark entry without a \"name\"");
    std::string name = e.value("run_name", e["name"].get<std::string>());
    const std::string kManual = "/manual_time";
    if (name.size() > kManual.size() && name.ends_with(kManual))
      name.resize(name.size() - kManual.size());
    if (e.value("error_occurred", false)) {
      results.skipped.push_back({name, e.value("error_message", "(no message)")});
      continue;
    }
    AddOnce(order, name);
    Run& run = runs[name];
    if (e.value("run_type", "iteration") == "aggregate") {
      if (e.value("aggregate_name", "") == "median") run.median = &e;
    } else {
      run.iterations.push_back(&e);
    }
  }

  for (const std::string& name : order) {
    const Run& run = runs[name];
    if (run.median == nullptr && run.iterations.empty()) continue;  // only mean/stddev: unused
    const std::vector<std::string> parts = Split(name, '/');
    const bool zeros = parts.size() == 3 && parts[0] == "memcpy" && parts[2] == "zeros";
    if ((parts.size() == 2 && parts[0] == "memcpy") || zeros) {
      const MemcpyResult m{Field(run, "bytes"), Field(run, "one_thread_memcpy_bytes_per_second"),
                           Field(run, "all_thread_memcpy_bytes_per_second"),
                           Field(run, "all_thread_stream_copy_bytes_per_second"),
                           static_cast<int>(Field(run, "memcpy_threads"))};
      if (m.bytes <= 0 || m.one_thread_bytes_per_second <= 0 ||
          m.all_thread_bytes_per_second <= 0 || m.all_thread_stream_bytes_per_second <= 0)
        return InvalidInput(path + ": benchmark \"" + name +
                            "\" lacks bytes or one of the three copies' counters (one-thread "
                            "and all-thread memcpy, all-thread streaming copy)");
      (zeros ? results.memcpy_zeros : results.memcpy).push_back(m);
      continue;
    }
    if (parts.size() != 5)
      return InvalidInput(path + ": benchmark \"" + name +
                          "\" is not op/backend/dtype/layout/size");
    BenchResult r{parts[0], parts[1], parts[2], parts[3], parts[4]};
    r.bytes = Field(run, "bytes");
    r.bytes_per_second = Field(run, "bytes_per_second");
    r.one_thread_memcpy_bytes_per_second = Field(run, "one_thread_memcpy_bytes_per_second");
    r.all_thread_memcpy_bytes_per_second = Field(run, "all_thread_memcpy_bytes_per_second");
    r.all_thread_stream_copy_bytes_per_second =
        Field(run, "all_thread_stream_copy_bytes_per_second");
    r.memcpy_threads = static_cast<int>(Field(run, "memcpy_threads"));
    r.ratio_to_copy_limit = Field(run, "ratio_to_copy_limit");
    r.ratio_to_one_thread_memcpy = Field(run, "ratio_to_one_thread_memcpy");
    r.ratio_to_scattered_copy = Field(run, "ratio_to_scattered_copy");
    r.ratio_to_in_place_rewrite = Field(run, "ratio_to_in_place_rewrite");
    r.back_to_back_bytes_per_second = Field(run, "back_to_back_bytes_per_second");
    r.device_copy_bytes_per_second = Field(run, "device_copy_bytes_per_second");
    r.ratio_to_device_copy = Field(run, "ratio_to_device_copy");
    r.staged_copy_bytes_per_second = Field(run, "staged_copy_bytes_per_second");
    r.ratio_to_staged_copy = Field(run, "ratio_to_staged_copy");
    r.repetitions = run.median != nullptr ? run.median->value("repetitions", 1)
                                          : static_cast<int>(run.iterations.size());
    if (r.bytes <= 0 || r.bytes_per_second <= 0 || r.ratio_to_copy_limit <= 0 ||
        r.ratio_to_one_thread_memcpy <= 0 || r.all_thread_stream_copy_bytes_per_second <= 0)
      return InvalidInput(path + ": benchmark \"" + name +
                          "\" lacks bytes, bytes_per_second, ratio_to_copy_limit, "
                          "ratio_to_one_thread_memcpy or all_thread_stream_copy_bytes_per_second "
                          "(a file from before the streaming copy joined the copy limit?)");
    results.results.push_back(r);
  }
  SortBySize(results.memcpy);
  SortBySize(results.memcpy_zeros);
  return results;
}

void BenchResults::Append(BenchResults more) {
  results.insert(results.end(), std::make_move_iterator(more.results.begin()),
                 std::make_move_iterator(more.results.end()));
  memcpy.insert(memcpy.end(), more.memcpy.begin(), more.memcpy.end());
  SortBySize(memcpy);
  memcpy_zeros.insert(memcpy_zeros.end(), more.memcpy_zeros.begin(), more.memcpy_zeros.end());
  SortBySize(memcpy_zeros);
  skipped.insert(skipped.end(), std::make_move_iterator(more.skipped.begin()),
                 std::make_move_iterator(more.skipped.end()));
  if (!more.context.empty()) context += (context.empty() ? "" : " | ") + more.context;
}

double TargetRatio(const BenchResult& r) {
  // An instance held to fewer threads (cpu-simd@threads=1) is a diagnostic, not the backend.
  if (r.backend.rfind("cpu-simd", 0) != 0 || r.backend.find("threads=") != std::string::npos ||
      r.size != "DRAM")
    return 0;
  if (r.layout.rfind("slice", 0) == 0) {  // ScatterND: slices of at least 1 KiB
    const bool small = r.layout.rfind("slice64B", 0) == 0;
    return small ? 0 : 0.8;
  }
  if (r.dtype == "f16" || r.dtype == "bf16") return 0.8;
  if (r.dtype == "f32" || r.dtype == "i32" || r.dtype == "f64" || r.dtype == "i64") return 0.9;
  return 0;
}

namespace {

// "a–b" GB/s over the values, or "a" when they round alike.
std::string GBpsRange(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const std::string a = GBps(*lo), b = GBps(*hi);
  return a == b ? a : a + "–" + b;
}

// The copy limit of one size class, from the baselines timed beside its cases.
std::string CopyLimitLine(const std::vector<const BenchResult*>& in_class) {
  std::vector<double> one, all, stream;
  int threads = 0, fastest[3] = {};  // one-thread memcpy, all-thread memcpy, streaming copy
  for (const BenchResult* r : in_class) {
    const double copies[3] = {r->one_thread_memcpy_bytes_per_second,
                              r->all_thread_memcpy_bytes_per_second,
                              r->all_thread_stream_copy_bytes_per_second};
    one.push_back(copies[0]);
    all.push_back(copies[1]);
    stream.push_back(copies[2]);
    threads = std::max(threads, r->memcpy_threads);
    ++fastest[std::max_element(copies, copies + 3) - copies];
  }
  const std::string n = std::to_string(threads);
  return "Copy limit here: one-thread memcpy " + GBpsRange(one) + " GB/s, " + n +
         "-thread memcpy " + GBpsRange(all) + " GB/s, " + n + "-thread streaming copy " +
         GBpsRange(stream) + " GB/s; the fastest was one-thread memcpy in " +
         std::to_string(fastest[0]) + ", " + n + "-thread memcpy in " + std::to_string(fastest[1]) +
         ", the streaming copy in " + std::to_string(fastest[2]) + " of " +
         std::to_string(in_class.size()) + " cases.\n";
}

// The copies of zero bytes beside the same copies of pseudo-random bytes (memcpy/<bytes>), or ""
// when the run has none: how much faster this machine writes zeros, which the copy limit does not
// copy.
std::string ZeroCopiesParagraph(const BenchResults& results) {
  std::ostringstream p;
  for (const MemcpyResult& z : results.memcpy_zeros)
    for (const MemcpyResult& m : results.memcpy) {
      if (m.bytes != z.bytes) continue;
      p << (p.tellp() == 0 ? "\nThe same copies of **zero bytes**, which the baselines never copy "
                             "(some machines write zeros faster than any other data), against "
                             "pseudo-random bytes (`memcpy/<bytes>/zeros` and `memcpy/<bytes>`): "
                           : "; ")
        << static_cast<uint64_t>(z.bytes) << " bytes: one-thread memcpy "
        << Fixed(z.one_thread_bytes_per_second / m.one_thread_bytes_per_second, 2) << "×, "
        << z.threads << "-thread memcpy "
        << Fixed(z.all_thread_bytes_per_second / m.all_thread_bytes_per_second, 2)
        << "×, streaming copy "
        << Fixed(z.all_thread_stream_bytes_per_second / m.all_thread_stream_bytes_per_second, 2)
        << "× (" << GBps(z.all_thread_stream_bytes_per_second) << " against "
        << GBps(m.all_thread_stream_bytes_per_second) << " GB/s)";
      break;
    }
  if (p.tellp() != 0) p << ".\n";
  return p.str();
}

// The device copies' GB/s over a size class's cases that have them, or "" when none has.
std::string DeviceCopyLine(const std::vector<const BenchResult*>& in_class) {
  std::vector<double> device, staged;
  for (const BenchResult* r : in_class)
    if (r->ratio_to_device_copy > 0) {
      device.push_back(r->device_copy_bytes_per_second);
      staged.push_back(r->staged_copy_bytes_per_second);
    }
  if (device.empty()) return "";
  return "Device copies (vulkan): vkCmdCopyBuffer " + GBpsRange(device) +
         " GB/s, staged round trip " + GBpsRange(staged) + " GB/s, in " +
         std::to_string(device.size()) + " cases.\n";
}

// A backend label's instance: the label of the same instance held to one thread (its other
// options in their order, then threads=1, as bench/run.sh names them) and the threads it asks
// for: 0 when it names none (every core, as cpu-simd's default), -1 when that is not a count.
struct Instance {
  std::string one_thread_label;
  int threads = 0;
};

Instance ParseInstance(const std::string& label) {
  Instance instance;
  const size_t at = label.find('@');
  std::vector<std::string> options;
  if (at != std::string::npos) {
    for (const std::string& option : Split(label.substr(at + 1), ';')) {
      if (option.rfind("threads=", 0) != 0) {
        options.push_back(option);
        continue;
      }
      const char* end = option.data() + option.size();
      int count = 0;
      const auto parsed = std::from_chars(option.data() + 8, end, count);
      instance.threads = parsed.ec == std::errc() && parsed.ptr == end && count > 0 ? count : -1;
    }
  }
  options.push_back("threads=1");
  instance.one_thread_label = label.substr(0, at) + "@";
  for (size_t i = 0; i < options.size(); ++i)
    instance.one_thread_label += (i ? ";" : "") + options[i];
  return instance;
}

// The roofline table of RenderMarkdown, or "" when no DRAM case has a compute ceiling.
std::string RenderRoofline(const BenchResults& results) {
  const std::string cached = kSizeClasses[0].name, memory = std::end(kSizeClasses)[-1].name;
  // One thread's back-to-back GB/s by "one-thread label/op/dtype/layout".
  auto key = [](const Instance& instance, const BenchResult& r) {
    return instance.one_thread_label + "/" + r.op + "/" + r.dtype + "/" + r.layout;
  };
  std::map<std::string, double> one_thread;
  for (const BenchResult& r : results.results) {
    const Instance instance = ParseInstance(r.backend);
    if (r.size == cached && instance.threads == 1 && r.back_to_back_bytes_per_second > 0)
      one_thread[key(instance, r)] = r.back_to_back_bytes_per_second;
  }
  std::ostringstream rows;
  int unlisted = 0;  // DRAM cases without a ceiling in these results
  for (const BenchResult& r : results.results) {
    if (r.size != memory) continue;
    const Instance instance = ParseInstance(r.backend);
    const auto it = one_thread.find(key(instance, r));
    const int threads = instance.threads > 0 ? instance.threads : r.memcpy_threads;
    const double limit = threads == 1 ? r.one_thread_memcpy_bytes_per_second
                                      : r.bytes_per_second / r.ratio_to_copy_limit;
    if (instance.threads < 0 || it == one_thread.end() || threads < 1 || limit <= 0) {
      ++unlisted;
      continue;
    }
    const double compute = threads * it->second;
    const double roof = std::min(limit, compute), no_overlap = 1 / (1 / limit + 1 / compute);
    rows << "| " << r.op << " | " << r.dtype << " | " << r.layout << " | " << r.backend << " | "
         << threads << " | " << GBps(r.bytes_per_second) << " | " << GBps(limit) << " | "
         << GBps(compute) << " | " << Fixed(r.bytes_per_second / roof, 2) << "× | "
         << GBps(no_overlap) << " | " << Fixed(r.bytes_per_second / no_overlap, 2) << "× |\n";
  }
  if (rows.str().empty()) return "";
  return "\n### Roofline (" + memory +
         ")\n\nPer case from memory: the **memory limit** (its copy limit; with one thread, one "
         "thread's memcpy), the **compute ceiling** (its threads × one thread's GB/s on the same "
         "case at " +
         cached +
         " size, executed back to back: cache-resident, nothing between the executions), the "
         "**roofline** (the lower of the two) and the bound **without overlap** (the two "
         "times added: 1 / (1/memory + 1/compute)). A case near 1× without overlap spends its "
         "memory time and its arithmetic one after the other. An instance without a threads "
         "option is taken to run on every core, as many as the copies use. " +
         std::to_string(unlisted) + " " + memory +
         " cases are not listed: these results hold no back-to-back figure for them on one "
         "thread (in place, no threads=1 run of the instance, or too slow to run back to back "
         "at " +
         cached +
         " size).\n\n"
         "| operator | dtype | layout | backend | threads | GB/s | memory limit | compute "
         "ceiling | ÷ roofline | without overlap | ÷ without overlap |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|\n" +
         rows.str();
}

}  // namespace

std::string RenderMarkdown(const BenchResults& results) {
  std::vector<std::string> backends, sizes;
  for (const BenchResult& r : results.results) AddOnce(backends, r.backend);
  for (const SizeClass& s : kSizeClasses) sizes.insert(sizes.begin(), s.name);  // DRAM first
  std::ostringstream md;
  md << "Run: " << results.context << "\n\n"
     << "**Baseline: the machine's copy limit**, the fastest of the copies of the case's "
        "bytes timed in the same iterations as the case: one thread's memcpy, memcpy split over "
        "every core, and a copy split over every core whose stores go around the caches "
        "(streaming stores; memcpy picks those only above a size it derives from the cache sizes "
        "it detects), the faster of it with and without its input prefetched into L2 (the "
        "**streaming copy**; files from before 2026-12-06 timed it without). Each cell: ratio to "
        "the copy limit · ratio to one-thread memcpy · the operator's GB/s (medians over "
        "repetitions); ✗ marks a missed target.\n";
  if (std::any_of(results.results.begin(), results.results.end(),
                  [](const BenchResult& r) { return r.ratio_to_scattered_copy > 0; }))
    md << "\nIn-place ScatterND cells end with the ratio to the **scattered copy**: the same "
          "slices memcpy'd over every core to the same rows of a buffer the output's size, timed "
          "in the same iterations: the limit of those scattered writes on this machine.\n";
  if (std::any_of(results.results.begin(), results.results.end(),
                  [](const BenchResult& r) { return r.ratio_to_in_place_rewrite > 0; }))
    md << "\nIn-place scan cells end with the ratio to the **rewrite in place**: the case's bytes "
          "read and written back in place through the caches over every core, the faster of it "
          "with and without a prefetch into L2, timed in the same iterations: the simplest pass "
          "in place, which on some machines outruns every copy to a second buffer. Their target "
          "stays against the copy limit.\n";
  if (std::any_of(results.results.begin(), results.results.end(),
                  [](const BenchResult& r) { return r.ratio_to_device_copy > 0; }))
    md << "\nvulkan cells end with the ratio to the **device copy** (`vkCmdCopyBuffer` of the "
          "case's bytes between two device-local buffers: the device's own memory limit) and to "
          "the **staged copy** (the bytes from host memory through host-visible staging to the "
          "device and back, the round trip every vulkan execute makes), each recorded, "
          "submitted and waited for as an execute is, in the same iterations.\n";
  md << ZeroCopiesParagraph(results);
  for (const std::string& size : sizes) {
    std::vector<std::string> rows;  // "op/dtype/layout" in first-seen order
    std::map<std::string, std::map<std::string, const BenchResult*>> cells;
    std::vector<const BenchResult*> in_class;
    for (const BenchResult& r : results.results) {
      if (r.size != size) continue;
      const std::string row = r.op + "/" + r.dtype + "/" + r.layout;
      AddOnce(rows, row);
      cells[row][r.backend] = &r;
      in_class.push_back(&r);
    }
    if (rows.empty()) continue;
    md << "\n### " << size << "\n\n"
       << CopyLimitLine(in_class) << DeviceCopyLine(in_class) << "\n| operator | dtype | layout |";
    for (const std::string& b : backends) md << " " << b << " |";
    md << " target |\n|---|---|---|";
    for (size_t i = 0; i <= backends.size(); ++i) md << "---|";
    md << "\n";
    for (const std::string& row : rows) {
      const std::vector<std::string> key = Split(row, '/');
      md << "| " << key[0] << " | " << key[1] << " | " << key[2] << " |";
      double target = 0;
      for (const std::string& b : backends) {
        const auto it = cells[row].find(b);
        if (it == cells[row].end()) {
          md << " – |";
          continue;
        }
        const BenchResult& r = *it->second;
        const double t = TargetRatio(r);
        target = std::max(target, t);
        const double ratio = r.ratio_to_copy_limit;
        const bool missed = t > 0 && ratio < t;
        md << " " << (missed ? "**" : "") << Fixed(ratio, ratio < 0.01 ? 4 : 2) << "×"
           << (missed ? "** ✗" : "") << " · "
           << Fixed(r.ratio_to_one_thread_memcpy, r.ratio_to_one_thread_memcpy < 0.01 ? 4 : 2)
           << "× · " << GBps(r.bytes_per_second);
        if (r.ratio_to_scattered_copy > 0)
          md << " · " << Fixed(r.ratio_to_scattered_copy, 2) << "× scattered copy";
        if (r.ratio_to_in_place_rewrite > 0)
          md << " · " << Fixed(r.ratio_to_in_place_rewrite, 2) << "× rewrite in place";
        if (r.ratio_to_device_copy > 0)
          md << " · " << Fixed(r.ratio_to_device_copy, r.ratio_to_device_copy < 0.01 ? 4 : 2)
             << "× device copy · " << Fixed(r.ratio_to_staged_copy, 2) << "× staged copy";
        md << " |";
      }
      md << " " << (target > 0 ? "≥ " + Fixed(target, 1) : "") << " |\n";
    }
  }
  md << RenderRoofline(results);
  if (!results.skipped.empty()) {
    md << "\n### Skipped\n\n";
    for (const Skip& s : results.skipped) md << "- `" << s.name << "`: " << s.reason << "\n";
  }
  return md.str();
}

std::string RenderSvg(const BenchResults& results) {
  // One header line per results file (their contexts are joined with " | "), at most three.
  std::vector<std::string> context_lines;
  for (size_t begin = 0; begin < results.context.size() && context_lines.size() < 3;) {
    size_t end = results.context.find(" | ", begin);
    if (end == std::string::npos) end = results.context.size();
    context_lines.push_back(results.context.substr(begin, std::min<size_t>(end - begin, 165)));
    begin = end + 3;
  }
  const double legend_y = 44 + 16 * static_cast<double>(context_lines.size());
  constexpr double kPanelW = 460, kPanelH = 300, kLeft = 60, kGapX = 40, kGapY = 60;
  const double kTop = legend_y + 26;
  constexpr double kPlotW = kPanelW - 70, kPlotH = kPanelH - 60;
  static const char* kColors[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
  std::vector<std::string> ops, backends;
  for (const BenchResult& r : results.results) {
    AddOnce(ops, r.op);
    AddOnce(backends, r.backend);
  }
  // Common axes: log2 bytes, log10 bytes/s, widened to whole decades / powers of 4.
  double x_min = 1e300, x_max = 0, y_min = 1e300, y_max = 0;
  auto widen = [&](double x, double y) {
    x_min = std::min(x_min, x), x_max = std::max(x_max, x);
    y_min = std::min(y_min, y), y_max = std::max(y_max, y);
  };
  for (const BenchResult& r : results.results) widen(r.bytes, r.bytes_per_second);
  for (const MemcpyResult& m : results.memcpy) {
    widen(m.bytes, m.one_thread_bytes_per_second);
    widen(m.bytes, m.all_thread_bytes_per_second);
    widen(m.bytes, m.all_thread_stream_bytes_per_second);
  }
  if (x_max == 0) x_min = 1, x_max = 2, y_min = 1e9, y_max = 1e10;
  const double lx0 = std::floor(std::log2(x_min) / 2) * 2,
               lx1 = std::ceil(std::log2(x_max) / 2) * 2 + (x_min == x_max ? 2 : 0);
  const double ly0 = std::floor(std::log10(y_min)),
               ly1 = std::ceil(std::log10(y_max)) + (y_min == y_max ? 1 : 0);

  const size_t columns = 2, panels = std::max<size_t>(ops.size(), 1);
  const double width = kLeft + columns * (kPanelW + kGapX);
  const size_t rows = (panels + 1) / columns;  // panels fill rows of `columns`
  const double height = kTop + static_cast<double>(rows) * (kPanelH + kGapY);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"20\" font-size=\"15\">opcts bench: throughput against size (bytes "
         "moved per second, log scales); copies of the same bytes: memcpy dashed one thread, "
         "dotted every core; streaming copy dash-dotted every core</text>\n";
  for (size_t i = 0; i < context_lines.size(); ++i)
    svg << "<text x=\"10\" y=\"" << 38 + 16 * i << "\" fill=\"#555\">" << Escape(context_lines[i])
        << "</text>\n";
  // Legend.
  double lx = 10;
  for (size_t b = 0; b < backends.size(); ++b) {
    svg << "<rect x=\"" << lx << "\" y=\"" << legend_y - 6 << "\" width=\"12\" height=\"4\" fill=\""
        << kColors[b % 6] << "\"/><text x=\"" << lx + 16 << "\" y=\"" << legend_y << "\">"
        << Escape(backends[b]) << "</text>\n";
    lx += 30 + 7 * static_cast<double>(backends[b].size());
  }
  svg << "<line x1=\"" << lx << "\" y1=\"" << legend_y - 4 << "\" x2=\"" << lx + 12 << "\" y2=\""
      << legend_y - 4 << "\" stroke=\"black\" stroke-dasharray=\"4 2\"/><text x=\"" << lx + 16
      << "\" y=\"" << legend_y << "\">memcpy, one thread</text>\n"
      << "<line x1=\"" << lx + 130 << "\" y1=\"" << legend_y - 4 << "\" x2=\"" << lx + 142
      << "\" y2=\"" << legend_y - 4 << "\" stroke=\"black\" stroke-dasharray=\"1 2\"/><text x=\""
      << lx + 146 << "\" y=\"" << legend_y << "\">memcpy, every core</text>\n"
      << "<line x1=\"" << lx + 260 << "\" y1=\"" << legend_y - 4 << "\" x2=\"" << lx + 272
      << "\" y2=\"" << legend_y - 4
      << "\" stroke=\"black\" stroke-dasharray=\"6 2 1 2\"/><text x=\"" << lx + 276 << "\" y=\""
      << legend_y << "\">streaming copy, every core</text>\n";

  for (size_t p = 0; p < panels; ++p) {
    const double ox = kLeft + static_cast<double>(p % columns) * (kPanelW + kGapX);
    const size_t row = p / columns;
    const double oy = kTop + static_cast<double>(row) * (kPanelH + kGapY);
    auto px = [&](double bytes) { return ox + (std::log2(bytes) - lx0) / (lx1 - lx0) * kPlotW; };
    auto py = [&](double bps) {
      return oy + 20 + kPlotH - (std::log10(bps) - ly0) / (ly1 - ly0) * kPlotH;
    };
    svg << "<g>\n<text x=\"" << ox << "\" y=\"" << oy + 12 << "\" font-size=\"13\">"
        << Escape(p < ops.size() ? ops[p] : "(no results)") << "</text>\n"
        << "<rect x=\"" << ox << "\" y=\"" << oy + 20 << "\" width=\"" << kPlotW << "\" height=\""
        << kPlotH << "\" fill=\"none\" stroke=\"#999\"/>\n";
    for (double e = lx0; e <= lx1; e += 2)
      svg << "<text x=\"" << px(std::exp2(e)) << "\" y=\"" << oy + 34 + kPlotH
          << "\" text-anchor=\"middle\">" << ByteTick(std::exp2(e)) << "</text>\n";
    for (double e = ly0; e <= ly1; ++e)
      svg << "<line x1=\"" << ox << "\" x2=\"" << ox + kPlotW << "\" y1=\"" << py(std::pow(10, e))
          << "\" y2=\"" << py(std::pow(10, e)) << "\" stroke=\"#eee\"/><text x=\"" << ox - 4
          << "\" y=\"" << py(std::pow(10, e)) + 4 << "\" text-anchor=\"end\">"
          << Escape(e >= 9 ? Fixed(std::pow(10, e - 9), 0) + " GB/s"
                           : Fixed(std::pow(10, e - 6), 0) + " MB/s")
          << "</text>\n";
    if (p >= ops.size()) {
      svg << "</g>\n";
      continue;
    }
    const std::pair<double MemcpyResult::*, const char*> copy_lines[] = {
        {&MemcpyResult::one_thread_bytes_per_second, "4 2"},
        {&MemcpyResult::all_thread_bytes_per_second, "1 2"},
        {&MemcpyResult::all_thread_stream_bytes_per_second, "6 2 1 2"}};
    for (const auto& [bytes_per_second, dashes] : copy_lines) {
      std::string points;
      for (const MemcpyResult& m : results.memcpy)
        points += Fixed(px(m.bytes), 1) + "," + Fixed(py(m.*bytes_per_second), 1) + " ";
      svg << "<polyline points=\"" << points
          << "\" fill=\"none\" stroke=\"black\" stroke-dasharray=\"" << dashes << "\"/>\n";
    }
    for (size_t b = 0; b < backends.size(); ++b) {
      // Dots per case; the line joins geometric means per size class.
      std::map<std::string, std::pair<double, double>> log_sums;
      std::map<std::string, int> counts;
      for (const BenchResult& r : results.results) {
        if (r.op != ops[p] || r.backend != backends[b]) continue;
        svg << "<circle cx=\"" << Fixed(px(r.bytes), 1) << "\" cy=\""
            << Fixed(py(r.bytes_per_second), 1) << "\" r=\"2\" fill=\"" << kColors[b % 6]
            << "\" fill-opacity=\"0.35\"><title>"
            << Escape(r.op + "/" + r.backend + "/" + r.dtype + "/" + r.layout + "/" + r.size)
            << ": " << GBps(r.bytes_per_second) << " GB/s, " << Fixed(r.ratio_to_copy_limit, 3)
            << "x the copy limit</title></circle>\n";
        log_sums[r.size].first += std::log(r.bytes);
        log_sums[r.size].second += std::log(r.bytes_per_second);
        ++counts[r.size];
      }
      std::string points;
      for (const SizeClass& s : kSizeClasses) {
        if (!counts.count(s.name)) continue;
        const double n = counts[s.name];
        points += Fixed(px(std::exp(log_sums[s.name].first / n)), 1) + "," +
                  Fixed(py(std::exp(log_sums[s.name].second / n)), 1) + " ";
      }
      svg << "<polyline points=\"" << points << "\" fill=\"none\" stroke=\"" << kColors[b % 6]
          << "\" stroke-width=\"2\"/>\n";
    }
    svg << "</g>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace opcts::bench
