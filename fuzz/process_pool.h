// Runs commands, at most `slots` at a time, each until it exits or its deadline passes (then
// SIGINT, and SIGKILL two seconds later, to its whole process group). Every line a command prints
// (stdout and stderr) reaches the caller as it comes, with the time it came, and is kept in the
// command's log file.
//
//   ProcessPool pool(2, clock);
//   pool.Add({.argv = {...}, .log = "x.log", .deadline = 60});
//   pool.Run([](Command& c, double t) {...},                 // just before it starts
//            [](size_t job, double t, std::string_view line) {...},
//            [](size_t job, int code, double t) { return std::optional<Command>{}; });
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opcts {

struct Command {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // added to the parent's environment
  std::string log;                         // every line, appended
  double deadline = 0;                     // seconds on the pool's clock
  size_t job = 0;                          // the caller's tag, given back with lines and exits
};

class ProcessPool {
 public:
  using Clock = std::chrono::steady_clock;
  ProcessPool(size_t slots, Clock::time_point start) : slots_(slots), start_(start) {}

  void Add(Command command) { queue_.push_back(std::move(command)); }
  double Now() const;

  // `on_start(command, seconds)` just before a command starts (it may still change it);
  // `on_line(job, seconds, line)` for each line; `on_exit(job, code, seconds)` when a command
  // ends (code: the exit status, or 128 + the signal), which may return the command that takes
  // its slot next (a restart). Returns when the queue is empty and every command has ended.
  void Run(const std::function<void(Command&, double)>& on_start,
           const std::function<void(size_t, double, std::string_view)>& on_line,
           const std::function<std::optional<Command>(size_t, int, double)>& on_exit);

 private:
  size_t slots_;
  Clock::time_point start_;
  std::vector<Command> queue_;
};

}  // namespace opcts
