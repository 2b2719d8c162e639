// Failures of one bug share a cause whatever numbers, signs, coordinates and ranks their
// messages show; different kinds of mismatch do not.
#include "reports/failure_cause.h"

#include <gtest/gtest.h>

namespace opcts {
namespace {

TEST(CauseOf, BlanksNumbersSignsAndLists) {
  EXPECT_EQ(CauseOf("index 3: got 1.5e-07 expected 0x3f80"), "index #: got # expected #");
  EXPECT_EQ(CauseOf("index 12: got -2 expected 3."), "index #: got # expected #.");
  EXPECT_EQ(CauseOf("element [0,0,1,2] and [7]"), "element [#] and [#]");
  EXPECT_EQ(CauseOf("indices [3,-1,+7] out of range"), "indices [#] out of range");
  EXPECT_EQ(CauseOf("float16 rank4\nline"), "float# rank# line");
  EXPECT_EQ(CauseOf(""), "");
}

CaseRecord Failing(const std::string& dtype, const std::string& message) {
  CaseRecord r;
  r.dtype = dtype;
  r.message = message;
  return r;
}

// The judge's message for a first mismatch `expected`, `got` at `element`.
std::string Judged(const std::string& element, const std::string& expected,
                   const std::string& got) {
  return "OutputTensor: 3 of 4096 elements wrong; first element " + element + ": expected " +
         expected + ", got " + got;
}

TEST(NormalizedCause, OneBugOneCauseWhateverTheNumbers) {
  const std::string a =
      NormalizedCause(Failing("FLOAT32", Judged("[0,0,1,2]", "5 ± 1.2e-06", "6 (0x40c00000)")));
  const std::string b =
      NormalizedCause(Failing("FLOAT16", Judged("[3]", "-0.25 ± 0.001", "-7 (0xc700)")));
  EXPECT_EQ(a, "OutputTensor: wrong elements");
  EXPECT_EQ(a, b);
  EXPECT_EQ(NormalizedCause(Failing("INT32", Judged("[1,1]", "7", "nan(0x7fc00000)"))), a);
  EXPECT_EQ(MismatchKindOf(Failing("INT32", Judged("[1,1]", "7", "9"))), "a wrong value");
}

TEST(NormalizedCause, KindsOfMismatch) {
  const auto kind = [](const std::string& expected, const std::string& got) {
    return MismatchKindOf(Failing("FLOAT32", Judged("[1]", expected, got)));
  };
  EXPECT_EQ(kind("5 ± 1e-06",
                 "nan(0x7fc0dead) (never written: still the fill pattern opcts "
                 "put there)"),
            "left unwritten");
  EXPECT_EQ(kind("5 ± 1e-06", "nan(0x7fc00000)"), "NaN where a number is expected");
  EXPECT_EQ(kind("NaN", "1 (0x3f800000)"), "a number where NaN is expected");
  EXPECT_EQ(kind("3e+38 ± 1e+32", "inf (0x7f800000)"),
            "an infinity where a finite value is expected");
  EXPECT_EQ(kind("-inf (0xff800000)", "-3.4028234663852886e+38 (0xff7fffff)"),
            "a finite value where an infinity is expected");
  EXPECT_EQ(kind("-0 (0x80000000)", "0 (0x00000000)"), "the wrong sign of a zero");
  EXPECT_EQ(kind("-2.5 ± 1e-06", "2.5 (0x40200000)"), "the wrong sign");
  EXPECT_EQ(kind("-2.5 ± 1e-06", "3.5 (0x40600000)"), "beyond the accuracy bound");
  EXPECT_EQ(kind("one of {7,9}", "8 (0x41000000)"), "none of the allowed values");
}

TEST(NormalizedCause, OtherMessagesAreBlankedAndHaveNoKind) {
  EXPECT_EQ(MismatchKindOf(Failing("INT8", "signal 11 (Segmentation fault)")), "");
  EXPECT_EQ(NormalizedCause(Failing("FLOAT32",
                                    "OutputTensor: wrote at byte 12 past the end "
                                    "(outside TotalTensorSizeInBytes)")),
            "OutputTensor: wrote past the end (outside TotalTensorSizeInBytes)");
  EXPECT_EQ(NormalizedCause(Failing("FLOAT32",
                                    "OutputTensor: accessed byte 1048576 past the end "
                                    "(an inaccessible guard page; outside "
                                    "TotalTensorSizeInBytes)")),
            "OutputTensor: wrote past the end (outside TotalTensorSizeInBytes)");
  EXPECT_EQ(NormalizedCause(Failing("FLOAT32",
                                    "InputTensor: wrote 3 bytes before the start "
                                    "(outside TotalTensorSizeInBytes)")),
            "InputTensor: wrote before the start (outside TotalTensorSizeInBytes)");
  EXPECT_EQ(NormalizedCause(Failing("INT8", "signal 11 (Segmentation fault)")),
            "signal # (Segmentation fault)");
}

TEST(FailureSignature, IsTheReportsGroupKeyOnOneLine) {
  CaseRecord a = Failing("FLOAT16", Judged("[3]", "-0.25 ± 0.001", "-7 (0xc700)"));
  a.status = Status::kFail;
  a.op = "DML_SCATTER_ND";
  CaseRecord b = Failing("FLOAT32", Judged("[0,1]", "2 ± 0.1", "3 (0x40400000)"));
  b.status = Status::kFail;
  b.op = "DML_SCATTER_ND";
  EXPECT_EQ(FailureSignature(a), "Fail DML_SCATTER_ND (float): OutputTensor: wrong elements");
  EXPECT_EQ(FailureSignature(a), FailureSignature(b));
  b.dtype = "INT32";
  EXPECT_NE(FailureSignature(a), FailureSignature(b));
  b = a;
  b.status = Status::kQualityWarning;
  EXPECT_NE(FailureSignature(a), FailureSignature(b));
}

TEST(DtypeClass, FloatsIntegersAndTheRest) {
  EXPECT_EQ(DtypeClass("FLOAT16"), "float");
  EXPECT_EQ(DtypeClass("BFLOAT16"), "float");
  EXPECT_EQ(DtypeClass("UINT64"), "integer");
  EXPECT_EQ(DtypeClass("INT8"), "integer");
  EXPECT_EQ(DtypeClass("BOOL"), "BOOL");
}

}  // namespace
}  // namespace opcts
