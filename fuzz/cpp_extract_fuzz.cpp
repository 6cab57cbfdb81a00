// C++ sources: the lexer on its own (with comment recording, which the enum
// extractor uses) and the extractor of enums, registrations and string lists.
#include "fuzz_input.h"
#include "onramp/ops/cpp_extract.h"
#include "onramp/ops/cpp_lexer.h"
#include "onramp/ops/rules.h"

ONRAMP_FUZZ_TARGET(cpp_extract) {
  std::string_view text = onramp::fuzz::as_text(data, size);
  onramp::ops::CppLexer lexer(text, "fuzz.h");
  lexer.record_comments(true);
  for (auto token = lexer.next(); token.kind != onramp::ops::CppTokenKind::end; token = lexer.next()) {
    (void)lexer.recorded_comment(token.line);
  }
  (void)onramp::ops::extract_cpp(text, "fuzz.h", onramp::ops::OpsRules::builtin());
  return 0;
}
