#pragma once
// For unit tests: tables of cases checked against one function, each case
// under a trace that names its input, so a failure says which case it was.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace onramp::testing {

// f(input) == expected for every {input, expected}.
template <class In, class Out, class F>
void expect_cases(const F& f, std::initializer_list<std::pair<In, Out>> cases) {
  for (const auto& [input, expected] : cases) {
    SCOPED_TRACE(::testing::PrintToString(input));
    EXPECT_EQ(f(input), expected);
  }
}

// f(first, second) == expected for every {{first, second}, expected}.
template <class Out, class F>
void expect_pair_cases(const F& f,
                       std::initializer_list<std::pair<std::pair<std::string, std::string>, Out>> cases) {
  auto both = [&f](const std::pair<std::string, std::string>& in) { return f(in.first, in.second); };
  expect_cases<std::pair<std::string, std::string>, Out>(both, cases);
}

// The common table: text in, text out.
template <class F>
void expect_text_cases(const F& f, std::initializer_list<std::pair<std::string, std::string>> cases) {
  expect_cases<std::string, std::string>(f, cases);
}

// pred (a bool, an optional, an expected) is false for each input.
template <class F>
void expect_none_hold(const F& pred, std::initializer_list<std::string> inputs) {
  for (const auto& input : inputs) {
    SCOPED_TRACE(::testing::PrintToString(input));
    EXPECT_FALSE(pred(input));
  }
}

// pred holds for each of `holds` and for none of `fails`.
template <class F>
void expect_holds(const F& pred, std::initializer_list<std::string> holds, std::initializer_list<std::string> fails) {
  for (const auto& input : holds) {
    SCOPED_TRACE(::testing::PrintToString(input));
    EXPECT_TRUE(pred(input));
  }
  expect_none_hold(pred, fails);
}

// `text` holds each of `present` and none of `absent`.
inline void expect_contains(std::string_view text, std::initializer_list<std::string_view> present,
                            std::initializer_list<std::string_view> absent = {}) {
  for (auto part : present) {
    SCOPED_TRACE(::testing::PrintToString(part));
    EXPECT_NE(text.find(part), std::string_view::npos) << text;
  }
  for (auto part : absent) {
    SCOPED_TRACE(::testing::PrintToString(part));
    EXPECT_EQ(text.find(part), std::string_view::npos) << text;
  }
}

}  // namespace onramp::testing
