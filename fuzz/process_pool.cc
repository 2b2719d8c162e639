#include "fuzz/process_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>

namespace opcts {
namespace {

constexpr double kKillGraceSeconds = 2;

struct Running {
  Command command;
  pid_t pid = -1;
  int fd = -1;          // the read end of the command's stdout and stderr
  std::string pending;  // a line not yet ended
  std::ofstream log;
  bool interrupted = false, killed = false;
};

// Forks `c` with its output into a pipe; the read end, or -1 when it cannot start (said on the
// log, as the exit status 127 then says).
pid_t Start(const Command& c, int& read_fd) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return -1;
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);  // its own group: a deadline stops what it started too (-minimize_crash's runs)
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    for (const auto& [name, value] : c.env) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> args;
    args.reserve(c.argv.size() + 1);
    for (const std::string& a : c.argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);  // as the child does: whichever runs first
  close(fds[1]);
  read_fd = fds[0];
  return pid;
}

}  // namespace

double ProcessPool::Now() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void ProcessPool::Run(const std::function<void(Command&, double)>& on_start,
                      const std::function<void(size_t, double, std::string_view)>& on_line,
                      const std::function<std::optional<Command>(size_t, int, double)>& on_exit) {
  std::deque<Command> queue(queue_.begin(), queue_.end());
  queue_.clear();
  std::vector<Running> running;
  const auto emit = [&](Running& r, std::string_view line) {
    r.log << line << "\n";
    on_line(r.command.job, Now(), line);
  };
  while (!queue.empty() || !running.empty()) {
    while (running.size() < slots_ && !queue.empty()) {
      Running r;
      r.command = std::move(queue.front());
      queue.pop_front();
      on_start(r.command, Now());
      r.log.open(r.command.log, std::ios::app);
      r.pid = Start(r.command, r.fd);
      if (r.pid < 0) {
        emit(r, "opcts fuzz: could not start " + r.command.argv[0]);
        if (std::optional<Command> next = on_exit(r.command.job, 127, Now()))
          queue.push_front(std::move(*next));
        continue;
      }
      running.push_back(std::move(r));
    }
    std::vector<pollfd> fds;
    fds.reserve(running.size());
    for (const Running& r : running) fds.push_back({r.fd, POLLIN, 0});
    poll(fds.data(), fds.size(), 100);
    for (size_t i = 0; i < running.size();) {
      Running& r = running[i];
      bool ended = false;
      if (fds[i].revents != 0) {
        char buffer[65536];
        const ssize_t n = read(r.fd, buffer, sizeof buffer);
        if (n > 0) {
          r.pending.append(buffer, static_cast<size_t>(n));
          for (size_t end; (end = r.pending.find('\n')) != std::string::npos;) {
            emit(r, std::string_view(r.pending).substr(0, end));
            r.pending.erase(0, end + 1);
          }
        } else {
          ended = true;  // end of output: the command and everything it started are gone
        }
      }
      const double now = Now();
      if (!r.interrupted && now > r.command.deadline) {
        kill(-r.pid, SIGINT);
        r.interrupted = true;
      } else if (!r.killed && now > r.command.deadline + kKillGraceSeconds) {
        kill(-r.pid, SIGKILL);
        r.killed = true;
      }
      if (!ended) {
        ++i;
        continue;
      }
      if (!r.pending.empty()) emit(r, r.pending);
      close(r.fd);
      int status = 0;
      waitpid(r.pid, &status, 0);
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      const size_t job = r.command.job;
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      fds.erase(fds.begin() + static_cast<std::ptrdiff_t>(i));
      if (std::optional<Command> next = on_exit(job, code, Now()))
        queue.push_front(std::move(*next));
    }
  }
}

}  // namespace opcts
