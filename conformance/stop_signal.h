// SIGINT and SIGTERM stop a run between cases instead of killing it: the runner stops its
// workers, writes reports marked interrupted and exits 128 + the signal (130, 143).
//
//   InstallStopHandlers();
//   while (... && !StopSignal()) RunNextCase();
//   if (int s = StopSignal()) return 128 + s;
#pragma once

namespace opcts {

// Installs handlers that record the signal (no SA_RESTART, so blocking waits wake up).
void InstallStopHandlers();

// 0, or the first SIGINT/SIGTERM received since InstallStopHandlers.
int StopSignal();

// "SIGINT", "SIGTERM".
const char* StopSignalName(int signal);

}  // namespace opcts
