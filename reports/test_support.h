// Helpers shared by the reports tests: fixture paths, scratch files (ScratchDir,
// conformance/testing/scratch_dir.h), loading fixture journals.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "conformance/testing/scratch_dir.h"
#include "reports/journal.h"

namespace opcts::testing {

inline std::string Testdata(const std::string& name) {
  return std::string(OPCTS_REPORTS_TESTDATA) + "/" + name;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Reads fixture journals (testdata/<name>), failing the test on a read error.
inline std::vector<SourcedJournal> LoadJournals(const std::vector<std::string>& names) {
  std::vector<SourcedJournal> journals;
  for (const auto& name : names) {
    auto journal = ReadJournal(Testdata(name));
    EXPECT_TRUE(journal.ok()) << journal.error().message;
    if (journal.ok()) journals.push_back({name, std::move(journal).value()});
  }
  return journals;
}

// A hand-written case line for journals built inside a test.
inline std::string CaseLine(const std::string& backend, const std::string& id,
                            const std::string& status, const std::string& message = "") {
  return R"({"type":"case","id":")" + id + R"(","backend":")" + backend +
         R"(","op":"DML_CUMULATIVE_SUMMATION","dtype":"FLOAT32","shape":[4],"status":")" + status +
         R"(","message":")" + message + R"(","repro":"opcts repro )" + id + R"("})";
}

// CaseLine with some fields replaced or added, e.g. {{"level", "4_0"}, {"group", "valid"}}.
inline std::string CaseLineWith(const std::string& backend, const std::string& id,
                                const std::string& status, const nlohmann::json& fields) {
  nlohmann::json line = nlohmann::json::parse(CaseLine(backend, id, status));
  line.update(fields);
  return line.dump();
}

inline std::string HeaderLine(const std::string& backend, uint64_t seed = 1, uint32_t index = 0,
                              uint32_t count = 1) {
  return R"({"type":"header","format":"opcts-journal/1","seed":)" + std::to_string(seed) +
         R"(,"shard":{"index":)" + std::to_string(index) + R"(,"count":)" + std::to_string(count) +
         R"(},"filters":{"op":"*"},"backends":[{"name":")" + backend +
         R"(","feature_level":"5_0"}]})";
}

}  // namespace opcts::testing
