// Every way a plugin can be unloadable gives its own clear error naming the file.
#include "conformance/plugin_loader.h"

#include <fstream>

#include <gtest/gtest.h>

namespace opcts {
namespace {

std::string TestPlugin(const std::string& name) {
  return std::string(OPCTS_TEST_PLUGIN_DIR) + "/opcts-bad-" + name + ".so";
}

struct BadPlugin {
  const char* name;
  const char* error;  // the message after "<path>: "
  bool unavailable;
};

const BadPlugin kBadPlugins[] = {
    {"missing-symbol", "not an opcts plugin: no exported symbol opcts_backend_entry", false},
    {"null-table", "opcts_backend_entry() returned NULL", false},
    {"abi-version", "built for opcts ABI version 999, this opcts speaks version 1", false},
    {"short-table", "function table is 8 bytes, expected 48", false},
    {"null-function", "function table entry 'execute' is NULL", false},
    {"create-fails", "create failed: device initialisation failed", false},
    {"unavailable", "backend unavailable: no device found", true},
    {"bad-level",
     "get_info() feature_level 0xFFFFFFFF is no DirectML feature level "
     "(OPCTS_FEATURE_LEVEL(major, minor), 1_0 to 6_4)",
     false},
    {"huge-string", "get_info() device is longer than 65536 bytes", false},
};

class BadPluginTest : public ::testing::TestWithParam<BadPlugin> {};

TEST_P(BadPluginTest, GivesItsOwnError) {
  const BadPlugin& bad = GetParam();
  const std::string path = TestPlugin(bad.name);
  const PluginLoad load = LoadPlugin(path, "");
  ASSERT_FALSE(load.ok());
  EXPECT_EQ(load.error().message, path + ": " + bad.error);
  EXPECT_EQ(IsUnavailable(load), bad.unavailable);
}

INSTANTIATE_TEST_SUITE_P(Plugins, BadPluginTest, ::testing::ValuesIn(kBadPlugins),
                         [](const auto& info) {
                           std::string name = info.param.name;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

TEST(PluginLoaderTest, MissingFileAndUnknownBuiltin) {
  EXPECT_EQ(LoadPlugin("/nonexistent/x.so", "").error().message, "/nonexistent/x.so: no such file");
  const PluginLoad unknown = LoadPlugin("no-such-backend", "");
  EXPECT_NE(unknown.error().message.find("no built-in backend 'no-such-backend' (built-ins:"),
            std::string::npos)
      << unknown.error().message;
}

TEST(PluginLoaderTest, ABackendArgumentTakesItsOwnOptionsAfterTheFirstAt) {
  const BackendArg plain = ParseBackendArg("cpu-simd", "target=SSE4");
  EXPECT_EQ(plain.name_or_path, "cpu-simd");
  EXPECT_EQ(plain.options, "target=SSE4");
  EXPECT_FALSE(plain.own_options);
  const BackendArg own = ParseBackendArg("cpu-simd@target=AVX2;threads=1", "target=SSE4");
  EXPECT_EQ(own.name_or_path, "cpu-simd");
  EXPECT_EQ(own.options, "target=AVX2;threads=1");
  EXPECT_TRUE(own.own_options);
  const BackendArg empty = ParseBackendArg("/p/x.so@", "target=SSE4");
  EXPECT_EQ(empty.name_or_path, "/p/x.so");
  EXPECT_EQ(empty.options, "");
  EXPECT_TRUE(empty.own_options);
  // A file that exists is a path, '@' and all.
  const std::string path = ::testing::TempDir() + "/vendor@2.so";
  std::ofstream(path) << "";
  const BackendArg file = ParseBackendArg(path, "");
  EXPECT_EQ(file.name_or_path, path);
  EXPECT_FALSE(file.own_options);
}

TEST(PluginLoaderTest, NotASharedObject) {
  const std::string path = ::testing::TempDir() + "/not-a-plugin.so";
  std::ofstream(path) << "this is text, not ELF\n";
  const PluginLoad load = LoadPlugin(path, "");
  EXPECT_EQ(load.error().message.rfind(path + ": not a loadable plugin: ", 0), 0u)
      << load.error().message;
}

}  // namespace
}  // namespace opcts
