// opcts_abi_codegen: writes what code needs about each operator, from spec/*.yaml.
//
//   opcts_abi_codegen --header OUT.h --table OUT.cc [--committed
//   backends/include/opcts/operators.h]
//                     spec/*.yaml
//
// OUT.h is the ABI's operator header (codes, descriptor structs, enum values); OUT.cc the operator
// table (backends/common/operator_table.h). The header is also committed, for plugins built
// against the source tree alone; --committed fails (exit 1) when that copy differs from OUT.h,
// so a spec change that changes the ABI cannot go unnoticed. Exit 2: a spec does not load.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "spec/spec_loader.h"

namespace opcts {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string BaseName(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// One line of C comment text: no "*/", no newlines.
std::string Comment(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  for (size_t at; (at = s.find("*/")) != std::string::npos;) s.replace(at, 2, "* /");
  return s;
}

std::string CString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

struct Loaded {
  OperatorSpec spec;
  std::string text;
};

std::string Header(const std::vector<Loaded>& ops) {
  std::ostringstream h;
  h << "/* Generated from the operator specs (spec/NAME.yaml) by spec/abi_codegen.cc: do not edit. "
       "The build regenerates it\n"
       " * and fails while this copy differs; the failure prints the command that refreshes it.\n"
       " *\n"
       " * The operators of the backend ABI: included by opcts/backend.h, after "
       "opcts_tensor_desc.\n"
       " * `opcts_op_desc.type` is an OPCTS_OP_* code and `desc` points to that operator's "
       "struct.\n"
       " * Bindings passed to execute follow the order of the struct's tensor members; an "
       "optional\n"
       " * tensor that is absent is NULL in the struct and bound as {NULL, 0}. */\n"
       "#ifndef OPCTS_OPERATORS_H_\n#define OPCTS_OPERATORS_H_\n\n";
  for (const Loaded& l : ops)
    h << "#define OPCTS_OP_" << l.spec.name << " " << l.spec.abi.code << "u /* spec/"
      << BaseName(l.spec.file) << " */\n";
  std::set<std::string> prefixes;
  for (const Loaded& l : ops)
    for (const auto& [param, prefix] : l.spec.abi.enum_prefixes) {
      if (!prefixes.insert(prefix).second) continue;
      h << "\n/* " << l.spec.name << "." << param << " */\n";
      const std::vector<std::string>& values = l.spec.FindParam(param)->enum_values;
      for (size_t i = 0; i < values.size(); ++i)
        h << "#define " << prefix << "_" << Upper(values[i]) << " " << i << "u\n";
    }
  std::set<std::string> structs;
  for (const Loaded& l : ops) {
    const AbiForm& abi = l.spec.abi;
    if (!structs.insert(abi.struct_name).second) continue;
    std::vector<const OperatorSpec*> users;
    for (const Loaded& other : ops)
      if (other.spec.abi.struct_name == abi.struct_name) users.push_back(&other.spec);
    h << "\n/* ";
    for (size_t i = 0; i < users.size(); ++i) h << (i ? ", " : "") << users[i]->name;
    h << ". */\ntypedef struct " << abi.struct_name << " {\n";
    for (size_t f = 0; f < abi.fields.size(); ++f) {
      std::string names;
      for (const OperatorSpec* user : users) {
        const std::string& name = user->abi.fields[f].name;
        if (names.find(name) == std::string::npos) names += (names.empty() ? "" : " / ") + name;
      }
      const AbiField& field = abi.fields[f];
      if (const TensorSpec* t = l.spec.FindTensor(field.name)) {
        h << "  const opcts_tensor_desc* " << field.member << "; /* " << names
          << (t->optional ? " (optional: NULL when absent)" : "") << ": " << Comment(t->doc)
          << " */\n";
      } else {
        const ParamSpec* p = l.spec.FindParam(field.name);
        const auto prefix = abi.enum_prefixes.find(field.name);
        h << "  uint32_t " << field.member << "; /* " << names << ": "
          << (p->type == ParamType::kBool ? "bool. " : "")
          << (prefix != abi.enum_prefixes.end() ? prefix->second + "_*. " : "") << Comment(p->doc)
          << " */\n";
      }
    }
    h << "} " << abi.struct_name << ";\n";
  }
  h << "\n#endif /* OPCTS_OPERATORS_H_ */\n";
  return h.str();
}

std::string LevelCode(LevelScheme scheme, const std::string& level) {
  if (scheme != LevelScheme::kDirectML) return "0";
  return "OPCTS_FEATURE_LEVEL(" + level.substr(0, level.find('_')) + ", " +
         level.substr(level.find('_') + 1) + ")";
}

std::string Table(const std::vector<Loaded>& ops) {
  std::ostringstream t;
  t << "// Generated from spec/*.yaml by spec/abi_codegen.cc: do not edit.\n"
       "#include <cstddef>\n\n#include \"common/operator_table.h\"\n\n"
       "namespace opcts::abi {\n\nconst std::vector<Operator>& Operators() {\n"
       "  static const std::vector<Operator> operators = {\n";
  for (const Loaded& l : ops) {
    const OperatorSpec& s = l.spec;
    const std::string combine = s.family.name != "scan"                              ? ""
                                : s.accuracy.model == AccuracyModel::kRunningProduct ? "product"
                                                                                     : "sum";
    t << "      {OPCTS_OP_" << s.name << ", " << CString(s.name) << ", " << CString(s.family.name)
      << ", " << CString(SchemeName(s.scheme)) << ", " << CString(combine) << ", sizeof("
      << s.abi.struct_name << "),\n       {";
    int binding = 0;
    for (const AbiField& f : s.abi.fields) {
      const TensorSpec* tensor = s.FindTensor(f.name);
      const ParamSpec* param = s.FindParam(f.name);
      std::string values;
      size_t value_count = 0;
      if (param && param->type == ParamType::kBool) values = "0 1", value_count = 2;
      if (param && param->type == ParamType::kEnum) {
        for (const std::string& v : param->enum_values) values += (values.empty() ? "" : " ") + v;
        value_count = param->enum_values.size();
      }
      const auto flag = [](bool b) { return b ? "true" : "false"; };
      t << "\n        {" << CString(f.member) << ", " << CString(f.name) << ", " << flag(tensor)
        << ", " << flag(tensor && tensor->optional) << ", "
        << flag(tensor && tensor->role == TensorRole::kScalarInput) << ", " << value_count << ", "
        << CString(values) << ", offsetof(" << s.abi.struct_name << ", " << f.member << "), "
        << (tensor ? binding++ : -1) << "},";
    }
    t << "},\n       {";
    for (const auto& [role, name] : s.family.roles)
      t << "{" << CString(role) << ", " << CString(name) << "}, ";
    t << "},\n       {";
    for (const SupportLevel& level : s.support) {
      t << "\n        {" << CString(level.level) << ", " << LevelCode(s.scheme, level.level)
        << ", {";
      for (const auto& [tensor, support] : level.tensors) {
        t << "{" << CString(tensor) << ", " << support.min_rank << ", " << support.max_rank
          << ", {";
        for (DType d : support.dtypes) t << "OPCTS_DTYPE_" << DTypeName(d) << ", ";
        t << "}}, ";
      }
      t << "}, {";
      for (const auto& [param, values] : level.params) {
        t << "{" << CString(param) << ", {";
        for (int64_t v : values) t << v << ", ";
        t << "}}, ";
      }
      t << "}},";
    }
    t << "},\n       {";
    for (const FloatRule& rule : s.float_rules)
      if (rule.flush_subnormals) t << "OPCTS_DTYPE_" << DTypeName(rule.dtype) << ", ";
    t << "},\n       " << CString(BaseName(s.file)) << ",\n       R\"opcts_yaml(" << l.text
      << ")opcts_yaml\"},\n";
  }
  t << "  };\n  return operators;\n}\n\n}  // namespace opcts::abi\n";
  return t.str();
}

int Main(int argc, char** argv) {
  std::string header_path, table_path, committed_path;
  std::vector<std::string> spec_paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--header" || arg == "--table" || arg == "--committed") && i + 1 < argc) {
      (arg == "--header"  ? header_path
       : arg == "--table" ? table_path
                          : committed_path) = argv[++i];
    } else if (arg.rfind("--", 0) == 0) {
      std::cerr << "opcts_abi_codegen: unknown option " << arg << "\n";
      return 2;
    } else {
      spec_paths.push_back(arg);
    }
  }
  if (header_path.empty() || table_path.empty() || spec_paths.empty()) {
    std::cerr
        << "usage: opcts_abi_codegen --header OUT.h --table OUT.cc [--committed H] SPEC.yaml...\n";
    return 2;
  }
  std::sort(spec_paths.begin(), spec_paths.end());
  std::vector<Loaded> ops;
  std::vector<OperatorSpec> specs;
  bool failed = false;
  for (const std::string& path : spec_paths) {
    const std::string text = ReadFile(path);
    SpecLoadResult r = LoadSpecText(text, path);
    for (const SpecError& e : r.errors) std::cerr << FormatSpecError(e) << "\n";
    if (!r.spec) {
      failed = true;
      continue;
    }
    specs.push_back(*r.spec);
    ops.push_back({std::move(*r.spec), text});
  }
  for (const SpecError& e : CheckSpecSet(specs)) {
    std::cerr << FormatSpecError(e) << "\n";
    failed = true;
  }
  if (failed) return 2;
  std::sort(ops.begin(), ops.end(),
            [](const Loaded& a, const Loaded& b) { return a.spec.abi.code < b.spec.abi.code; });
  const std::string header = Header(ops);
  std::ofstream(header_path, std::ios::binary) << header;
  std::ofstream(table_path, std::ios::binary) << Table(ops);
  if (!committed_path.empty() && ReadFile(committed_path) != header) {
    std::cerr
        << "error: " << committed_path << " differs from what spec/*.yaml generate (" << header_path
        << ").\nA spec change changed the backend ABI; review the difference, then refresh the "
           "committed header:\n  cp "
        << header_path << " " << committed_path << "\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace opcts

int main(int argc, char** argv) { return opcts::Main(argc, argv); }
