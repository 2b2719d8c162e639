#include "conformance/group_shrink.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "conformance/repro_command.h"
#include "conformance/shrink.h"
#include "reports/text_escape.h"

namespace opcts {
namespace {

// In the child: shrink, write the vector file, and report the minimal shape on `fd` as
// "<original elements> <elements> <size>..."; exits 0 when it wrote both, non-zero otherwise.
[[noreturn]] void ShrinkInChild(const ShrinkPlugin& plugin, const CaseRecipe& recipe,
                                const GroupShrinkOptions& options, const std::string& file,
                                int fd) {
  alarm(static_cast<unsigned>(std::ceil(options.seconds_per_group)) + 30);  // a hung backend
  PluginLoad load = LoadPlugin(plugin.path, plugin.options);
  if (!load) _exit(3);
  const ShrinkResult r =
      Shrink(**load, recipe, {.seconds = options.seconds_per_group, .run = options.run});
  if (!r.Searched()) _exit(4);
  std::ofstream out(file);
  if (!(out << VectorToJson(r.vector).dump(1) << "\n").flush()) _exit(6);
  std::ostringstream line;
  line << r.original_size.Elements() << " " << r.minimal_size.Elements();
  for (uint32_t size : r.minimal_size.shape) line << " " << size;
  const std::string text = line.str() + "\n";
  _exit(write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) ? 0 : 5);
}

// A backend's name as part of a file name: its own options (NAME@OPTIONS) may hold a '/'.
std::string FileNamePart(std::string name) {
  std::replace(name.begin(), name.end(), '/', '_');
  return name;
}

}  // namespace

std::vector<ShrunkRecord> ShrinkFailureGroups(const Report& report,
                                              const std::vector<CaseRecipe>& cases,
                                              const std::map<std::string, ShrinkPlugin>& plugins,
                                              const GroupShrinkOptions& options,
                                              std::ostream& err) {
  std::map<std::string, const CaseRecipe*> by_id;
  for (const CaseRecipe& c : cases) by_id[c.id] = &c;
  std::vector<ShrunkRecord> shrunk;
  std::error_code ec;
  std::filesystem::create_directories(options.dir, ec);
  for (const FailureGroup& group : report.failure_groups) {
    const CaseRecord& smallest = report.cases[group.smallest].record;
    const auto recipe = by_id.find(smallest.id);
    const auto plugin = plugins.find(smallest.backend);
    if (recipe == by_id.end() || plugin == plugins.end() ||
        !ShrinkRefusal(*recipe->second, group.status).empty())
      continue;
    const std::string file =
        options.dir + "/" + FileNamePart(smallest.backend) + "." + smallest.id + ".json";
    err << "shrinking " << TerminalSafe(smallest.backend) << " " << smallest.id << "\n";
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) break;
    std::cout.flush();
    err.flush();
    const pid_t pid = fork();
    if (pid == 0) {
      close(pipe_fds[0]);
      ShrinkInChild(plugin->second, *recipe->second, options, file, pipe_fds[1]);
    }
    close(pipe_fds[1]);
    int status = 0;
    if (pid > 0) waitpid(pid, &status, 0);
    char text[512] = "";
    const ssize_t n = pid > 0 ? read(pipe_fds[0], text, sizeof text - 1) : -1;
    close(pipe_fds[0]);
    if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || n <= 0) {
      err << "  not shrunk: "
          << (pid > 0 && WIFSIGNALED(status)
                  ? "the search died by signal " + std::to_string(WTERMSIG(status)) +
                        (WTERMSIG(status) == SIGALRM ? " (its time limit)" : "")
                  : "the case did not fail again, or its vector file could not be written")
          << "\n";
      continue;
    }
    text[n] = '\0';
    ShrunkRecord record{smallest.backend, smallest.id, {}, 0, 0, file, ""};
    std::istringstream in(text);
    in >> record.original_elements >> record.elements;
    for (uint32_t size; in >> size;) record.shape.push_back(size);
    record.repro = VectorsCommand(plugin->second.path,
                                  {plugin->second.options, options.run.float_rules}, file);
    err << "  " << record.original_elements << " -> " << record.elements << " element(s): " << file
        << "\n";
    shrunk.push_back(std::move(record));
  }
  return shrunk;
}

}  // namespace opcts
