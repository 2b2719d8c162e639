// Feature levels as journals write them: DirectML "2_1", "4_0", "5_0"; OpenVINO "opset3". They
// order by the numbers they hold, and only levels of one scheme ("#_#", "opset#") compare
// meaningfully; --require-level and --require OP=LEVEL name the level a report must prove.
//
//   CompareLevels("4_1", "5_0") < 0;  SameLevelScheme("opset3", "opset11") == true
//   auto required = opcts::ParseLevelRequirement("dml_scatter_nd=4_1");  // {op, level}
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace opcts {

// Negative, 0 or positive as `a` orders before, with or after `b`: by the tuple of decimal
// numbers in the string ("4_1" -> (4,1), "opset11" -> (11)), a shorter tuple first when one is
// a prefix of the other; "" orders below every other level.
int CompareLevels(std::string_view a, std::string_view b);

// True when both levels have the same skeleton: digits runs as '#', letters compared ignoring
// case ("4_0" and "5_1" are "#_#"; "opset3" is "opset#"). "" is a skeleton of its own.
bool SameLevelScheme(std::string_view a, std::string_view b);

struct LevelRequirement {
  std::string op;     // "" = every operator whose levels use LEVEL's scheme (SameLevelScheme)
  std::string level;  // the lowest level every case up to which must pass
};

// "5_0" -> {"", "5_0"}; "dml_cumulative_summation=4_0" -> {"dml_cumulative_summation", "4_0"}
// (operators compare ignoring case). An empty part or a level without a number is an
// ErrorCode::kInvalidInput ("\"=4_0\": the operator before '=' is empty").
Result<LevelRequirement> ParseLevelRequirement(std::string_view text);

}  // namespace opcts
