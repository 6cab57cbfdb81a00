#include "onramp/ops/cpp_extract.h"

#include <deque>
#include <optional>
#include <set>

#include "onramp/ops/cpp_lexer.h"

namespace onramp::ops {
namespace {

bool is(const CppToken& t, std::string_view text) {
  return (t.kind == CppTokenKind::punct || t.kind == CppTokenKind::identifier) && t.text == text;
}

// A brace-enclosed region being read as a possible list of string literals.
struct BraceFrame {
  int line = 0;
  std::string name;
  bool statements = false;     // saw `;`: a code block, not a list
  int registration = -1;       // index of the registration inventory it opens
  std::vector<Member> strings;  // elements that are string literals (or {"key", ...})
  int others = 0;               // elements that are anything else
  int elements = 0;
  bool first_is_string = false;
  std::string element;          // the current element's string (adjacent literals joined)
  int element_line = 0;
  bool element_string = false, element_other = false;
  std::optional<Member> element_key;  // first string of a nested {"key", value}
};

class CppExtractor {
 public:
  CppExtractor(std::string_view text, const std::string& path, const OpsRules& rules)
      : lexer_(text, path), rules_(rules) {}

  Extraction run();

 private:
  const CppToken& peek(size_t ahead = 0) {
    while (buffer_.size() <= ahead) buffer_.push_back(lexer_.next());
    return buffer_[ahead];
  }
  CppToken take() {
    CppToken t = peek();
    buffer_.pop_front();
    return t;
  }
  void remember(const CppToken& t) {
    history_.push_back(t);
    if (history_.size() > 8) history_.pop_front();
  }
  void skip_balanced(std::string_view open, std::string_view close);
  void skip_attributes();
  void parse_enum(int line);
  void parse_enum_members(RawInventory& inv, int open_line);
  void parse_registration_header();
  void open_frame(const CppToken& t);
  void close_frame();
  void finish_element(BraceFrame& f);
  void on_registration_call(const CppToken& t);
  std::string name_before_brace() const;

  CppLexer lexer_;
  const OpsRules& rules_;
  std::deque<CppToken> buffer_;
  std::deque<CppToken> history_;  // the last significant tokens, for naming lists
  std::vector<BraceFrame> frames_;
  std::optional<RawInventory> pending_registration_;
  int active_registration_frame_ = -1;
  Extraction out_;
};

void CppExtractor::skip_balanced(std::string_view open, std::string_view close) {
  int depth = 0;
  for (CppToken t = peek(); t.kind != CppTokenKind::end; t = peek()) {
    take();
    if (is(t, open)) ++depth;
    if (is(t, close) && --depth <= 0) return;
  }
}

void CppExtractor::skip_attributes() {
  for (;;) {
    if (is(peek(), "[") && is(peek(1), "[")) {
      skip_balanced("[", "]");
    } else if (is(peek(), "__attribute__") || is(peek(), "alignas") || is(peek(), "__declspec") ||
               is(peek(), "C10_DEPRECATED_MESSAGE")) {
      take();
      skip_balanced("(", ")");
    } else {
      return;
    }
  }
}

void CppExtractor::parse_enum(int line) {
  lexer_.record_comments(true);
  if (is(peek(), "class") || is(peek(), "struct")) take();
  skip_attributes();
  RawInventory inv{lexer_.path(), line, InventoryKind::cpp_enum, "(anonymous enum)", "", {}};
  if (peek().kind == CppTokenKind::identifier) inv.name = std::string(take().text);
  while (is(peek(), "::") && peek(1).kind == CppTokenKind::identifier) take(), inv.name = std::string(take().text);
  if (is(peek(), ":")) {
    while (peek().kind != CppTokenKind::end && !is(peek(), "{") && !is(peek(), ";")) take();
  }
  if (!is(peek(), "{")) {
    lexer_.record_comments(false);
    return;  // a declaration, or `enum X var;`
  }
  int open_line = take().line;
  parse_enum_members(inv, open_line);
  lexer_.record_comments(false);
}

void CppExtractor::parse_enum_members(RawInventory& inv, int open_line) {
  std::set<std::string, std::less<>> seen;
  for (;;) {
    CppToken t = take();
    if (t.kind == CppTokenKind::end) {
      out_.diagnostics.push_back({inv.path, open_line, "unterminated enum " + inv.name + " (no closing brace)"});
      return;
    }
    if (is(t, "}")) break;
    if (t.kind != CppTokenKind::identifier) continue;
    skip_attributes();
    if (is(peek(), "(")) {
      out_.diagnostics.push_back({inv.path, t.line,
                                  "macro " + std::string(t.text) + "(...) inside enum " + inv.name +
                                      ": the members it expands to are not counted"});
      skip_balanced("(", ")");
      continue;
    }
    Member m{std::string(t.text), t.line, ""};
    if (is(peek(), "=")) {
      take();
      std::vector<CppToken> value;
      int depth = 0;
      while (peek().kind != CppTokenKind::end && !(depth == 0 && (is(peek(), ",") || is(peek(), "}")))) {
        CppToken v = take();
        depth += is(v, "(") - is(v, ")");
        value.push_back(v);
      }
      if (value.size() == 1 && value[0].kind == CppTokenKind::identifier && seen.contains(value[0].text)) {
        m.sentinel = "alias of " + std::string(value[0].text);
      }
    }
    seen.insert(m.text);
    inv.members.push_back(std::move(m));
  }
  for (auto& m : inv.members) {
    if (!m.sentinel.empty()) continue;
    std::string_view comment = lexer_.recorded_comment(m.line);
    if (comment.empty()) comment = lexer_.recorded_comment(m.line - 1);
    m.sentinel = rules_.sentinel_reason(m.text, comment);
  }
  out_.inventories.push_back(std::move(inv));
}

// TORCH_LIBRARY_IMPL(ns, KEY, m) followed by the block that registers.
void CppExtractor::parse_registration_header() {
  int line = peek().line;
  if (!is(peek(), "(")) return;
  take();
  std::vector<std::string> args;
  std::string current;
  while (peek().kind != CppTokenKind::end && !is(peek(), ")")) {
    CppToken t = take();
    if (is(t, ",")) {
      args.push_back(current), current.clear();
    } else {
      current += t.text;
    }
  }
  args.push_back(current);
  if (is(peek(), ")")) take();
  if (args.size() < 2) return;
  RawInventory inv{lexer_.path(), line, InventoryKind::cpp_registration, args[0] + "/" + args[1], args[1], {}};
  pending_registration_ = std::move(inv);
}

void CppExtractor::on_registration_call(const CppToken& t) {
  auto& inv = out_.inventories[static_cast<size_t>(frames_[static_cast<size_t>(active_registration_frame_)].registration)];
  if (t.text == "fallback") {
    if (inv.name.starts_with("_/")) out_.fallbacks.push_back({inv.path, t.line, inv.dispatch_key});
    return;
  }
  // impl("op.overload", ...) or impl(TORCH_SELECTIVE_NAME("aten::op"), ...)
  size_t at = 1;
  if (peek(at).kind == CppTokenKind::identifier && peek(at).text.starts_with("TORCH_SELECTIVE") && is(peek(at + 1), "(")) at += 2;
  if (peek(at).kind == CppTokenKind::string) inv.members.push_back({std::string(peek(at).text), peek(at).line, ""});
}

std::string CppExtractor::name_before_brace() const {
  if (history_.empty()) return {};
  size_t i = history_.size() - 1;
  if (is(history_[i], "=")) {
    while (i > 0 && (is(history_[i], "=") || is(history_[i], "]") || is(history_[i], "[") ||
                     history_[i].kind == CppTokenKind::number)) --i;
  }
  const CppToken& t = history_[i];
  static const std::set<std::string_view> not_names{"const", "else", "do", "try", "override", "final",
                                                     "noexcept", "mutable", "return", "namespace"};
  if (t.kind == CppTokenKind::identifier && !not_names.contains(t.text)) return std::string(t.text);
  return {};
}

void CppExtractor::open_frame(const CppToken& t) {
  BraceFrame f;
  f.line = t.line;
  f.name = name_before_brace();
  if (pending_registration_) {
    f.registration = static_cast<int>(out_.inventories.size());
    out_.inventories.push_back(std::move(*pending_registration_));
    pending_registration_.reset();
    active_registration_frame_ = static_cast<int>(frames_.size());
  }
  frames_.push_back(std::move(f));
}

void CppExtractor::finish_element(BraceFrame& f) {
  bool any = f.element_other || f.element_string || f.element_key;
  bool string_element = true;
  if (f.element_string && !f.element_other) {
    f.strings.push_back({f.element, f.element_line, ""});
  } else if (f.element_key && !f.element_string && !f.element_other) {
    f.strings.push_back(*f.element_key);
  } else {
    string_element = false;
    f.others += any;
  }
  if (any && f.elements++ == 0) f.first_is_string = string_element;
  f.element.clear();
  f.element_string = f.element_other = false;
  f.element_key.reset();
}

void CppExtractor::close_frame() {
  BraceFrame f = std::move(frames_.back());
  frames_.pop_back();
  finish_element(f);
  if (static_cast<int>(frames_.size()) == active_registration_frame_) active_registration_frame_ = -1;
  if (!frames_.empty()) {
    auto& parent = frames_.back();
    if (f.first_is_string && !f.statements && !parent.element_string && !parent.element_key) {
      parent.element_key = f.strings.front();
    } else {
      parent.element_other = true;
    }
  }
  if (f.registration >= 0 || f.statements || f.strings.empty()) return;
  if (f.strings.size() < static_cast<size_t>(f.others)) return;
  out_.inventories.push_back({lexer_.path(), f.line, InventoryKind::cpp_string_list,
                              f.name.empty() ? "(unnamed list)" : f.name, "", std::move(f.strings)});
}

Extraction CppExtractor::run() {
  for (CppToken t = take(); t.kind != CppTokenKind::end; t = take()) {
    if (t.kind == CppTokenKind::identifier && t.text == "enum") {
      parse_enum(t.line);
    } else if (t.kind == CppTokenKind::identifier && t.text == "TORCH_LIBRARY_IMPL") {
      parse_registration_header();
    } else if (is(t, "{")) {
      open_frame(t);
    } else if (is(t, "}")) {
      if (!frames_.empty()) close_frame();
      pending_registration_.reset();
    } else if (!frames_.empty()) {
      BraceFrame& f = frames_.back();
      if (is(t, ",")) {
        finish_element(f);
      } else if (is(t, ";")) {
        f.statements = true;
        pending_registration_.reset();
      } else if (t.kind == CppTokenKind::string && !f.element_other) {
        if (!f.element_string) f.element_line = t.line;
        f.element += t.text;
        f.element_string = true;
      } else {
        f.element_other = true;
      }
      if (active_registration_frame_ >= 0 && t.kind == CppTokenKind::identifier &&
          (t.text == "impl" || t.text == "fallback") && is(peek(), "(") && history_.size() > 0 &&
          (is(history_.back(), ".") || is(history_.back(), ">"))) {
        on_registration_call(t);
      }
    } else if (is(t, ";")) {
      pending_registration_.reset();
    }
    remember(t);
  }
  if (!frames_.empty()) {
    out_.diagnostics.push_back({lexer_.path(), frames_.front().line, "unterminated { (never closed before the end of the file)"});
  }
  out_.diagnostics.insert(out_.diagnostics.end(), lexer_.diagnostics().begin(), lexer_.diagnostics().end());
  return std::move(out_);
}

}  // namespace

Extraction extract_cpp(std::string_view text, const std::string& path, const OpsRules& rules) {
  return CppExtractor(text, path, rules).run();
}

}  // namespace onramp::ops
