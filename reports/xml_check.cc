#include "reports/xml_check.h"

#include <cctype>

namespace opcts::testing {
namespace {

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Result<XmlDocument> Run() {
    if (!Document()) return InvalidInput(error_);
    return document_;
  }

 private:
  // Keeps the first failure, where it happened: an inner element's, not its parents'.
  bool Fail(const std::string& what) {
    if (error_.empty()) error_ = "offset " + std::to_string(pos_) + ": " + what;
    return false;
  }

  bool Document() {
    SkipSpace();
    if (text_.compare(pos_, 5, "<?xml") == 0) {
      const size_t end = text_.find("?>", pos_);
      if (end == std::string::npos) return Fail("unterminated declaration");
      pos_ = end + 2;
    }
    SkipSpace();
    if (!Element()) return false;
    SkipSpace();
    return pos_ == text_.size() || Fail("content after the root element");
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  std::string Name() {
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '-' ||
            text_[pos_] == '_' || text_[pos_] == ':' || text_[pos_] == '.')) {
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }

  // Decodes text up to `stop`, rejecting raw '<' and bare '&'.
  bool Decode(char stop, std::string& out) {
    while (pos_ < text_.size() && text_[pos_] != stop) {
      const char c = text_[pos_];
      if (c == '<') return stop == '<';
      if (c != '&') {
        out += c;
        ++pos_;
        continue;
      }
      const size_t end = text_.find(';', pos_);
      if (end == std::string::npos) return Fail("bare &");
      const std::string entity = text_.substr(pos_ + 1, end - pos_ - 1);
      static const std::map<std::string, std::string> kNamed = {
          {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}};
      if (kNamed.count(entity)) {
        out += kNamed.at(entity);
      } else if (entity.size() > 1 && entity[0] == '#') {
        const bool hex = entity[1] == 'x';
        const std::string digits = entity.substr(hex ? 2 : 1);
        if (digits.empty() || digits.find_first_not_of(hex ? "0123456789abcdefABCDEF"
                                                           : "0123456789") != std::string::npos) {
          return Fail("bad character reference &" + entity + ";");
        }
        const unsigned long code = std::stoul(digits, nullptr, hex ? 16 : 10);
        if (code >= 0x80) return Fail("test decoder handles ASCII references only");
        out += static_cast<char>(code);
      } else {
        return Fail("unknown entity &" + entity + ";");
      }
      pos_ = end + 1;
    }
    return pos_ < text_.size() || stop == '<';
  }

  bool Element() {
    if (pos_ >= text_.size() || text_[pos_] != '<') return Fail("expected <");
    ++pos_;
    const size_t index = document_.elements.size();
    document_.elements.push_back({Name(), {}, ""});
    if (document_.elements[index].name.empty()) return Fail("missing element name");
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size()) return Fail("unterminated start tag");
      if (text_.compare(pos_, 2, "/>") == 0) {
        pos_ += 2;
        return true;
      }
      if (text_[pos_] == '>') {
        ++pos_;
        break;
      }
      const std::string attribute = Name();
      if (attribute.empty() || pos_ + 1 >= text_.size() || text_[pos_] != '=' ||
          text_[pos_ + 1] != '"') {
        return Fail("malformed attribute");
      }
      pos_ += 2;
      std::string value;
      if (!Decode('"', value)) return Fail("unterminated attribute value");
      ++pos_;
      if (!document_.elements[index].attributes.emplace(attribute, value).second) {
        return Fail("duplicate attribute " + attribute);
      }
    }
    while (true) {
      std::string text;
      if (!Decode('<', text)) return Fail("unterminated element");
      document_.elements[index].text += text;
      if (pos_ >= text_.size()) return Fail("unterminated element");
      if (text_.compare(pos_, 2, "</") == 0) {
        pos_ += 2;
        const std::string name = Name();
        if (name != document_.elements[index].name || pos_ >= text_.size() || text_[pos_] != '>') {
          return Fail("mismatched end tag </" + name + ">");
        }
        ++pos_;
        return true;
      }
      if (!Element()) return false;
    }
  }

  const std::string& text_;
  size_t pos_ = 0;
  XmlDocument document_;
  std::string error_;
};

}  // namespace

Result<XmlDocument> ParseXml(const std::string& text) { return Parser(text).Run(); }

}  // namespace opcts::testing
