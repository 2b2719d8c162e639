// Malformed input of every kind, through the real `opcts` binary: each gets its exact error
// message and exit code, and none crashes (a crash would show as a signal, not exit code 2).
#include <cstdlib>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "base/shell_output.h"

namespace {

struct BadInput {
  const char* name;
  std::map<std::string, std::string> files;  // written to a fresh directory; $D in args names it
  std::string args;
  int exit_code;
  std::string message;  // must appear in the output ($D expanded)
};

const BadInput kInputs[] = {
    // Spec files.
    {"spec_bad_yaml",
     {{"s.yaml", "schema: [unclosed\n"}},
     "spec check $D/s.yaml",
     1,
     "$D/s.yaml:2:"},
    {"spec_missing_keys",
     {{"s.yaml", "schema: opcts-spec/1\noperator: X\n"}},
     "spec check $D/s.yaml",
     1,
     "$D/s.yaml:1: missing required key 'reference'"},
    {"spec_missing_file", {}, "spec check $D/nope.yaml", 1, "$D/nope.yaml"},
    // Plugin paths.
    {"plugin_missing", {}, "run --backend $D/nope.so", 2, "$D/nope.so: no such file"},
    {"plugin_not_elf",
     {{"p.so", "text"}},
     "run --backend $D/p.so",
     2,
     "$D/p.so: not a loadable plugin"},
    {"plugin_wrong_abi",
     {},
     "run --backend " OPCTS_TEST_PLUGIN_DIR "/opcts-bad-abi-version.so",
     2,
     "built for opcts ABI version 999, this opcts speaks version 1"},
    {"plugin_missing_symbol",
     {},
     "run --backend " OPCTS_TEST_PLUGIN_DIR "/opcts-bad-missing-symbol.so",
     2,
     "no exported symbol opcts_backend_entry"},
    {"plugin_null_function",
     {},
     "run --backend " OPCTS_TEST_PLUGIN_DIR "/opcts-bad-null-function.so",
     2,
     "function table entry 'execute' is NULL"},
    {"plugin_unknown_builtin", {}, "run --backend no-such", 2, "no built-in backend 'no-such'"},
    // Vector files.
    {"vector_not_json", {{"v.json", "{nope"}}, "vectors $D/v.json", 2, "$D/v.json: not valid JSON"},
    {"vector_bad_value",
     {{"v.json",
       R"({"format":"opcts-vector/1","name":"x","operator":"DML_CUMULATIVE_SUMMATION","parameters":{"Axis":0},"tensors":{"InputTensor":{"dtype":"FLOAT32","sizes":[2],"data":[1,"x"]},"OutputTensor":{"dtype":"FLOAT32","sizes":[2]}},"expected":"reject"})"}},
     "vectors $D/v.json",
     2,
     "$D/v.json: tensors.InputTensor.data[1]: 'x' is not a number"},
    {"vector_unknown_operator",
     {{"v.json",
       R"({"format":"opcts-vector/1","name":"x","operator":"FOO","tensors":{},"expected":"reject"})"}},
     "vectors $D/v.json",
     2,
     "$D/v.json: operator: unknown operator 'FOO'"},
    {"vector_int_out_of_range",
     {{"v.json",
       R"({"format":"opcts-vector/1","name":"x","operator":"DML_CUMULATIVE_SUMMATION","tensors":{"InputTensor":{"dtype":"UINT16","sizes":[1],"data":[70000]},"OutputTensor":{"dtype":"UINT16","sizes":[1]}},"expected":"reject"})"}},
     "vectors $D/v.json",
     2,
     "data[0]: out of range for UINT16"},
    {"vector_output_broadcast",
     {{"v.json",
       R"({"format":"opcts-vector/1","name":"x","operator":"DML_CUMULATIVE_SUMMATION","parameters":{"Axis":3},"tensors":{"InputTensor":{"dtype":"FLOAT32","sizes":[1,1,1,2],"data":[1,2]},"OutputTensor":{"dtype":"FLOAT32","sizes":[1,1,1,2],"strides":[2,2,2,0]}},"expected":{"OutputTensor":[1,3]}})"}},
     "vectors $D/v.json",
     2,
     "$D/v.json: tensors.OutputTensor.strides[3]: 0 broadcasts, which an output cannot: two of "
     "its elements would share one address"},
    {"vector_in_place_descs_differ",
     {{"v.json",
       R"({"format":"opcts-vector/1","name":"x","operator":"DML_CUMULATIVE_SUMMATION","parameters":{"Axis":3},"in_place":true,"tensors":{"InputTensor":{"dtype":"FLOAT32","sizes":[1,1,1,2],"data":[1,2]},"OutputTensor":{"dtype":"FLOAT32","sizes":[1,1,1,2],"strides":[2,2,2,1]}},"expected":{"OutputTensor":[1,3]}})"}},
     "vectors $D/v.json",
     2,
     "$D/v.json: in_place: tensors.OutputTensor would alias tensors.InputTensor, but their "
     "strides differ"},
    {"vector_in_place_not_allowed",
     {{"v.json",
       R"({"format":"opcts-vector/1","name":"x","operator":"OPENVINO_CUMSUM_3","in_place":true,"tensors":{"data":{"dtype":"FLOAT32","sizes":[2],"data":[1,2]},"output":{"dtype":"FLOAT32","sizes":[2]}},"expected":{"output":[1,3]}})"}},
     "vectors $D/v.json",
     2,
     "$D/v.json: in_place: OPENVINO_CUMSUM_3 does not run in place: no output of its spec may "
     "alias an input (may_alias)"},
    // Journals.
    {"journal_garbage", {{"j.jsonl", "garbage\n{}\n"}}, "report $D/j.jsonl", 2, "$D/j.jsonl:1:"},
    {"journal_resume_garbage",
     {{"j.jsonl", "garbage\n{}\n"}},
     "run --backend cpu-reference --resume $D/j.jsonl",
     2,
     "opcts run --resume: $D/j.jsonl:1:"},
    {"journal_missing", {}, "report $D/none.jsonl", 2, "$D/none.jsonl"},
    // A run killed mid-write: the torn last line is dropped with a warning, and the journal,
    // one case short of its plan, fails the gate rather than passing as complete.
    {"journal_truncated_last_line",
     {{"j.jsonl", R"({"type":"header","format":"opcts-journal/1","seed":1,"planned_cases":2}
{"type":"case","id":"a.b","backend":"x","status":"Pass"}
{"type":"case","id":"a.c","backend":"x","sta)"}},
     "report $D/j.jsonl",
     1,
     "dropped an incomplete last line"},
    // Waiver files.
    {"waivers_bad_yaml",
     {{"w.yaml", "- id: [\n"}, {"j.jsonl", ""}},
     "report --waivers $D/w.yaml $D/j.jsonl",
     2,
     "$D/w.yaml"},
    // Command-line arguments.
    {"cli_unknown_command", {}, "frobnicate", 2, "opcts: unknown command 'frobnicate'"},
    {"cli_unknown_option", {}, "run --frob", 2, "unknown option --frob"},
    {"cli_bad_shard",
     {},
     "run --shard 3/2",
     2,
     "--shard: a shard is I/N with 0 <= I < N, not '3/2'"},
    {"cli_bad_seed", {}, "run --seed -4", 2, "--seed needs a non-negative integer, not '-4'"},
    {"cli_missing_value", {}, "run --journal", 2, "--journal needs a value"},
    // Options for one backend given to all: the one that rejects them says how to aim them.
    {"cli_backend_options_for_all",
     {},
     "run --backend cpu-reference --backend cpu-reference@out_of_range=refuse --backend-options "
     "frob=1",
     2,
     "(--backend-options reaches every backend of the run; NAME@OPTIONS gives one backend its "
     "own)"},
    {"cli_backend_twice",
     {},
     "run --backend cpu-reference --backend cpu-reference",
     2,
     "backend cpu-reference: ERROR: the run already has a backend named 'cpu-reference'"},
    // Options after '@' reach that backend's create(), which names what it does not know.
    {"cli_backend_own_options",
     {},
     "run --backend cpu-reference --backend cpu-reference@frob=1",
     2,
     "cpu-reference takes only out_of_range=refuse or out_of_range=skip, got \"frob=1\""},
    {"cli_repro_malformed_id",
     {},
     "repro no.such.case",
     2,
     "case id 'no.such.case': too few parts"},
    {"cli_repro_unknown_id",
     {},
     "repro dml_cumulative_summation.f32.rank1.99.axis0.packed.random.s1",
     2,
     "0 cases match 'dml_cumulative_summation.f32.rank1.99.axis0.packed.random.s1' (seed 1)"},
    {"cli_repro_undrawable_property_id",
     {},
     "repro dml_cumulative_summation.prop.f32.rank1.3.axis0-incl-fwd.packed.random.s5",
     2,
     "no property test draws it"},
    {"cli_spec_without_check", {}, "spec", 2, "usage: opcts spec check"},
};

std::string Expand(std::string text, const std::string& dir) {
  for (size_t at; (at = text.find("$D")) != std::string::npos;) text.replace(at, 2, dir);
  return text;
}

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ClearErrorAndExitCode) {
  const BadInput& input = GetParam();
  const std::string dir = ::testing::TempDir() + "opcts-bad-input-" + input.name;
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  for (const auto& [name, content] : input.files) std::ofstream(dir + "/" + name) << content;
  const std::string command = std::string(OPCTS_BINARY) + " " + Expand(input.args, dir) + " 2>&1";
  const auto [output, exit_code] = opcts::RunShell(command);
  ASSERT_NE(exit_code, -1) << "opcts did not start or died: " << command << "\n" << output;
  EXPECT_EQ(exit_code, input.exit_code) << command << "\n" << output;
  EXPECT_NE(output.find(Expand(input.message, dir)), std::string::npos)
      << command << "\nexpected: " << Expand(input.message, dir) << "\ngot:\n"
      << output;
}

INSTANTIATE_TEST_SUITE_P(Inputs, BadInputTest, ::testing::ValuesIn(kInputs),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
