// Harness-owned buffers catch writes outside the tensor at any distance the reservation covers,
// and writes after the call that owned them returned (sealed) or after release (quarantined).
#include "conformance/guarded_memory.h"

#include <unistd.h>

#include <gtest/gtest.h>

namespace opcts {
namespace {

// A write the reporter must turn into exit kOutOfBoundsExit with `message` on stderr (between
// cases, it reports there).
#define EXPECT_REPORTED(statement, message)        \
  EXPECT_EXIT(                                     \
      {                                            \
        InstallOutOfBoundsReporter(STDERR_FILENO); \
        statement;                                 \
      },                                           \
      ::testing::ExitedWithCode(kOutOfBoundsExit), message)

void Write(uint8_t* address) { *static_cast<volatile uint8_t*>(address) = 1; }

TEST(GuardedBuffer, ANearWriteChangesAGuardByte) {
  GuardedBuffer b("OutputTensor", 100, 0xA5);
  EXPECT_EQ(b.GuardDamage(), "");
  b.data()[100 + 12] = 0;
  EXPECT_EQ(b.GuardDamage(), "wrote at byte 12 past the end");
  GuardedBuffer a("InputTensor", 100, 0x5A);
  a.data()[-3] = 0;
  EXPECT_EQ(a.GuardDamage(), "wrote 3 bytes before the start");
}

TEST(GuardedBufferDeathTest, AFarWriteFaultsNamingTheBufferAndDistance) {
  GuardedBuffer b("OutputTensor", 100, 0xA5);
  EXPECT_REPORTED(Write(b.data() + 100 + (1 << 20)),
                  "OutputTensor: accessed byte 1048576 past the end \\(an inaccessible guard page");
  EXPECT_REPORTED(Write(b.data() - (uint64_t{1} << 29)),
                  "OutputTensor: accessed 536870912 bytes "
                  "before the start \\(an inaccessible");
}

TEST(GuardedBufferDeathTest, AWriteAfterSealingIsALateWrite) {
  GuardedBuffer b("OutputTensor", 4096, 0xA5);
  b.data()[7] = 3;
  b.Seal();
  EXPECT_EQ(b.data()[7], 3) << "still readable";
  EXPECT_REPORTED(Write(b.data() + 7),
                  "OutputTensor: accessed byte 7 after the execute that owned it had returned");
  EXPECT_REPORTED(Write(b.data() + 4096 + (1 << 20)),
                  "OutputTensor: accessed byte 1048576 past the end \\(an inaccessible guard page");
}

TEST(GuardedBufferDeathTest, AWriteAfterReleaseIsALateWrite) {
  uint8_t* released = nullptr;
  { released = GuardedBuffer("InputTensor", 1 << 20, 0xA5).data(); }
  EXPECT_REPORTED(Write(released + 5),
                  "InputTensor: accessed byte 5 after the execute that owned it had returned");
}

}  // namespace
}  // namespace opcts
