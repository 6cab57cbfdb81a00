#include "onramp/ops/python_extract.h"

#include <gtest/gtest.h>

#include "onramp/ops/test_inventories.h"

namespace onramp::ops {
namespace python_extract_test {  // one per file: a unity batch joins several

using testing::named;

TEST(PythonLiterals, FrozensetListTupleSetAndDictKeys) {
  auto e = extract_python(R"(
# ops not yet registered; this list should be emptied
UNREGISTERED_OPS = frozenset([
    "aten::_coalesce",  # sparse
    'relu',
    "add" ".out",  # implicit concatenation
])
SKIPS: Tuple[str, ...] = ("a", "b",)
BOTH = {"x", r"y"}
COSTS = {"add": 1, "mul": [1, 2], 'sub': {"nested": 3}}
MIXED = ["a", 1, 2, 3]
def f():
    call("not", "assigned")
)", "native_functions_data.py");
  ASSERT_NE(named(e, "UNREGISTERED_OPS"), nullptr);
  EXPECT_EQ(testing::texts(*named(e, "UNREGISTERED_OPS")), (std::vector<std::string>{"aten::_coalesce", "relu", "add.out"}));
  EXPECT_EQ(named(e, "UNREGISTERED_OPS")->line, 3);
  EXPECT_EQ(named(e, "UNREGISTERED_OPS")->members[1].line, 5);
  ASSERT_NE(named(e, "SKIPS"), nullptr);
  EXPECT_EQ(testing::texts(*named(e, "SKIPS")), (std::vector<std::string>{"a", "b"}));
  ASSERT_NE(named(e, "BOTH"), nullptr);
  ASSERT_NE(named(e, "COSTS"), nullptr);
  EXPECT_EQ(testing::texts(*named(e, "COSTS")), (std::vector<std::string>{"add", "mul", "sub"}));
  EXPECT_EQ(named(e, "MIXED"), nullptr);  // mostly not strings
  EXPECT_TRUE(e.diagnostics.empty());
}

TEST(PythonLiterals, TripleQuotedStringsAndHashesInsideStrings) {
  auto e = extract_python("DOC = \"\"\"\nOPS = ['not', 'real']\n\"\"\"\nREAL = ['a#b', 'c']\n", "x.py");
  EXPECT_EQ(named(e, "OPS"), nullptr);
  ASSERT_NE(named(e, "REAL"), nullptr);
  EXPECT_EQ(testing::texts(*named(e, "REAL")), (std::vector<std::string>{"a#b", "c"}));
  EXPECT_EQ(named(e, "REAL")->line, 4);
}

TEST(PythonLiterals, UnterminatedListAndStringAreDiagnostics) {
  auto e = extract_python("X = [\n  'a',\n  'b\n", "bad.py");
  ASSERT_EQ(e.diagnostics.size(), 2u);
  EXPECT_EQ(e.diagnostics[0].line, 3);
  EXPECT_NE(e.diagnostics[0].problem.find("unterminated string"), std::string::npos);
  EXPECT_EQ(e.diagnostics[1].line, 1);
  EXPECT_NE(e.diagnostics[1].problem.find("unterminated ["), std::string::npos);
  auto t = extract_python("S = '''never closed\n", "bad2.py");
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_NE(t.diagnostics[0].problem.find("triple-quoted"), std::string::npos);
}

TEST(PythonLiterals, NonUtf8BytesAreKeptNotFatal) {
  auto e = extract_python("OPS = ['\xff\xfe', 'b']\n", "latin.py");
  ASSERT_NE(named(e, "OPS"), nullptr);
  EXPECT_EQ(named(e, "OPS")->members.size(), 2u);
}

}  // namespace
}  // namespace onramp::ops
