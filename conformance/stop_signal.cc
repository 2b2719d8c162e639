#include "conformance/stop_signal.h"

#include <signal.h>

namespace opcts {
namespace {

volatile sig_atomic_t received = 0;

void Record(int signal) {
  if (received == 0) received = signal;
}

}  // namespace

void InstallStopHandlers() {
  struct sigaction action = {};
  action.sa_handler = Record;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int StopSignal() { return received; }

const char* StopSignalName(int signal) { return signal == SIGINT ? "SIGINT" : "SIGTERM"; }

}  // namespace opcts
