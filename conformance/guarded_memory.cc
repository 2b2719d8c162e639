#include "conformance/guarded_memory.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace opcts {
namespace {

// What the fault handler knows of each buffer: plain data, read from a signal handler.
struct Region {
  bool used = false, live = false;
  bool sealed = false;       // read-only: the call that owned it returned
  uint8_t* begin = nullptr;  // the reservation
  uint8_t* end = nullptr;
  uint8_t* accessible = nullptr;  // guard bytes + tensor + guard bytes
  uint8_t* accessible_end = nullptr;
  uint8_t* tensor = nullptr;
  uint64_t size = 0;
  char name[48] = "";
};

constexpr int kSlots = 64;
constexpr int kQuarantine = 16;  // released buffers kept inaccessible (a few cases' worth)
Region regions[kSlots];
int quarantine[kQuarantine];
int quarantined = 0, quarantine_head = 0;

// Reservations out of the quarantine, kept for reuse: mapping, protecting and faulting in fresh
// pages for every buffer cost more than the small cases themselves.
struct Spare {
  uint8_t* reservation;
  uint64_t reservation_size;
};
constexpr int kSpares = 16;
Spare spares[kSpares];
int spare_count = 0;
constexpr uint64_t kKeepPagesBelow =
    uint64_t{64} * 1024;  // smaller buffers keep their memory while held

int result_fd = -1;
pid_t main_thread = 0;  // the worker's thread: the only one opcts calls the backend from
volatile sig_atomic_t in_call = 0;  // inside query or execute
char case_prefix[256] = "";
size_t case_prefix_length = 0;

int TakeSlot() {
  for (int i = 0; i < kSlots; ++i)
    if (!regions[i].used) return i;
  return -1;
}

// A reservation leaving the quarantine: kept as a spare, or unmapped when there are enough.
void Retire(Region& r) {
  if (spare_count == kSpares) {
    munmap(spares[0].reservation, spares[0].reservation_size);
    std::move(spares + 1, spares + kSpares, spares);
    --spare_count;
  }
  spares[spare_count++] = {r.begin, static_cast<uint64_t>(r.end - r.begin)};
  r = Region{};
}

// A spare reservation of exactly `size` bytes, or nullptr.
uint8_t* TakeSpare(uint64_t size) {
  for (int i = spare_count - 1; i >= 0; --i) {
    if (spares[i].reservation_size != size) continue;
    uint8_t* reservation = spares[i].reservation;
    std::move(spares + i + 1, spares + spare_count, spares + i);
    --spare_count;
    return reservation;
  }
  return nullptr;
}

// Appends for the fault handler: no allocation, no locale, async-signal-safe.
struct Line {
  char text[512];
  size_t length = 0;
  void Add(const char* s) {
    for (; *s && length < sizeof text - 1; ++s) text[length++] = *s;
  }
  void Add(uint64_t value) {
    char digits[24];
    int n = 0;
    do digits[n++] = static_cast<char>('0' + value % 10);
    while ((value /= 10) != 0);
    while (n > 0 && length < sizeof text - 1) text[length++] = digits[--n];
  }
};

void WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n <= 0) return;
    data += n;
    size -= static_cast<size_t>(n);
  }
}

// The default action, so the worker dies by the signal as it would have; first, if a thread of
// the backend's own raised it, a line saying so (the parent shows the worker's last lines).
void DieBySignal(int signal) {
  if (main_thread != 0 && gettid() != main_thread) {
    Line line;
    line.Add("opcts: signal ");
    line.Add(static_cast<uint64_t>(signal));
    line.Add(in_call
                 ? " in a thread of the backend, during this case's call (the thread may have "
                   "been started by an earlier case)\n"
                 : " in a thread of the backend, outside any call opcts made: it may come from an "
                   "earlier case\n");
    WriteAll(STDERR_FILENO, line.text, line.length);
  }
  ::signal(signal, SIG_DFL);
  raise(signal);
}

void OnOtherSignal(int signal, siginfo_t*, void*) { DieBySignal(signal); }

// " 3 bytes before the start", " byte 12 past the end", " byte 7".
void AddPosition(Line& line, const Region& r, const uint8_t* address) {
  if (address < r.tensor) {
    line.Add(" ");
    line.Add(static_cast<uint64_t>(r.tensor - address));
    line.Add(" bytes before the start");
  } else if (address >= r.tensor + r.size) {
    line.Add(" byte ");
    line.Add(static_cast<uint64_t>(address - (r.tensor + r.size)));
    line.Add(" past the end");
  } else {
    line.Add(" byte ");
    line.Add(static_cast<uint64_t>(address - r.tensor));
  }
}

void OnFault(int signal, siginfo_t* info, void*) {
  const auto* address = static_cast<const uint8_t*>(info->si_addr);
  for (const Region& r : regions) {
    if (!r.used || address < r.begin || address >= r.end) continue;
    Line line;
    line.Add(r.name);
    line.Add(": accessed");
    AddPosition(line, r, address);
    const bool late =
        !r.live || (r.sealed && address >= r.accessible && address < r.accessible_end);
    line.Add(late ? " after the execute that owned it had returned (a backend thread still at "
                    "work?)\n"
                  : " (an inaccessible guard page; outside TotalTensorSizeInBytes)\n");
    if (case_prefix_length == 0) {  // between cases: the parent blames the next one, with this
      WriteAll(STDERR_FILENO, line.text, line.length);
    } else {
      WriteAll(result_fd, case_prefix, case_prefix_length);
      WriteAll(result_fd, line.text, line.length);
    }
    _exit(kOutOfBoundsExit);
  }
  DieBySignal(signal);
}

}  // namespace

GuardedBuffer::GuardedBuffer(const std::string& name, uint64_t bytes, uint8_t guard)
    : size_(bytes), guard_(guard) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  accessible_size_ = (bytes + 2 * kGuardBytes + 64 + page - 1) / page * page;
  reservation_size_ = accessible_size_ + 2 * kFarGuardBytes;
  reservation_ = TakeSpare(reservation_size_);
  if (reservation_ == nullptr) {
    void* mapping = mmap(nullptr, reservation_size_, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) throw std::bad_alloc();
    reservation_ = static_cast<uint8_t*>(mapping);
  }
  accessible_ = reservation_ + kFarGuardBytes;
  if (mprotect(accessible_, accessible_size_, PROT_READ | PROT_WRITE) != 0) {
    munmap(reservation_, reservation_size_);
    throw std::bad_alloc();
  }
  std::memset(accessible_, guard, accessible_size_);
  // The tail guard is 64..127 bytes, the head guard at least 64: a tensor ending next to the
  // inaccessible page would let a short overrun fault instead of showing where it wrote.
  tensor_ = accessible_ + ((accessible_size_ - kGuardBytes - bytes) & ~uint64_t{63});
  slot_ = TakeSlot();
  if (slot_ >= 0) {
    Region& r = regions[slot_];
    r.begin = reservation_;
    r.end = reservation_ + reservation_size_;
    r.accessible = accessible_;
    r.accessible_end = accessible_ + accessible_size_;
    r.tensor = tensor_;
    r.size = size_;
    std::strncpy(r.name, name.c_str(), sizeof r.name - 1);
    r.live = true;
    r.used = true;
  }
}

GuardedBuffer::GuardedBuffer(GuardedBuffer&& other) noexcept
    : reservation_(other.reservation_),
      reservation_size_(other.reservation_size_),
      accessible_(other.accessible_),
      accessible_size_(other.accessible_size_),
      tensor_(other.tensor_),
      size_(other.size_),
      guard_(other.guard_),
      slot_(other.slot_) {
  other.reservation_ = nullptr;
  other.slot_ = -1;
}

GuardedBuffer::~GuardedBuffer() {
  if (reservation_ == nullptr) return;
  if (slot_ < 0) {
    munmap(reservation_, reservation_size_);
    return;
  }
  // Inaccessible and its memory returned, but still reserved: a late write faults here.
  mprotect(accessible_, accessible_size_, PROT_NONE);
  if (accessible_size_ >= kKeepPagesBelow) madvise(accessible_, accessible_size_, MADV_DONTNEED);
  regions[slot_].live = false;
  if (quarantined == kQuarantine) {  // the oldest leaves the quarantine
    Retire(regions[quarantine[quarantine_head]]);
    quarantine_head = (quarantine_head + 1) % kQuarantine;
    --quarantined;
  }
  quarantine[(quarantine_head + quarantined) % kQuarantine] = slot_;
  ++quarantined;
}

namespace {

// The first byte in [p, end) that is not `guard`, or end; eight at a time (a head guard is up to
// a page, checked after every call).
const uint8_t* FirstChanged(const uint8_t* p, const uint8_t* end, uint8_t guard) {
  const uint64_t pattern = guard * 0x0101010101010101ull;
  for (uint64_t word; p + 8 <= end; p += 8) {
    std::memcpy(&word, p, 8);
    if (word != pattern) break;
  }
  while (p < end && *p == guard) ++p;
  return p;
}

}  // namespace

void GuardedBuffer::Seal() {
  mprotect(accessible_, accessible_size_, PROT_READ);
  if (slot_ >= 0) regions[slot_].sealed = true;
}

std::string GuardedBuffer::GuardDamage() const {
  if (const uint8_t* p = FirstChanged(accessible_, tensor_, guard_); p != tensor_)
    return "wrote " + std::to_string(tensor_ - p) + " bytes before the start";
  const uint8_t* end = accessible_ + accessible_size_;
  if (const uint8_t* p = FirstChanged(tensor_ + size_, end, guard_); p != end)
    return "wrote at byte " + std::to_string(p - tensor_ - size_) + " past the end";
  return "";
}

void InstallOutOfBoundsReporter(int fd) {
  result_fd = fd;
  static char alternate_stack[1 << 16];
  stack_t stack = {};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, nullptr);
  struct sigaction action = {};
  action.sa_sigaction = OnFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
  sigaction(SIGBUS, &action, nullptr);
  main_thread = gettid();
  action.sa_sigaction = OnOtherSignal;
  for (int signal : {SIGABRT, SIGFPE, SIGILL}) sigaction(signal, &action, nullptr);
}

void SetInCall(bool calling) { in_call = calling; }

void SetCaseInFlight(const std::string& result_prefix) {
  case_prefix_length = std::min(result_prefix.size(), sizeof case_prefix);
  std::memcpy(case_prefix, result_prefix.data(), case_prefix_length);
}

}  // namespace opcts
