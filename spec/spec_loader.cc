#include "spec/spec_loader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include "spec/spec_parser.h"
#include "spec/yaml_reader.h"

namespace opcts {

std::string FormatSpecError(const SpecError& e) {
  std::string s = e.file;
  if (e.line > 0) s.append(":").append(std::to_string(e.line));
  if (!e.field.empty()) s.append(": ").append(e.field);
  return s.append(": ").append(e.message);
}

namespace {

// Notes where each document starts and ignores the rest.
class DocumentStarts : public YAML::EventHandler {
 public:
  int last_line = 0;  // 1-based
  void OnDocumentStart(const YAML::Mark& mark) override {
    last_line = mark.is_null() ? 0 : mark.line + 1;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// The line where a second YAML document starts, if there is one. Counts two at most: on some
// inputs yaml-cpp 0.7 yields empty documents without end (so YAML::LoadAll never returns).
std::optional<int> SecondDocumentLine(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  if (!parser.HandleNextDocument(starts) || !parser.HandleNextDocument(starts)) return std::nullopt;
  return starts.last_line;
}

}  // namespace

SpecLoadResult LoadSpecText(const std::string& text, const std::string& file_name) {
  YamlReader reader(file_name);
  OperatorSpec spec;
  spec.file = file_name;
  try {
    const YAML::Node root = YAML::Load(text);  // the first document
    if (root.IsNull()) {
      reader.Error(0, "", "the file is empty (expected a spec map, see spec/README.md)");
    } else {
      if (const std::optional<int> line = SecondDocumentLine(text))
        reader.Error(*line, "", "a spec file holds one YAML document, found a second one");
      ParseSpec(reader, YamlField{root, "", root.Mark().is_null() ? 1 : root.Mark().line + 1},
                spec);
    }
  } catch (const YAML::DeepRecursion& e) {
    reader.Error(e.mark.is_null() ? 0 : e.mark.line + 1, "",
                 "invalid YAML: nested too deeply (" + std::to_string(e.depth()) + " levels)");
  } catch (const YAML::Exception& e) {
    // Bad YAML: the parser stops at the first problem, so this is the only error.
    reader.Error(e.mark.is_null() ? 0 : e.mark.line + 1, "", "invalid YAML: " + e.msg);
  } catch (const std::exception& e) {
    reader.Error(0, "", std::string("could not load: ") + e.what());
  }
  SpecLoadResult result;
  result.errors = reader.TakeErrors();
  if (result.errors.empty()) result.spec = std::move(spec);
  return result;
}

SpecLoadResult LoadSpecFile(const std::string& path) {
  SpecLoadResult failed;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) || !std::filesystem::is_regular_file(path, ec)) {
    const std::string why =
        std::filesystem::exists(path, ec) ? "not a regular file" : "no such file";
    failed.errors.push_back(SpecError{path, 0, "", "cannot read spec: " + why});
    return failed;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) {
    failed.errors.push_back(
        SpecError{path, 0, "", std::string("cannot read spec: ") + std::strerror(errno)});
    return failed;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return LoadSpecText(text.str(), path);
}

namespace {
// OpenVINO and ONNX name their levels by opset version; both have fewer than 32 so far.
const std::vector<std::string>& OpsetLevels() {
  static const std::vector<std::string> kLevels = [] {
    std::vector<std::string> levels;
    for (int i = 1; i <= 32; ++i) levels.push_back("opset" + std::to_string(i));
    return levels;
  }();
  return kLevels;
}
}  // namespace

const char* SchemeName(LevelScheme scheme) {
  switch (scheme) {
    case LevelScheme::kDirectML:
      return "directml";
    case LevelScheme::kOpenVINO:
      return "openvino";
    case LevelScheme::kONNX:
      return "onnx";
  }
  return "?";
}

int LevelIndex(LevelScheme scheme, const std::string& level) {
  if (scheme == LevelScheme::kDirectML) return DirectMLLevelIndex(level);
  const auto& levels = OpsetLevels();
  const auto it = std::find(levels.begin(), levels.end(), level);
  return it == levels.end() ? -1 : static_cast<int>(it - levels.begin());
}

}  // namespace opcts
