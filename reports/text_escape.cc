#include "reports/text_escape.h"

#include <cmath>
#include <cstdio>

namespace opcts {
namespace {

constexpr char kEscape = '\x1b';
constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

bool InRange(char c, unsigned low, unsigned high) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= low && byte <= high;
}

// Where the text after the escape sequence starting at `i` (an ESC) resumes. A sequence cut off
// by the end of the text swallows the rest, as a terminal would.
size_t SkipEscape(std::string_view text, size_t i) {
  if (i + 1 >= text.size()) return text.size();
  const char kind = text[i + 1];
  size_t next = i + 2;
  if (kind == '[') {  // CSI: parameter and intermediate bytes, then one final byte
    while (next < text.size() && InRange(text[next], 0x20, 0x3f)) ++next;
    return next < text.size() && InRange(text[next], 0x40, 0x7e) ? next + 1 : next;
  }
  if (kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_') {
    for (; next < text.size(); ++next) {  // a string, ended by BEL or ST (ESC \)
      if (text[next] == '\a') return next + 1;
      if (text[next] != kEscape) continue;
      return next + 1 < text.size() && text[next + 1] == '\\' ? next + 2 : next;
    }
    return next;
  }
  // "ESC x" for a printable ASCII x; before anything else only the ESC goes.
  return InRange(kind, 0x20, 0x7e) ? next : i + 1;
}

// The length of the valid UTF-8 sequence at `i` (a byte >= 0x80), or 0 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF).
size_t Utf8Length(std::string_view text, size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  size_t length = 0;
  unsigned low = 0x80, high = 0xbf;  // the range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  }
  if (length == 0 || i + length > text.size() || !InRange(text[i + 1], low, high)) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (!InRange(text[i + k], 0x80, 0xbf)) return 0;
  }
  return length;
}

}  // namespace

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += "\xEF\xBF\xBD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string EscapeMarkdown(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\n':
      case '\r':
      case '\t':
        out += ' ';
        break;
      case '|':
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '~':
        out += '\\';
        out += c;
        break;
      default:
        out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
  }
  return out;
}

std::string EscapeMarkdownCode(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '`') c = '\'';
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

std::string ToValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t length = InRange(text[i], 0x00, 0x7f) ? 1 : Utf8Length(text, i);
    if (length == 0) {
      out += kReplacement;
      ++i;
    } else {
      out += text.substr(i, length);
      i += length;
    }
  }
  return out;
}

std::string TerminalSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == kEscape) {
      i = SkipEscape(text, i);
    } else if (InRange(c, 0x00, 0x1f) || c == 0x7f) {
      out += ' ';
      ++i;
    } else if (InRange(c, 0x20, 0x7e)) {
      out += c;
      ++i;
    } else if (const size_t length = Utf8Length(text, i); length == 0) {
      out += kReplacement;
      ++i;
    } else {
      const bool c1_control = c == '\xc2' && InRange(text[i + 1], 0x80, 0x9f);
      out += c1_control ? std::string_view(" ") : text.substr(i, length);
      i += length;
    }
  }
  return out;
}

std::string FormatNumber(const std::optional<double>& value) {
  if (!value) return "-";
  if (std::isnan(*value)) return "NaN";
  if (std::isinf(*value)) return *value > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", *value);
  return text;
}

std::string FormatPassRate(uint64_t passing, uint64_t cases) {
  const uint64_t tenths = cases == 0 ? 0 : passing * 1000 / cases;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " % (" +
         std::to_string(passing) + "/" + std::to_string(cases) + ")";
}

std::string JoinList(const std::vector<std::string>& items) {
  std::string list;
  for (const auto& item : items) list += (list.empty() ? "" : ", ") + item;
  return list.empty() ? "-" : list;
}

}  // namespace opcts
