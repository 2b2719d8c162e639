// `opcts fuzz` without fuzz targets or with bad arguments: a clear message and exit code 2.
#include <stdlib.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "cli/commands.h"

namespace opcts {
namespace {

TEST(FuzzCommand, WithoutBuiltTargetsSaysHowToBuildThem) {
  const std::filesystem::path empty =
      std::filesystem::temp_directory_path() / "opcts-fuzz-command-test";
  std::filesystem::create_directories(empty);
  setenv("OPCTS_FUZZ_BIN_DIR", empty.c_str(), 1);
  testing::internal::CaptureStderr();
  const int code = FuzzCommand({"--seconds", "1"});
  const std::string err = testing::internal::GetCapturedStderr();
  unsetenv("OPCTS_FUZZ_BIN_DIR");
  EXPECT_EQ(code, 2);
  EXPECT_NE(err.find("cmake --preset fuzz"), std::string::npos) << err;
}

TEST(FuzzCommand, RejectsBadArguments) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(FuzzCommand({"--seconds", "soon"}), 2);
  EXPECT_EQ(FuzzCommand({"--jobs", "0"}), 2);
  EXPECT_EQ(FuzzCommand({"stray"}), 2);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("usage: opcts fuzz"), std::string::npos);
}

}  // namespace
}  // namespace opcts
