#include "reports/journal.h"

#include <cerrno>
#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include "reports/test_support.h"

namespace opcts {
namespace {

using testing::ReadFile;
using testing::ScratchDir;

constexpr char kHeaderLine[] =
    R"({"type":"header","format":"opcts-journal/1","opcts_version":"0.1.0",)"
    R"("started":"2026-11-22T17:00:00Z","seed":7,"shard":{"index":1,"count":4},)"
    R"("filters":{"op":"*"},"backends":[{"name":"cpu-simd","feature_level":"5_0"}],)"
    R"("planned_cases":3})";
constexpr char kCaseLine[] =
    R"({"type":"case","id":"a.f32.rank1.s1","backend":"cpu-simd","op":"DML_CUMULATIVE_SUMMATION",)"
    R"("dtype":"FLOAT32","status":"Fail","shape":[4],"max_error":0.5,"bound":1e-6,"ulp":12})";

JournalHeader SampleHeader() {
  JournalHeader header;
  header.opcts_version = "0.1.0";
  header.started = "2026-11-22T17:00:00Z";
  header.seed = 18446744073709551615ull;  // the full uint64 range survives
  header.shard_index = 2;
  header.shard_count = 3;
  header.filters = {{"op", "dml_*"}, {"dtype", "*"}};
  header.options = {{"exclude", "*.f16.*"}, {"strict", "false"}};
  header.backends.push_back({"cpu-simd", "1.0", "x86-64 AVX2", "5_0", {"openvino.opset3"}, "d"});
  header.planned_cases = 12345;
  return header;
}

CaseRecord SampleCase() {
  CaseRecord record;
  record.id = "dml_cumulative_summation.f32.rank4.axis3.s1";
  record.backend = "cpu-simd";
  record.op = "DML_CUMULATIVE_SUMMATION";
  record.dtype = "FLOAT32";
  record.level = "2_1";
  record.group = CaseGroup::kValid;
  record.layout = "packed";
  record.values = "random";
  record.shape = {1, 1, 3, 4};
  record.attributes = {{"Axis", 3}, {"HasExclusiveSum", false}};
  record.status = Status::kFail;
  record.message = "index 5: got 1 \"expected\" 2 <script>\n";
  record.repro = "opcts repro --backend cpu-simd dml_cumulative_summation.f32.rank4.axis3.s1";
  record.max_error = 0.25;
  record.bound = 1.5e-7;
  record.ulp = 3;
  record.duration_us = 42;
  return record;
}

TEST(Journal, WriterAndReaderRoundTrip) {
  ScratchDir dir;
  const std::string path = dir / "j.jsonl";
  CaseRecord special = SampleCase();
  special.id = "special";
  special.status = Status::kPass;
  special.max_error = std::numeric_limits<double>::infinity();
  special.bound = std::numeric_limits<double>::quiet_NaN();
  special.ulp.reset();
  {
    auto writer = JournalWriter::Open(path, SampleHeader(), /*append=*/false);
    ASSERT_TRUE(writer.ok()) << writer.error().message;
    ASSERT_TRUE(writer->Append(SampleCase()));
    ASSERT_TRUE(writer->Append(special));
    // Each line reaches the file before Append returns, while the writer is still open.
    const std::string text = ReadFile(path);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  }
  const auto journal = ReadJournal(path);
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  EXPECT_TRUE(journal->warnings.empty());

  const JournalHeader& header = journal->header;
  EXPECT_EQ(header.format, "opcts-journal/1");
  EXPECT_EQ(header.opcts_version, "0.1.0");
  EXPECT_EQ(header.started, "2026-11-22T17:00:00Z");
  EXPECT_EQ(header.seed, 18446744073709551615ull);
  EXPECT_EQ(header.shard_index, 2u);
  EXPECT_EQ(header.shard_count, 3u);
  EXPECT_EQ(header.filters, (std::map<std::string, std::string>{{"op", "dml_*"}, {"dtype", "*"}}));
  EXPECT_EQ(header.options,
            (std::map<std::string, std::string>{{"exclude", "*.f16.*"}, {"strict", "false"}}));
  ASSERT_EQ(header.backends.size(), 1u);
  EXPECT_EQ(header.backends[0].name, "cpu-simd");
  EXPECT_EQ(header.backends[0].version, "1.0");
  EXPECT_EQ(header.backends[0].device, "x86-64 AVX2");
  EXPECT_EQ(header.backends[0].feature_level, "5_0");
  EXPECT_EQ(header.backends[0].extra_support, std::vector<std::string>{"openvino.opset3"});
  EXPECT_EQ(header.backends[0].details, "d");
  EXPECT_EQ(header.planned_cases, 12345u);

  ASSERT_EQ(journal->cases.size(), 2u);
  const CaseRecord& got = journal->cases[0];
  EXPECT_EQ(got.id, "dml_cumulative_summation.f32.rank4.axis3.s1");
  EXPECT_EQ(got.backend, "cpu-simd");
  EXPECT_EQ(got.op, "DML_CUMULATIVE_SUMMATION");
  EXPECT_EQ(got.dtype, "FLOAT32");
  EXPECT_EQ(got.level, "2_1");
  EXPECT_EQ(got.group, CaseGroup::kValid);
  EXPECT_EQ(got.layout, "packed");
  EXPECT_EQ(got.values, "random");
  EXPECT_EQ(got.shape, (std::vector<uint32_t>{1, 1, 3, 4}));
  EXPECT_EQ(got.attributes, nlohmann::json::parse(R"({"Axis":3,"HasExclusiveSum":false})"));
  EXPECT_EQ(got.status, Status::kFail);
  EXPECT_EQ(got.message, "index 5: got 1 \"expected\" 2 <script>\n");
  EXPECT_EQ(got.repro,
            "opcts repro --backend cpu-simd dml_cumulative_summation.f32.rank4.axis3.s1");
  EXPECT_EQ(got.max_error, 0.25);
  EXPECT_EQ(got.bound, 1.5e-7);
  EXPECT_EQ(got.ulp, 3.0);
  EXPECT_EQ(got.duration_us, 42u);

  const CaseRecord& got_special = journal->cases[1];
  ASSERT_TRUE(got_special.max_error);
  EXPECT_EQ(*got_special.max_error, std::numeric_limits<double>::infinity());
  ASSERT_TRUE(got_special.bound);
  EXPECT_TRUE(std::isnan(*got_special.bound));
  EXPECT_FALSE(got_special.ulp);
}

TEST(Journal, LinesAreSingleLineJsonWithTypeFirst) {
  const std::string line = ToJsonLine(SampleCase());
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.rfind(R"({"type":"case","id":)", 0), 0u) << line;
  EXPECT_EQ(ToJsonLine(SampleHeader()).rfind(R"({"type":"header","format":"opcts-journal/1")", 0),
            0u);
}

TEST(Journal, InvalidUtf8InMessageIsReplacedNotFatal) {
  CaseRecord record = SampleCase();
  record.message = "bad \xff byte";
  const std::string text = std::string(kHeaderLine) + "\n" + ToJsonLine(record) + "\n";
  const auto journal = ParseJournal(text, "utf8.jsonl");
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  EXPECT_EQ(journal->cases[0].message, "bad \xEF\xBF\xBD byte");
}

TEST(Journal, TruncatedLastLineIsDroppedWithWarning) {
  const std::string line = kCaseLine;
  const std::string text =
      std::string(kHeaderLine) + "\n" + line + "\n" + line.substr(0, line.size() / 2);
  const auto journal = ParseJournal(text, "torn.jsonl");
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  EXPECT_EQ(journal->cases.size(), 1u);
  ASSERT_EQ(journal->warnings.size(), 1u);
  EXPECT_EQ(journal->warnings[0].rfind("torn.jsonl:3: ", 0), 0u) << journal->warnings[0];
}

TEST(Journal, GarbageLineIsAnErrorWithItsLineNumber) {
  const std::string text =
      std::string(kHeaderLine) + "\n" + kCaseLine + "\nnot json at all\n" + kCaseLine + "\n";
  const auto journal = ParseJournal(text, "bad.jsonl");
  EXPECT_FALSE(journal.ok());
  EXPECT_EQ(journal.error().message, "bad.jsonl:3: not valid JSON");
  EXPECT_EQ(journal.error().code, ErrorCode::kInvalidInput);
}

TEST(Journal, TornLineFollowedByNewlineIsAnError) {
  // Only an unterminated LAST line can come from a killed writer.
  const std::string line = kCaseLine;
  const std::string text = std::string(kHeaderLine) + "\n" + line.substr(0, 20) + "\n";
  const auto journal = ParseJournal(text, "t.jsonl");
  EXPECT_FALSE(journal.ok());
  EXPECT_EQ(journal.error().message, "t.jsonl:2: not valid JSON");
}

TEST(Journal, WrongFieldTypeNamesLineAndField) {
  const std::string text =
      std::string(kHeaderLine) + "\n" +
      R"({"type":"case","id":"x","backend":"b","status":"Pass","shape":[1,-2]})" + "\n";
  const auto journal = ParseJournal(text, "f.jsonl");
  EXPECT_FALSE(journal.ok());
  EXPECT_EQ(journal.error().message.rfind("f.jsonl:2: case field \"shape\": expected", 0), 0u)
      << journal.error().message;
}

TEST(Journal, UnknownStatusIsAnError) {
  const std::string text = std::string(kHeaderLine) + "\n" +
                           R"({"type":"case","id":"x","backend":"b","status":"Passed"})" + "\n";
  const auto journal = ParseJournal(text, "s.jsonl");
  EXPECT_FALSE(journal.ok());
  EXPECT_EQ(journal.error().message, "s.jsonl:2: case field \"status\": unknown status \"Passed\"");
}

TEST(Journal, UnknownGroupIsAnError) {
  const std::string text =
      std::string(kHeaderLine) + "\n" +
      R"({"type":"case","id":"x","backend":"b","status":"Pass","group":"Valid"})" + "\n";
  const auto journal = ParseJournal(text, "g.jsonl");
  EXPECT_FALSE(journal.ok());
  EXPECT_EQ(journal.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(journal.error().message, "g.jsonl:2: case field \"group\": unknown group \"Valid\"");
}

TEST(Journal, AbsentOrEmptyGroupIsValid) {
  // Journals of earlier versions wrote "group":"" for records without one.
  const std::string text =
      std::string(kHeaderLine) + "\n" +
      R"({"type":"case","id":"x","backend":"b","status":"Pass"})" + "\n" +
      R"({"type":"case","id":"y","backend":"b","status":"Pass","group":""})" + "\n" +
      R"({"type":"case","id":"z","backend":"b","status":"Pass","group":"invalid"})" + "\n";
  const auto journal = ParseJournal(text, "g.jsonl");
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  ASSERT_EQ(journal->cases.size(), 3u);
  EXPECT_EQ(journal->cases[0].group, CaseGroup::kValid);
  EXPECT_EQ(journal->cases[1].group, CaseGroup::kValid);
  EXPECT_EQ(journal->cases[2].group, CaseGroup::kInvalid);
  EXPECT_NE(ToJsonLine(journal->cases[1]).find(R"("group":"valid")"), std::string::npos);
}

TEST(Journal, StatusAndGroupAreWrittenByName) {
  CaseRecord record = SampleCase();
  record.status = Status::kQualityWarning;
  record.group = CaseGroup::kUnclaimed;
  const std::string line = ToJsonLine(record);
  EXPECT_NE(line.find(R"("status":"QualityWarning")"), std::string::npos) << line;
  EXPECT_NE(line.find(R"("group":"unclaimed")"), std::string::npos) << line;
}

TEST(Journal, MissingRequiredFieldIsAnError) {
  const std::string text =
      std::string(kHeaderLine) + "\n" + R"({"type":"case","backend":"b","status":"Pass"})" + "\n";
  const auto journal = ParseJournal(text, "m.jsonl");
  EXPECT_FALSE(journal.ok());
  EXPECT_EQ(journal.error().message, "m.jsonl:2: case field \"id\": missing");
}

TEST(Journal, UnknownFieldsAndLineTypesAreIgnored) {
  std::string header = kHeaderLine;
  header.insert(header.size() - 1, R"(,"future":{"x":[1,2]})");
  std::string line = kCaseLine;
  line.insert(line.size() - 1, R"(,"new_field":"ignored")");
  const std::string text = header + "\n\n" + line + "\n" + R"({"type":"checkpoint","at":3})" + "\n";
  const auto journal = ParseJournal(text, "u.jsonl");
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  EXPECT_EQ(journal->header.seed, 7u);
  EXPECT_EQ(journal->header.shard_index, 1u);
  EXPECT_EQ(journal->header.shard_count, 4u);
  ASSERT_EQ(journal->cases.size(), 1u);
  EXPECT_EQ(journal->cases[0].id, "a.f32.rank1.s1");
  EXPECT_EQ(journal->cases[0].max_error, 0.5);
  ASSERT_EQ(journal->warnings.size(), 1u);
  EXPECT_NE(journal->warnings[0].find("u.jsonl:4:"), std::string::npos);
}

TEST(Journal, MemoryLinesRoundTripAndAreChecked) {
  MemoryRecord m;
  m.backend = "leaky";
  m.cases = 231;
  m.first_bytes = 47185920;
  m.last_bytes = 2469396480;
  m.peak_bytes = 2469396480;
  m.growth_per_case = 10485760.5;
  m.leaking = true;
  const std::string text = std::string(kHeaderLine) + "\n" + ToJsonLine(m) + "\n";
  const auto journal = ParseJournal(text, "m.jsonl");
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  ASSERT_EQ(journal->memory.size(), 1u);
  const MemoryRecord& read = journal->memory[0];
  EXPECT_EQ(read.backend, "leaky");
  EXPECT_EQ(read.cases, 231u);
  EXPECT_EQ(read.first_bytes, 47185920u);
  EXPECT_EQ(read.last_bytes, 2469396480u);
  EXPECT_EQ(read.peak_bytes, 2469396480u);
  EXPECT_EQ(read.growth_per_case, 10485760.5);
  EXPECT_TRUE(read.leaking);
  EXPECT_TRUE(journal->warnings.empty());
  EXPECT_EQ(DescribeLeak(read),
            "resident memory grew steadily from 45 MiB to 2.3 GiB over 231 cases (10 MiB per "
            "case)");

  const auto wrong = ParseJournal(
      std::string(kHeaderLine) + "\n" + R"({"type":"memory","backend":"b","leaking":"yes"})" + "\n",
      "w.jsonl");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("w.jsonl:2: memory field \"leaking\""), std::string::npos)
      << wrong.error().message;
}

TEST(Journal, HeaderMustComeFirstAndOnce) {
  EXPECT_EQ(ParseJournal(std::string(kCaseLine) + "\n", "h.jsonl").error().message,
            "h.jsonl:1: expected the header line first, got type \"case\"");
  EXPECT_EQ(
      ParseJournal(std::string(kHeaderLine) + "\n" + kHeaderLine + "\n", "h.jsonl").error().message,
      "h.jsonl:2: a second header line");
  EXPECT_EQ(ParseJournal("", "empty.jsonl").error().message,
            "empty.jsonl: no header line (an empty or torn journal)");
}

TEST(Journal, UnsupportedFormatAndBadShardAreErrors) {
  std::string v2 = kHeaderLine;
  v2.replace(v2.find("opcts-journal/1"), 15, "opcts-journal/2");
  EXPECT_EQ(ParseJournal(v2 + "\n", "v.jsonl").error().message,
            "v.jsonl:1: header field \"format\": \"opcts-journal/2\" is not supported (this reader "
            "reads opcts-journal/1)");
  std::string shard = kHeaderLine;
  shard.replace(shard.find(R"("index":1)"), 9, R"("index":4)");
  EXPECT_EQ(ParseJournal(shard + "\n", "s.jsonl").error().message,
            "s.jsonl:1: header.shard field \"index\": shard 4 of 4 is out of range");
}

TEST(Journal, ReadMissingFileIsAnError) {
  const auto journal = ReadJournal("/nonexistent/dir/j.jsonl");
  EXPECT_FALSE(journal.ok());
  EXPECT_EQ(journal.error().message, "/nonexistent/dir/j.jsonl: cannot open for reading");
  EXPECT_EQ(journal.error().code, ErrorCode::kIo);
}

TEST(Journal, AppendCutsTornLineAndKeepsHeader) {
  ScratchDir dir;
  const std::string path = dir / "j.jsonl";
  const std::string line = kCaseLine;
  {
    std::ofstream out(path, std::ios::binary);
    out << kHeaderLine << "\n" << line << "\n" << line.substr(0, 30);
  }
  {
    auto writer = JournalWriter::Open(path, SampleHeader(), /*append=*/true);
    ASSERT_TRUE(writer.ok()) << writer.error().message;
    ASSERT_TRUE(writer->Append(SampleCase()));
  }
  const auto journal = ReadJournal(path);
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  EXPECT_TRUE(journal->warnings.empty());
  EXPECT_EQ(journal->header.seed, 7u);  // the original header, not SampleHeader()
  ASSERT_EQ(journal->cases.size(), 2u);
  EXPECT_EQ(journal->cases[0].id, "a.f32.rank1.s1");
  EXPECT_EQ(journal->cases[1].id, "dml_cumulative_summation.f32.rank4.axis3.s1");
}

TEST(Journal, AppendToMissingFileWritesHeader) {
  ScratchDir dir;
  const std::string path = dir / "j.jsonl";
  {
    auto writer = JournalWriter::Open(path, SampleHeader(), /*append=*/true);
    ASSERT_TRUE(writer.ok()) << writer.error().message;
  }
  const auto journal = ReadJournal(path);
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  EXPECT_EQ(journal->header.planned_cases, 12345u);
}

TEST(Journal, OpenInMissingDirectoryIsAnError) {
  const auto writer = JournalWriter::Open("/nonexistent/dir/j.jsonl", SampleHeader(), false);
  EXPECT_FALSE(writer.ok());
  EXPECT_EQ(writer.error().message.rfind("/nonexistent/dir/j.jsonl: cannot open for writing: ", 0),
            0u);
  EXPECT_EQ(writer.error().code, ErrorCode::kIo);
  EXPECT_EQ(writer.error().native_code, ENOENT);
}

TEST(Journal, HeaderOptionsAreOptionalStrings) {
  const auto without = ParseJournal(std::string(kHeaderLine) + "\n", "o.jsonl");
  ASSERT_TRUE(without.ok()) << without.error().message;
  EXPECT_TRUE(without->header.options.empty());
  JournalHeader empty;
  EXPECT_NE(ToJsonLine(empty).find(R"("options":{})"), std::string::npos);
  std::string bad = kHeaderLine;
  bad.insert(bad.size() - 1, R"(,"options":{"timeout_ms":5})");
  EXPECT_EQ(ParseJournal(bad + "\n", "o.jsonl").error().message,
            "o.jsonl:1: header.options field \"timeout_ms\": expected a string, got number 5");
}

// The written message of a record whose message is `message`.
std::string WrittenMessage(const std::string& message) {
  CaseRecord record = SampleCase();
  record.message = message;
  const auto read =
      ParseJournal(ToJsonLine(SampleHeader()) + "\n" + ToJsonLine(record) + "\n", "t.jsonl");
  EXPECT_TRUE(read.ok()) << read.error().message;
  return read.ok() && read->cases.size() == 1 ? read->cases[0].message : "";
}

TEST(Journal, LongPluginStringsAreCappedAtACharacterBoundary) {
  const std::string fits(kMaxPluginStringBytes, 'a');
  EXPECT_EQ(WrittenMessage(fits), fits);
  // 4 066 bytes of 'a', then 3-byte characters: the cut at 4 096 - 25 would split one.
  std::string message(4066, 'a');
  for (int i = 0; i < 20000; ++i) message += "\xE2\x82\xAC";  // U+20AC
  const std::string mark = " [truncated: 64066 bytes]";
  const std::string written = WrittenMessage(message);
  EXPECT_EQ(written, std::string(4066, 'a') + "\xE2\x82\xAC" + mark);
  EXPECT_EQ(written.find("\xEF\xBF\xBD"), std::string::npos);  // no broken character
  // Written again, a capped string stays as it is (reports, merge and resume rewrite lines).
  EXPECT_EQ(WrittenMessage(written), written);
}

TEST(Journal, HeaderBackendStringsAreCapped) {
  JournalHeader header = SampleHeader();
  const std::string huge(100000, 'd');
  header.backends[0] = {huge, huge, huge, "5_0", {huge}, huge};
  const auto journal = ParseJournal(ToJsonLine(header) + "\n", "cap.jsonl");
  ASSERT_TRUE(journal.ok()) << journal.error().message;
  const BackendRecord& backend = journal->header.backends[0];
  const std::string capped =
      std::string(kMaxPluginStringBytes - 26, 'd') + " [truncated: 100000 bytes]";
  EXPECT_EQ(backend.name, capped);
  EXPECT_EQ(backend.version, capped);
  EXPECT_EQ(backend.device, capped);
  EXPECT_EQ(backend.details, capped);
  EXPECT_EQ(backend.extra_support, std::vector<std::string>{capped});
  EXPECT_EQ(backend.feature_level, "5_0");
}

}  // namespace
}  // namespace opcts
