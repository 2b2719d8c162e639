// Escaping for the report formats: every name and message in a report comes from a journal,
// i.e. from a backend, and must show as text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The text with every byte that is not part of valid UTF-8 replaced by U+FFFD.
std::string ToValidUtf8(std::string_view text);

// For a terminal: a backend's message must not move the cursor, erase a line or forge a status
// line. Removes escape sequences (CSI "ESC [ ... final byte"; OSC, DCS, SOS, PM and APC strings
// up to BEL or ESC \; any other "ESC x"), turns every other control character (newline and tab
// included, DEL, and the C1 controls U+0080-U+009F) into a space and invalid UTF-8 into U+FFFD.
// Valid UTF-8 text is left as it is.
std::string TerminalSafe(std::string_view text);

// A short fixed-width number for tables ("1.2e-06"); "-" when absent.
std::string FormatNumber(const std::optional<double>& value);

// "97.3 % (1234/1268)": rounded down, so 100.0 % means every case.
std::string FormatPassRate(uint64_t passing, uint64_t cases);

// "2_1, 4_0, 5_0"; "-" for none.
std::string JoinList(const std::vector<std::string>& items);

}  // namespace opcts
