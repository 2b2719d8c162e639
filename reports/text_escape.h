// Escaping for the report formats: every name and message in a report comes from a journal,
// i.e. from a backend, and must show as text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opcts {

// For HTML and XML text and attribute values: & < > " ' become entities; control characters
// XML 1.0 forbids become U+FFFD; newline and tab survive (as &#10; / &#9; so attributes keep them).
std::string EscapeXml(std::string_view text);

// For one Markdown table cell on GitHub: HTML-escaped (GitHub renders inline HTML), pipes and
// backslashes escaped, newlines turned into spaces, Markdown emphasis characters neutralised.
std::string EscapeMarkdown(std::string_view text);

// For a line inside a fenced code block: backticks (which could close the fence) become ' and
// line breaks become spaces, so one command stays one line.
std::string EscapeMarkdownCode(std::string_view text);

// A short fixed-width number for tables ("1.2e-06"); "-" when absent.
std::string FormatNumber(const std::optional<double>& value);

}  // namespace opcts
