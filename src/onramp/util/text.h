#pragma once
// The small text helpers every layer uses: trimming, ASCII case, joining,
// and byte counts as a person reads them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onramp::util {

// The characters std::isspace accepts in the C locale.
inline constexpr std::string_view kWhitespace = " \t\n\v\f\r";

// `text` without the leading and trailing characters found in `chars`.
std::string_view trim(std::string_view text, std::string_view chars = kWhitespace);

// ASCII letters lowered; other bytes (UTF-8 included) unchanged.
std::string lowercase(std::string_view text);

// Equal but for the case of ASCII letters.
bool equal_ignoring_case(std::string_view a, std::string_view b);

// The items with `separator` between them.
std::string join(const std::vector<std::string>& items, std::string_view separator);

// Outside text (a parser's message, a file's line, a subprocess's output) made
// safe to quote inside a one-line message: every ASCII control character and
// DEL is written as an escape ("\n", "\t", "\r", else "\xNN"), so the
// message stays one line; other bytes, UTF-8 included, are kept.
std::string one_line(std::string_view text);

// `text` in at most `limit` bytes (at least 8): whole where it fits, else cut
// at the last whitespace or punctuation that keeps at least half of it (else
// at the last whole UTF-8 character) and ended with "…", never mid-word.
std::string shortened(std::string_view text, size_t limit);

enum class ByteUnit { B, KB, MB, GB, TB };

// A byte count in powers of 1000: "512 B", "1.5 KB", "2.3 GB" (the largest
// unit the count reaches, up to TB), or always in `unit` ("0.5 MB").
std::string human_bytes(double bytes, std::optional<ByteUnit> unit = std::nullopt);

}  // namespace onramp::util
