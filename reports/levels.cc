#include "reports/levels.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace opcts {
namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The decimal numbers in a level without leading zeros ("4_01" -> "4", "1"), so that numbers
// of any length compare by length first, then digit by digit.
std::vector<std::string_view> Numbers(std::string_view level) {
  std::vector<std::string_view> numbers;
  for (size_t i = 0; i < level.size();) {
    if (!IsDigit(level[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < level.size() && IsDigit(level[end])) ++end;
    while (i + 1 < end && level[i] == '0') ++i;
    numbers.push_back(level.substr(i, end - i));
    i = end;
  }
  return numbers;
}

int CompareNumbers(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  const int order = a.compare(b);
  return (order > 0) - (order < 0);
}

std::string Skeleton(std::string_view level) {
  std::string skeleton;
  for (size_t i = 0; i < level.size(); ++i) {
    if (!IsDigit(level[i])) {
      skeleton += static_cast<char>(std::tolower(static_cast<unsigned char>(level[i])));
    } else if (i == 0 || !IsDigit(level[i - 1])) {
      skeleton += '#';
    }
  }
  return skeleton;
}

Error Invalid(std::string_view text, const std::string& why) {
  std::string error = "\"";  // appended piecewise: GCC 12 misreports `"\"" + std::string(...)`
  error.append(text).append("\": ").append(why);
  return InvalidInput(std::move(error));
}

}  // namespace

int CompareLevels(std::string_view a, std::string_view b) {
  const auto numbers_a = Numbers(a);
  const auto numbers_b = Numbers(b);
  for (size_t i = 0; i < numbers_a.size() && i < numbers_b.size(); ++i) {
    if (const int order = CompareNumbers(numbers_a[i], numbers_b[i]); order != 0) return order;
  }
  if (numbers_a.size() != numbers_b.size()) return numbers_a.size() < numbers_b.size() ? -1 : 1;
  if (a.empty() != b.empty()) return a.empty() ? -1 : 1;
  return 0;
}

bool SameLevelScheme(std::string_view a, std::string_view b) { return Skeleton(a) == Skeleton(b); }

Result<LevelRequirement> ParseLevelRequirement(std::string_view text) {
  LevelRequirement requirement;
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    requirement.level = text;
  } else {
    requirement.op = text.substr(0, equals);
    requirement.level = text.substr(equals + 1);
    if (requirement.op.empty()) return Invalid(text, "the operator before '=' is empty");
    if (requirement.level.empty()) return Invalid(text, "the level after '=' is empty");
    if (requirement.level.find('=') != std::string::npos) return Invalid(text, "more than one '='");
  }
  if (requirement.level.empty()) return Invalid(text, "the level is empty");
  if (std::none_of(requirement.level.begin(), requirement.level.end(), IsDigit)) {
    return Invalid(text, "the level \"" + requirement.level +
                             "\" holds no number (levels look like 4_1 or opset3)");
  }
  return requirement;
}

}  // namespace opcts
