#include "onramp/ops/cpp_extract.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <utility>

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
  std::string defines_ns;      // TORCH_LIBRARY(ns, m) / _FRAGMENT: the namespace whose ops it defines
  bool is_namespace = false;
  std::vector<Member> strings;  // elements that are string literals (or {"key", ...})
  int others = 0;               // elements that are anything else
  int elements = 0;
  bool first_is_string = false;
  std::string element;          // the current element's string (adjacent literals joined)
  int element_line = 0;
  int element_condition = 0;
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
  void on_definition_call(const CppToken& t, const std::string& ns);
  void maybe_macro_use(const CppToken& t);
  void maybe_constexpr_alias(const CppToken& t);
  bool at_file_scope() const;
  void read_defines();
  std::string name_before_brace() const;

  CppLexer lexer_;
  const OpsRules& rules_;
  std::deque<CppToken> buffer_;
  std::deque<CppToken> history_;  // the last significant tokens, for naming lists
  std::vector<BraceFrame> frames_;
  std::optional<RawInventory> pending_registration_;
  std::string pending_library_;  // TORCH_LIBRARY(ns, m) seen, its block not yet open
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
    Member m{std::string(t.text), t.line, "", "", lexer_.condition_text(t.condition), ""};
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

// The arguments of a macro call at peek(): `(a, b, c)`, each as its tokens
// joined; stops after at most 256 tokens. `used` gets the tokens read.
std::vector<std::string> call_args(const std::function<const CppToken&(size_t)>& at, size_t& used) {
  std::vector<std::string> args;
  std::string current;
  int depth = 0;
  for (size_t i = 0; i < 256; ++i) {
    const CppToken& t = at(i);
    if (t.kind == CppTokenKind::end) break;
    if (is(t, "(") && depth++ == 0) continue;
    if (is(t, ")") && --depth == 0) {
      args.push_back(current);
      used = i + 1;
      return args;
    }
    if (depth == 1 && is(t, ",")) {
      args.push_back(std::exchange(current, {}));
    } else if (t.kind == CppTokenKind::string) {
      current += "\"" + std::string(t.text) + "\"";
    } else {
      current += t.text;
    }
  }
  used = 0;
  return {};
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
  inv.ns = args[0];
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
  const CppToken& name = peek(at);
  if (name.kind == CppTokenKind::string) {
    inv.members.push_back({std::string(name.text), name.line, "", "", lexer_.condition_text(name.condition), ""});
  } else {
    ++inv.macro_names;  // m.impl(name, ...): a name built elsewhere
  }
}

void CppExtractor::on_definition_call(const CppToken& t, const std::string& ns) {
  if (peek(1).kind == CppTokenKind::string) out_.custom_ops.push_back({ns, std::string(peek(1).text), lexer_.path(), t.line});
}

bool CppExtractor::at_file_scope() const {
  return std::all_of(frames_.begin(), frames_.end(), [](const BraceFrame& f) { return f.is_namespace; });
}

bool all_capitals(std::string_view name) {
  bool letter = false;
  for (char c : name) {
    if (std::isupper(static_cast<unsigned char>(c))) letter = true;
    else if (c != '_' && !std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return letter && name.size() >= 3;
}

// REGISTER_OP(add); at file scope or directly in a registration block: kept,
// so that discovery can expand it with the macro's #define from any file.
void CppExtractor::maybe_macro_use(const CppToken& t) {
  if (t.kind != CppTokenKind::identifier || !all_capitals(t.text) || !is(peek(), "(")) return;
  bool in_block = active_registration_frame_ >= 0 && frames_.back().registration >= 0 &&
                  static_cast<int>(frames_.size()) == active_registration_frame_ + 1;
  if (!in_block && !at_file_scope()) return;
  // A statement starts after ; { } or, at file scope, after another macro use without its ;.
  bool starts = history_.empty() || is(history_.back(), ";") || is(history_.back(), "{") || is(history_.back(), "}") ||
                (!in_block && is(history_.back(), ")"));
  if (!starts) return;
  if (t.text.starts_with("TORCH_LIBRARY") || t.text.starts_with("C10_")) return;
  size_t used = 0;
  auto args = call_args([this](size_t i) -> const CppToken& { return peek(i); }, used);
  if (used == 0) return;
  int block_line = in_block ? out_.inventories[static_cast<size_t>(frames_.back().registration)].line : 0;
  out_.macro_uses.push_back({std::string(t.text), std::move(args), lexer_.path(), t.line, block_line,
                             lexer_.condition_text(t.condition)});
}

// constexpr auto kTPU = c10::DispatchKey::PrivateUse1;  (also DispatchKey kTPU = ...)
void CppExtractor::maybe_constexpr_alias(const CppToken& t) {
  if (!is(t, "constexpr")) return;
  size_t i = 0;
  while (i < 8 && !is(peek(i), "=") && !is(peek(i), ";") && peek(i).kind != CppTokenKind::end) ++i;
  if (i == 0 || i == 8 || !is(peek(i), "=") || peek(i - 1).kind != CppTokenKind::identifier) return;
  std::string name(peek(i - 1).text);
  size_t k = i + 1;
  if (is(peek(k), "c10") && is(peek(k + 1), "::")) k += 2;
  if (!is(peek(k), "DispatchKey") || !is(peek(k + 1), "::") || peek(k + 2).kind != CppTokenKind::identifier ||
      !is(peek(k + 3), ";")) return;
  out_.aliases.push_back({name, std::string(peek(k + 2).text), lexer_.path(), t.line});
}

// `#define TPU PrivateUse1` gives an alias; a function-like #define whose body
// calls impl("..." #PARAM ...) gives a registering macro.
void CppExtractor::read_defines() {
  for (const auto& d : lexer_.defines()) {
    if (!d.function_like) {
      std::string_view body = d.body;
      if (body.starts_with("c10::")) body.remove_prefix(5);
      if (body.starts_with("DispatchKey::")) body.remove_prefix(13);
      bool identifier = !body.empty() && std::all_of(body.begin(), body.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      }) && !std::isdigit(static_cast<unsigned char>(body.front()));
      if (identifier && body != d.name) out_.aliases.push_back({std::string(d.name), std::string(body), lexer_.path(), d.line});
      continue;
    }
    if (d.body.find("impl") == std::string_view::npos) continue;
    RegisteringMacro m{std::string(d.name), lexer_.path(), d.line, {}, {}, 0, "", ""};
    for (auto p : d.params) m.params.emplace_back(p);
    CppLexer body(d.body, lexer_.path());
    std::vector<CppToken> tokens;
    for (CppToken t = body.next(); t.kind != CppTokenKind::end && tokens.size() < 100000; t = body.next()) tokens.push_back(t);
    static const CppToken end_token{};
    auto at = [&](size_t i) -> const CppToken& { return i < tokens.size() ? tokens[i] : end_token; };
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (is(tokens[i], "TORCH_LIBRARY_IMPL")) {
        size_t used = 0;
        auto args = call_args([&](size_t k) -> const CppToken& { return at(i + 1 + k); }, used);
        if (args.size() >= 2) m.ns = args[0], m.dispatch_key = args[1];
      }
      if (!is(tokens[i], "impl") || i == 0 || !(is(tokens[i - 1], ".") || is(tokens[i - 1], ">")) || !is(at(i + 1), "(")) continue;
      std::vector<std::string> pieces;
      bool readable = true;
      size_t k = i + 2;
      for (; at(k).kind != CppTokenKind::end && !is(at(k), ",") && !is(at(k), ")"); ++k) {
        if (at(k).kind == CppTokenKind::string) {
          pieces.emplace_back(at(k).text);
        } else if (is(at(k), "#") && at(k + 1).kind == CppTokenKind::identifier) {
          pieces.push_back("#" + std::string(at(++k).text));
        } else {
          readable = false;
        }
      }
      if (readable && !pieces.empty()) m.templates.push_back(std::move(pieces));
      else ++m.unreadable;
    }
    if (!m.templates.empty() || m.unreadable > 0) out_.macros.push_back(std::move(m));
  }
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
  for (size_t i = history_.size(); i-- > 0 && history_.size() - i <= 6;) {
    if (is(history_[i], "namespace")) f.is_namespace = true;
    if (!(history_[i].kind == CppTokenKind::identifier || is(history_[i], "::"))) break;
  }
  if (!pending_library_.empty()) {
    f.defines_ns = std::exchange(pending_library_, {});
    active_registration_frame_ = static_cast<int>(frames_.size());
  }
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
    f.strings.push_back({f.element, f.element_line, "", "", lexer_.condition_text(f.element_condition), ""});
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
    } else if (t.kind == CppTokenKind::identifier && (t.text == "TORCH_LIBRARY" || t.text == "TORCH_LIBRARY_FRAGMENT")) {
      size_t used = 0;
      auto args = call_args([this](size_t i) -> const CppToken& { return peek(i); }, used);
      for (size_t i = 0; i < used; ++i) take();
      if (!args.empty()) pending_library_ = args[0];
    } else if (is(t, "{")) {
      open_frame(t);
    } else if (is(t, "}")) {
      if (!frames_.empty()) close_frame();
      pending_registration_.reset();
      pending_library_.clear();
    } else if (!frames_.empty()) {
      BraceFrame& f = frames_.back();
      if (is(t, ",")) {
        finish_element(f);
      } else if (is(t, ";")) {
        f.statements = true;
        pending_registration_.reset();
      } else if (t.kind == CppTokenKind::string && !f.element_other) {
        if (!f.element_string) f.element_line = t.line, f.element_condition = t.condition;
        f.element += t.text;
        f.element_string = true;
      } else {
        f.element_other = true;
      }
      bool called = t.kind == CppTokenKind::identifier && is(peek(), "(") && !history_.empty() &&
                    (is(history_.back(), ".") || is(history_.back(), ">"));
      if (active_registration_frame_ >= 0 && called) {
        const BraceFrame& block = frames_[static_cast<size_t>(active_registration_frame_)];
        if (!block.defines_ns.empty() && t.text == "def") on_definition_call(t, block.defines_ns);
        if (block.registration >= 0 && (t.text == "impl" || t.text == "fallback")) on_registration_call(t);
      }
    } else if (is(t, ";")) {
      pending_registration_.reset();
      pending_library_.clear();
    }
    maybe_macro_use(t);
    maybe_constexpr_alias(t);
    remember(t);
  }
  if (!frames_.empty()) {
    out_.diagnostics.push_back({lexer_.path(), frames_.front().line, "unterminated { (never closed before the end of the file)"});
  }
  read_defines();
  out_.diagnostics.insert(out_.diagnostics.end(), lexer_.diagnostics().begin(), lexer_.diagnostics().end());
  return std::move(out_);
}

}  // namespace

Extraction extract_cpp(std::string_view text, const std::string& path, const OpsRules& rules) {
  return CppExtractor(text, path, rules).run();
}

}  // namespace onramp::ops
