// opcts_bench_report: renders opcts_bench JSON as an SVG plot and a Markdown ratio table.
//
//   opcts_bench_report bench.json [more.json...] [--svg FILE] [--markdown FILE]
//
// Exit status: 0 rendered; 1 the files hold no operator result or no memcpy baseline; 2 bad
// usage or an unreadable file (the message names it).
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_report.h"

namespace {

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out.flush()) {
    std::cerr << "opcts_bench_report: cannot write " << path << "\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  std::string svg, markdown;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--svg" || arg == "--markdown") && i + 1 < argc) {
      (arg == "--svg" ? svg : markdown) = argv[++i];
    } else if (arg.rfind("--", 0) == 0) {
      std::cerr << "opcts_bench_report: unknown option " << arg
                << "\nusage: opcts_bench_report JSON... [--svg FILE] [--markdown FILE]\n";
      return 2;
    } else {
      inputs.push_back(arg);
    }
  }
  if (inputs.empty()) {
    std::cerr << "usage: opcts_bench_report JSON... [--svg FILE] [--markdown FILE]\n";
    return 2;
  }
  opcts::bench::BenchResults results;
  for (const std::string& path : inputs) {
    opcts::Result<opcts::bench::BenchResults> loaded = opcts::bench::LoadBenchJson(path);
    if (!loaded) {
      std::cerr << "opcts_bench_report: " << loaded.error().message << "\n";
      return 2;
    }
    results.Append(std::move(loaded).value());
  }
  if (!svg.empty() && !WriteFile(svg, opcts::bench::RenderSvg(results))) return 2;
  const std::string table = opcts::bench::RenderMarkdown(results);
  if (!markdown.empty() && !WriteFile(markdown, table)) return 2;
  if (markdown.empty()) std::cout << table;
  if (results.results.empty() || results.memcpy.empty()) {
    std::cerr << "opcts_bench_report: "
              << (results.results.empty() ? "no operator result" : "no memcpy baseline") << " in "
              << inputs.front() << (inputs.size() > 1 ? " and the others" : "") << "\n";
    return 1;
  }
  return 0;
}
