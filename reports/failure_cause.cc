#include "reports/failure_cause.h"

#include <cctype>
#include <cstdlib>
#include <optional>

namespace opcts {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The judge's element text: "nan(0x7fc0dead)", "inf", "-inf", "-0", "1.5 (0x3e00)", "18 ± 2e-06",
// "NaN" (expected), "one of {7,9}".
bool IsNaNText(std::string_view v) { return StartsWith(v, "nan(") || StartsWith(v, "NaN"); }
bool IsInfText(std::string_view v) { return StartsWith(v, "inf") || StartsWith(v, "-inf"); }
bool IsZeroText(std::string_view v) {
  return v == "0" || v == "-0" || StartsWith(v, "0 ") || StartsWith(v, "-0 ");
}
// The same magnitude with the other sign: "-2.5 ± 1e-06" and "2.5 (0x40200000)".
bool IsNegated(std::string_view expected, std::string_view got) {
  const double e = std::strtod(std::string(expected).c_str(), nullptr);
  const double g = std::strtod(std::string(got).c_str(), nullptr);
  return e != 0 && e == -g;
}

std::string MismatchKind(std::string_view expected, std::string_view got, bool is_float) {
  if (got.find("never written") != std::string_view::npos) return "left unwritten";
  if (StartsWith(expected, "one of {")) return "none of the allowed values";
  if (IsNaNText(expected)) return "a number where NaN is expected";
  if (IsNaNText(got)) return "NaN where a number is expected";
  if (IsInfText(got) && !IsInfText(expected)) return "an infinity where a finite value is expected";
  if (IsInfText(expected) && !IsInfText(got)) return "a finite value where an infinity is expected";
  if (IsZeroText(expected) && IsZeroText(got)) return "the wrong sign of a zero";
  if (IsNegated(expected, got)) return "the wrong sign";
  return is_float ? "beyond the accuracy bound" : "a wrong value";
}

// The end of the number starting at `i`: "0x3f80", "12", "1.5", "1.5e-07".
size_t SkipNumber(std::string_view text, size_t i) {
  const auto digit = [&](size_t k) {
    return k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]));
  };
  if (text[i] == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
    for (i += 2; i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i]));) ++i;
    return i;
  }
  while (digit(i) || (i < text.size() && text[i] == '.' && digit(i + 1))) ++i;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t k = i + 1;
    if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
    if (digit(k)) {
      for (i = k; digit(i);) ++i;
    }
  }
  return i;
}

}  // namespace

std::string CauseOf(std::string_view message) {
  constexpr size_t kMaxLength = 160;
  std::string cause;
  for (size_t i = 0; i < message.size() && cause.size() < kMaxLength;) {
    const auto digit = [&](size_t k) {
      return k < message.size() && std::isdigit(static_cast<unsigned char>(message[k]));
    };
    if (digit(i) || ((message[i] == '-' || message[i] == '+') && digit(i + 1))) {
      i = SkipNumber(message, digit(i) ? i : i + 1);
      // "[3,-1,7]" and "[0,0]" alike: a list of numbers is one '#'.
      if (cause.size() >= 2 && cause.back() == ',' && cause[cause.size() - 2] == '#')
        cause.pop_back();
      else
        cause += '#';
    } else {
      cause += message[i] == '\n' ? ' ' : message[i];
      ++i;
    }
  }
  return cause;
}

std::string DtypeClass(std::string_view dtype) {
  if (StartsWith(dtype, "FLOAT") || StartsWith(dtype, "BFLOAT")) return "float";
  if (StartsWith(dtype, "INT") || StartsWith(dtype, "UINT")) return "integer";
  return std::string(dtype);
}

namespace {

// The judge's mismatch message "T: N of M elements wrong; first element [..]: expected X, got
// Y": T, X and Y; nullopt for any other message.
struct Mismatch {
  std::string_view tensor, expected, got;
};
std::optional<Mismatch> ParseMismatch(std::string_view message) {
  const size_t wrong = message.find(" elements wrong; first element ");
  const size_t expected = message.find(": expected ", wrong);
  const size_t got = message.find(", got ", expected);
  const size_t tensor = message.find(": ");
  if (wrong == std::string_view::npos || expected == std::string_view::npos ||
      got == std::string_view::npos || tensor > wrong)
    return std::nullopt;
  return Mismatch{message.substr(0, tensor), message.substr(expected + 11, got - (expected + 11)),
                  message.substr(got + 6)};
}

}  // namespace

std::string NormalizedCause(const CaseRecord& record) {
  const std::string_view message = record.message;
  if (const std::optional<Mismatch> m = ParseMismatch(message))
    return std::string(m->tensor) + ": wrong elements";
  // Near (guard bytes) or far (guard pages), a write outside the buffer is one kind.
  if (message.find("outside TotalTensorSizeInBytes") != std::string_view::npos) {
    const std::string_view side = message.find("before the start") != std::string_view::npos
                                      ? "before the start"
                                      : "past the end";
    return std::string(message.substr(0, message.find(": "))) + ": wrote " + std::string(side) +
           " (outside TotalTensorSizeInBytes)";
  }
  return CauseOf(message);
}

std::string MismatchKindOf(const CaseRecord& record) {
  const std::optional<Mismatch> m = ParseMismatch(record.message);
  return m ? MismatchKind(m->expected, m->got, DtypeClass(record.dtype) == "float") : "";
}

std::string FailureSignature(const CaseRecord& record) {
  return std::string(StatusName(record.status)) + " " + record.op + " (" +
         DtypeClass(record.dtype) + "): " + NormalizedCause(record);
}

}  // namespace opcts
