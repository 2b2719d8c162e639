// DML_SCATTER_ND: the output is the input, then each index tuple's slice of updates is written
// at the position the tuple names. Negative coordinates (signed index types) count from the
// end of their dimension; a tuple with a coordinate out of range is skipped, so nothing is
// written outside the output. Duplicate tuples: the last one in index order wins.
#pragma once

#include <cstdint>
#include <string>

#include "opcts/backend.h"

namespace opcts::mutant {

// The descriptor and bindings have been checked. `input` may be a copy of the output's buffer
// (in place). OPCTS_STATUS_OK, or OPCTS_STATUS_ERROR with *message.
int32_t RunScatterND(const opcts_dml_scatter_nd_desc& desc, const uint8_t* input,
                     const uint8_t* indices, const uint8_t* updates, uint8_t* output,
                     std::string* message);

}  // namespace opcts::mutant
