#include "conformance/worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "conformance/case_executor.h"
#include "conformance/case_run.h"
#include "conformance/guarded_memory.h"
#include "conformance/stop_signal.h"
#include "reports/status.h"

namespace opcts {
namespace {

constexpr size_t kStderrTail = 2000;     // shown of a crash, and of a failure's output
constexpr size_t kOutputKept = 1 << 16;  // output not yet matched to a result
// Written into the output stream before each case: "\x1e<index>\n" splits it by case.
constexpr char kCaseMark = '\x1e';

// The last kStderrTail bytes of `text`, lines joined by spaces.
std::string OneLine(std::string text) {
  if (text.size() > kStderrTail) text.erase(0, text.size() - kStderrTail);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

constexpr int kUncaughtException = 70;
// Marks the result line a worker writes just before it exits (a fault it could attribute).
constexpr const char* kLastResult = "X";

bool WriteAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// One result line: index, group, status, duration, max error, bound, ULP, behaviour, message;
// tab-separated, compact so that isolation costs little per case.
std::string EncodeResult(size_t index, CaseGroup group, const CaseOutcome& o) {
  char numbers[128];
  auto number = [](const std::optional<double>& v) { return v ? *v : std::nan(""); };
  std::snprintf(numbers, sizeof numbers, "%llu\t%.17g\t%.17g\t%.17g",
                static_cast<unsigned long long>(o.duration_us), number(o.max_error),
                number(o.bound), number(o.ulp));
  std::string message = o.message;
  for (char& c : message)
    if (c == '\t' || c == '\n') c = ' ';
  return std::to_string(index) + "\t" + std::string(GroupName(group)) + "\t" +
         std::string(StatusName(o.status)) + "\t" + numbers + "\t" + o.behaviour + "\t" + message +
         "\n";
}

bool DecodeResult(std::string line, size_t* index, CaseGroup* group, CaseOutcome* o, bool* last) {
  *last = line.rfind(kLastResult, 0) == 0;
  if (*last) line.erase(0, std::strlen(kLastResult));
  std::vector<std::string> fields;
  size_t start = 0;
  for (int f = 0; f < 8; ++f) {
    const size_t tab = line.find('\t', start);
    if (tab == std::string::npos) return false;
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  o->message = line.substr(start);
  try {
    *index = std::stoull(fields[0]);
    const std::optional<CaseGroup> g = GroupNamed(fields[1]);
    const std::optional<Status> status = StatusNamed(fields[2]);
    if (!g || !status) return false;
    *group = *g;
    o->status = *status;
    o->duration_us = std::stoull(fields[3]);
    auto number = [](const std::string& text) -> std::optional<double> {
      const double v = std::strtod(text.c_str(), nullptr);
      return std::isnan(v) ? std::nullopt : std::optional<double>(v);
    };
    o->max_error = number(fields[4]);
    o->bound = number(fields[5]);
    o->ulp = number(fields[6]);
    o->behaviour = fields[7];
  } catch (...) {
    return false;
  }
  return true;
}

// The worker: load the backend, say hello, then run the ranges it is sent until stdin closes.
[[noreturn]] void WorkerMain(const std::vector<CaseRecipe>& cases, const std::string& backend,
                             const std::string& options, FloatRules float_rules, int command_fd,
                             int result_fd) {
  PluginLoad load = LoadPlugin(backend, options);
  if (!load) {
    WriteAll(result_fd,
             std::string("E ") + (IsUnavailable(load) ? "1 " : "0 ") + load.error().message + "\n");
    _exit(0);
  }
  const Plugin& plugin = **load;
  const opcts_backend_info& info = plugin.info();
  const nlohmann::json hello = {{"name", info.name},
                                {"version", info.version},
                                {"device", info.device},
                                {"feature_level", plugin.FeatureLevel()},
                                {"extra_support", plugin.ExtraSupport()},
                                {"details", info.details ? info.details : ""},
                                {"path", plugin.path()}};
  if (!WriteAll(result_fd,
                "H " + hello.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"))
    _exit(1);
  InstallOutOfBoundsReporter(result_fd);
  FILE* commands = fdopen(command_fd, "r");
  unsigned long long begin = 0, end = 0;
  while (commands && std::fscanf(commands, "%llu %llu", &begin, &end) == 2) {
    for (size_t i = begin; i < end && i < cases.size(); ++i) {
      const CaseRecipe& c = cases[i];
      PreparedCase prepared(c);
      const CaseGroup group = GroupFor(c, ClaimsOf(plugin));
      if (group != CaseGroup::kInvalid)
        prepared.expected();  // the oracle runs before the case is in flight
      // What a guard-page fault during this case reports: a Fail, and the worker's last line.
      CaseOutcome fault;
      fault.status = Status::kFail;
      std::string fault_line = EncodeResult(i, group, fault);
      fault_line.pop_back();  // the message follows
      SetCaseInFlight(kLastResult + fault_line);
      WriteAll(STDERR_FILENO, kCaseMark + std::to_string(i) + "\n");
      const CaseVerdict v = RunCase(plugin, prepared, group, {.float_rules = float_rules});
      SetCaseInFlight("");
      if (!WriteAll(result_fd, EncodeResult(i, group, v.outcome))) _exit(1);
    }
  }
  _exit(0);
}

}  // namespace

std::unique_ptr<Worker> Worker::Start(const std::vector<CaseRecipe>& cases,
                                      const std::string& backend, const std::string& options,
                                      FloatRules float_rules, std::chrono::milliseconds limit,
                                      StartError* error) {
  int command[2], result[2], err[2];
  if (pipe2(command, O_CLOEXEC) != 0 || pipe2(result, O_CLOEXEC) != 0 ||
      pipe2(err, O_CLOEXEC) != 0) {
    error->message = std::string("cannot create pipes: ") + std::strerror(errno);
    return nullptr;
  }
  std::cout.flush();
  std::cerr.flush();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    error->message = std::string("cannot fork a worker: ") + std::strerror(errno);
    return nullptr;
  }
  if (pid == 0) {
    // Its own process group, so the worker and anything it starts are stopped together; and
    // killed if opcts dies, so no hung worker outlives the run.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    dup2(err[1], STDERR_FILENO);
    dup2(err[1], STDOUT_FILENO);  // a plugin's prints must not mix with (or forge) opcts's output
    close(command[1]);
    close(result[0]);
    close(err[0]);
    signal(SIGPIPE, SIG_DFL);
    // The child must never unwind into the parent's code above this frame.
    try {
      WorkerMain(cases, backend, options, float_rules, command[0], result[1]);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "uncaught exception escaped the backend: %s\n", e.what());
    } catch (...) {
      std::fprintf(stderr, "uncaught exception of unknown type escaped the backend\n");
    }
    _exit(kUncaughtException);
  }
  setpgid(pid, pid);  // also here: whichever runs first, the group exists before any kill
  close(command[0]);
  close(result[1]);
  close(err[1]);
  std::unique_ptr<Worker> w(new Worker);
  w->pid_ = pid;
  w->command_fd_ = command[1];
  w->result_fd_ = result[0];
  w->stderr_fd_ = err[0];
  fcntl(w->stderr_fd_, F_SETFL, O_NONBLOCK);
  fcntl(w->result_fd_, F_SETFL,
        O_NONBLOCK);  // a forked child may hold it open after the worker died

  std::string line;
  bool timed_out = false;
  if (!w->ReadLine(limit, &line, &timed_out)) {
    if (StopSignal()) {
      error->message = "interrupted while loading the backend";
      return nullptr;
    }
    error->crashed = true;
    error->message = timed_out
                         ? "did not finish loading within " + std::to_string(limit.count()) + " ms"
                         : "worker died while loading the backend: " + w->DeathReason();
    return nullptr;
  }
  if (line.rfind("E ", 0) == 0 && line.size() >= 4) {
    error->unavailable = line[2] == '1';
    error->message = line.substr(4);
    return nullptr;
  }
  const nlohmann::json hello = nlohmann::json::parse(line.substr(2), nullptr, false);
  if (line.rfind("H ", 0) != 0 || hello.is_discarded()) {
    error->message = "worker sent a malformed greeting";
    return nullptr;
  }
  w->info_ = {hello.value("name", ""),
              hello.value("version", ""),
              hello.value("device", ""),
              hello.value("feature_level", ""),
              hello.value("extra_support", std::vector<std::string>{}),
              hello.value("details", "")};
  w->path_ = hello.value("path", "");
  return w;
}

Worker::~Worker() {
  if (command_fd_ >= 0) close(command_fd_);
  if (pid_ > 0) {
    kill(-pid_, SIGKILL);
    if (!wait_status_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  if (result_fd_ >= 0) close(result_fd_);
  if (stderr_fd_ >= 0) close(stderr_fd_);
}

bool Worker::Run(size_t begin, size_t end) {
  return WriteAll(command_fd_, std::to_string(begin) + " " + std::to_string(end) + "\n");
}

bool Worker::OverMemoryLimit(std::string* why) {
  const auto now = std::chrono::steady_clock::now();
  if (memory_limit_ == 0 || pid_ <= 0 || now - memory_checked_ < std::chrono::milliseconds(20))
    return false;
  memory_checked_ = now;
  const std::optional<uint64_t> resident = memory_.Sample(pid_, cases_finished_, /*force=*/true);
  if (!resident || *resident <= memory_limit_) return false;
  const uint64_t bytes = *resident;
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
  *why = "the worker's resident memory reached " + std::to_string(bytes >> 20) +
         " MiB, over the limit of " + std::to_string(memory_limit_ >> 20) +
         " MiB (--memory-limit); it was killed";
  return true;
}

MemoryRecord Worker::MemorySummary(const std::string& backend) {
  if (pid_ > 0 && !wait_status_) memory_.Sample(pid_, cases_finished_, /*force=*/true);
  return memory_.Summary(backend, cases_finished_);
}

bool Worker::Exited() {
  if (wait_status_) return true;
  int status = 0;
  if (pid_ <= 0 || waitpid(pid_, &status, WNOHANG) != pid_) return false;
  wait_status_ = status;
  kill(-pid_, SIGKILL);  // whatever the worker started dies with it
  return true;
}

bool Worker::ReadLine(std::chrono::milliseconds limit, std::string* line, bool* timed_out) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  *timed_out = false;
  for (;;) {
    if (StopSignal()) return false;
    if (OverMemoryLimit(&memory_why_)) {
      over_memory_limit_ = true;
      return false;
    }
    if (const size_t eol = buffer_.find('\n'); eol != std::string::npos) {
      *line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      return true;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      *timed_out = true;
      return false;
    }
    pollfd fds[2] = {{result_fd_, POLLIN, 0}, {stderr_fd_, POLLIN, 0}};
    const int64_t wake = memory_limit_ ? 20 : 1000;  // the memory check needs a pulse
    const int ready = poll(fds, 2, static_cast<int>(std::min<int64_t>(left.count(), wake)));
    if (ready < 0 && errno != EINTR) return false;
    char chunk[65536];
    if (fds[1].revents & POLLIN) {
      const ssize_t n = read(stderr_fd_, chunk, sizeof chunk);
      if (n > 0) Keep(chunk, static_cast<size_t>(n));
    }
    const bool exited = Exited();  // checked before the last read: nothing it wrote is lost
    if (exited || (fds[0].revents & (POLLIN | POLLHUP))) {
      ssize_t n;
      while ((n = read(result_fd_, chunk, sizeof chunk)) > 0)
        buffer_.append(chunk, static_cast<size_t>(n));
      if (buffer_.find('\n') != std::string::npos) continue;
      if (n == 0 || exited) return false;  // the worker is gone
    }
  }
}

std::string Worker::DeathReason() {
  int status = wait_status_.value_or(0);
  const pid_t reaped = wait_status_ ? pid_ : waitpid(pid_, &status, 0);
  kill(-pid_, SIGKILL);  // whatever the worker started dies with it
  pid_ = -1;
  // Collect what the worker said on its way out (abort messages, uncaught exceptions).
  DrainOutput();
  std::string why;
  if (reaped <= 0)
    why = "lost the worker";
  else if (WIFSIGNALED(status))
    why = "signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  else if (WIFEXITED(status))
    why = "the worker exited with status " + std::to_string(WEXITSTATUS(status));
  if (std::string tail = OutputTail(); !tail.empty()) why += "; stderr: " + tail;
  return why;
}

void Worker::DrainOutput() {
  char chunk[4096];
  for (ssize_t n; (n = read(stderr_fd_, chunk, sizeof chunk)) > 0;)
    Keep(chunk, static_cast<size_t>(n));
}

void Worker::Keep(const char* data, size_t size) {
  output_.append(data, size);
  if (output_.size() > kOutputKept) output_.erase(0, output_.size() - kOutputKept);
}

std::string Worker::TakeCaseOutput(size_t index) {
  const std::string mark = kCaseMark + std::to_string(index) + "\n";
  const size_t at = output_.find(mark);
  if (at == std::string::npos) return "";
  const size_t begin = at + mark.size();
  const size_t end = std::min(output_.find(kCaseMark, begin), output_.size());
  std::string text = output_.substr(begin, end - begin);
  output_.erase(0, end);
  return OneLine(text);
}

std::string Worker::OutputTail() const {
  std::string text;  // without the case marks
  for (size_t i = 0; i < output_.size(); ++i) {
    if (output_[i] != kCaseMark) {
      text += output_[i];
      continue;
    }
    i = std::min(output_.find('\n', i), output_.size());
  }
  return OneLine(text);
}

Worker::Event Worker::Next(std::chrono::milliseconds limit, Result* result, std::string* why) {
  std::string line;
  bool timed_out = false;
  if (!ReadLine(limit, &line, &timed_out)) {
    if (StopSignal()) return Event::kInterrupted;
    if (over_memory_limit_) {
      *why = memory_why_;
      return Event::kMemoryLimit;
    }
    if (timed_out) {
      *why = "no result within " + std::to_string(limit.count()) + " ms; the worker was killed";
      return Event::kTimedOut;
    }
    *why = DeathReason();
    return Event::kCrashed;
  }
  if (!DecodeResult(line, &result->index, &result->group, &result->outcome, &exiting_)) {
    *why = "the worker sent a malformed result";
    return Event::kCrashed;
  }
  memory_.Sample(pid_, ++cases_finished_);
  // What the backend printed while this case ran (written before its result): kept with a
  // failure, then dropped, so each case's output stays its own.
  DrainOutput();
  const std::string output = TakeCaseOutput(result->index);
  if (IsGateFailure(result->outcome.status, /*strict=*/false) && !output.empty())
    result->outcome.message += "; backend output: " + output;
  return Event::kResult;
}

}  // namespace opcts
