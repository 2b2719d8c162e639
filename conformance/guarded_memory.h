// Harness-owned tensor memory that catches out-of-bounds writes at any distance up to
// kFarGuardBytes, and writes after the call that owned it returned (Seal) or after release.
//
// Layout: [inaccessible][guard bytes][tensor][guard bytes][inaccessible]. A write just outside
// the tensor changes a guard byte (GuardDamage); one further away faults in the inaccessible
// reservation. A released buffer stays inaccessible for a while (a quarantine), so a backend
// thread writing after execute returned faults too. In a worker process,
// InstallOutOfBoundsReporter turns such a fault into a result line naming the buffer, the
// distance and the case; elsewhere the fault is an ordinary crash.
//
//   GuardedBuffer b("OutputTensor", bytes, 0xA5);
//   Execute(b.data(), b.size());
//   if (std::string damage = b.GuardDamage(); !damage.empty()) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace opcts {

// The inaccessible reservation on each side of every buffer.
inline constexpr uint64_t kFarGuardBytes = uint64_t{1} << 30;
// Guard bytes between the tensor and the inaccessible pages, on each side (at least).
inline constexpr size_t kGuardBytes = 64;

class GuardedBuffer {
 public:
  // `name` is copied (at most 47 characters) for the fault report; `guard` fills the guard
  // bytes. The tensor starts 64-byte aligned. Throws std::bad_alloc if the memory is not there.
  GuardedBuffer(const std::string& name, uint64_t bytes, uint8_t guard);
  ~GuardedBuffer();  // into the quarantine
  GuardedBuffer(GuardedBuffer&& other) noexcept;
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(GuardedBuffer&&) = delete;

  // Read-only from now on: a write (a backend thread still at work after its call returned)
  // faults and is reported as a late write of this buffer.
  void Seal();
  uint8_t* data() const { return tensor_; }
  uint64_t size() const { return size_; }
  // "wrote 3 bytes before the start" / "wrote at byte 12 past the end" for the first changed
  // guard byte, or "".
  std::string GuardDamage() const;

 private:
  uint8_t* reservation_ = nullptr;  // the whole mapping
  uint64_t reservation_size_ = 0;
  uint8_t* accessible_ = nullptr;  // guard bytes + tensor + guard bytes
  uint64_t accessible_size_ = 0;
  uint8_t* tensor_ = nullptr;
  uint64_t size_ = 0;
  uint8_t guard_ = 0;
  int slot_ = -1;  // in the fault reporter's table
};

// In a worker: on SIGSEGV/SIGBUS inside a guarded buffer's reservation (live or quarantined),
// write `result_prefix` (see SetCaseInFlight) and a message naming the buffer to `result_fd`,
// then exit with kOutOfBoundsExit. Other faults (and SIGABRT, SIGFPE, SIGILL) keep their default
// action; raised by a thread other than the caller's, they first say so on stderr.
void InstallOutOfBoundsReporter(int result_fd);
// The start of the result line a fault during the next case writes (everything up to the
// message); copied into a fixed buffer. "" between cases: a fault then goes to stderr and the
// worker exits, so the parent records it on the next case with that message.
void SetCaseInFlight(const std::string& result_prefix);
inline constexpr int kOutOfBoundsExit = 71;
// Brackets each call into the backend, so a signal from another thread can say whether a call
// was under way.
void SetInCall(bool calling);

}  // namespace opcts
