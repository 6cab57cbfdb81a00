#include "onramp/packaging/pep440.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>

namespace onramp::wheel {
namespace pep440_test {  // one per file: a unity batch joins several

Pep440Version v(const char* text) {
  auto parsed = Pep440Version::parse(text);
  EXPECT_TRUE(parsed) << text;
  return *parsed;
}

bool in(const char* spec, const char* version, std::optional<bool> pre = {}) {
  auto set = SpecifierSet::parse(spec);
  EXPECT_TRUE(set) << spec;
  return set->contains(v(version), pre);
}

// Whether a specifier set contains a version, allowing pre-releases as `pre` says.
struct Match {
  const char* spec;
  const char* version;
  bool contains;
  std::optional<bool> pre = {};
};

void expect_matches(std::initializer_list<Match> cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.spec) + " contains " + c.version);
    EXPECT_EQ(in(c.spec, c.version, c.pre), c.contains);
  }
}

// PEP 440, "Summary of permitted suffixes and relative ordering", and the
// epoch examples of "Version epochs": each sorts strictly before the next.
TEST(Pep440Version, OrdersThePepsExamples) {
  const char* ordered[] = {"1.dev0",        "1.0.dev456",       "1.0a1",         "1.0a2.dev456",
                           "1.0a12.dev456", "1.0a12",           "1.0b1.dev456",  "1.0b2",
                           "1.0b2.post345.dev456", "1.0b2.post345", "1.0rc1.dev456", "1.0rc1",
                           "1.0",           "1.0+abc.5",        "1.0+abc.7",     "1.0+5",
                           "1.0.post456.dev34", "1.0.post456",  "1.0.15",        "1.1.dev1",
                           "2013.10",       "2014.04",          "1!1.0",         "1!1.1",
                           "1!2.0"};
  for (size_t i = 0; i + 1 < std::size(ordered); ++i) {
    EXPECT_LT(v(ordered[i]), v(ordered[i + 1])) << ordered[i] << " < " << ordered[i + 1];
    EXPECT_GT(v(ordered[i + 1]), v(ordered[i])) << ordered[i + 1] << " > " << ordered[i];
  }
}

TEST(Pep440Version, AVersionOfMegabytesIsRefusedNotRecursedInto) {
  std::string huge = "1";
  for (int i = 0; i < 200000; ++i) huge += ".1";
  auto v = Pep440Version::parse(huge);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().message, "'" + huge.substr(0, 40) + "...' is not a PEP 440 version (longer than 256 characters)");
  EXPECT_FALSE(SpecifierSet::parse(">=" + huge));
}

TEST(Pep440Version, TrailingZerosDoNotCount) {
  EXPECT_EQ(v("1.0"), v("1.0.0"));
  EXPECT_EQ(v("1"), v("1.0.0.0"));
  EXPECT_LT(v("1.0"), v("1.0.0.1"));
}

TEST(Pep440Version, NormalizesAlternativeSpellings) {
  const std::pair<const char*, const char*> cases[] = {
      {"1.0RC1", "1.0rc1"},       {"1.1c3", "1.1rc3"},           {"1.0-alpha.1", "1.0a1"},
      {"1.0.beta2", "1.0b2"},     {"1.0-preview-3", "1.0rc3"},   {"1.0a", "1.0a0"},
      {"1.0-1", "1.0.post1"},     {"1.0.post", "1.0.post0"},     {"1.0.rev4", "1.0.post4"},
      {"1.0-r5", "1.0.post5"},    {"1.0-dev", "1.0.dev0"},       {"1.0_dev2", "1.0.dev2"},
      {"v1.0", "1.0"},            {"V2.14.1+CPU", "2.14.1+cpu"}, {"1.0+ubuntu-1", "1.0+ubuntu.1"},
      {"1.0+ubuntu_1", "1.0+ubuntu.1"}, {"0!1.0", "1.0"},        {"1!1.0", "1!1.0"},
      {"007.01", "7.1"},          {" 1.0 ", "1.0"},              {"1.0+abc.007", "1.0+abc.7"},
  };
  for (const auto& [in_text, want] : cases) EXPECT_EQ(v(in_text).normalized(), want) << in_text;
}

TEST(Pep440Version, RefusesWhatIsNotAVersion) {
  for (const char* bad : {"", "french toast", "1.0+", "1..0", "1.0-", "1.0+abc..1", "1.0 a1 b",
                          "1.0.x", "99999999999999999999999"}) {
    EXPECT_FALSE(Pep440Version::parse(bad)) << bad;
  }
}

TEST(Pep440Version, ClassifiesReleases) {
  EXPECT_TRUE(v("1.0a1").is_prerelease());
  EXPECT_TRUE(v("1.0.dev1").is_prerelease());
  EXPECT_FALSE(v("1.0.post1").is_prerelease());
  EXPECT_TRUE(v("1.0.post1").is_postrelease());
  EXPECT_EQ(v("1!2.0rc1.post2+x").base_version(), "1!2.0");
  EXPECT_EQ(v("1!2.0rc1.post2+x").public_version(), "1!2.0rc1.post2");
}

// PEP 440, "Compatible release": each ~= clause and its expansion.
TEST(Specifier, CompatibleReleaseMatchesItsExpansion) {
  const std::pair<const char*, const char*> expansions[] = {
      {"~=2.2", ">=2.2,==2.*"},           {"~=1.4.5", ">=1.4.5,==1.4.*"},
      {"~=2.2.post3", ">=2.2.post3,==2.*"}, {"~=1.4.5a4", ">=1.4.5a4,==1.4.*"},
      {"~=2.2.0", ">=2.2.0,==2.2.*"},     {"~=1.4.5.0", ">=1.4.5.0,==1.4.5.*"}};
  const char* versions[] = {"1.4.4", "1.4.5a4", "1.4.5", "1.4.5.0", "1.4.5.1", "1.4.9", "1.5",
                            "2.1",   "2.2",     "2.2.post3", "2.2.1", "2.9", "3.0", "2.2.0.1"};
  for (const auto& [compat, expanded] : expansions) {
    for (const char* version : versions) {
      EXPECT_EQ(in(compat, version, true), in(expanded, version, true)) << compat << " vs " << version;
    }
  }
  expect_matches({{"~=2.2", "2.3", true}, {"~=2.2", "3.0", false}, {"~=1.4.5", "1.5.0", false}});
  EXPECT_FALSE(Specifier::parse("~=1"));
}

// PEP 440, "Version matching": the examples for 1.1.post1 and zero padding.
TEST(Specifier, VersionMatchingFollowsThePep) {
  expect_matches({{"==1.1", "1.1.post1", false}, {"==1.1.post1", "1.1.post1", true}, {"==1.1.*", "1.1.post1", true},
                 {"==1.1", "1.1.0", true}, {"==1.1.0", "1.1", true}, {"==1.1", "1.1.dev1", false, true},
                 {"==1.1.dev1", "1.1.dev1", true}, {"==1.1.*", "1.1.dev1", true, true}, {"==1.*", "1.9.3", true},
                 {"==1.*", "2.0", false}, {"==1.*", "1", true}, {"==2.0.*", "2", true}, {"==1!1.*", "1.1", false}});
  EXPECT_FALSE(Specifier::parse(">=1.*"));
  EXPECT_FALSE(Specifier::parse("==1.0a1.*"));
}

TEST(Specifier, LocalVersionsMatchOnlyWhenNamed) {
  expect_matches({{"==2.14.1", "2.14.1+cpu", true}, {"==2.14.1+cpu", "2.14.1+cpu", true},
                 {"==2.14.1+cpu", "2.14.1", false}, {"==2.14.1+cpu", "2.14.1+cu121", false},
                 {">=2.11,<=2.15", "2.14.1+cpu", true}, {"<=2.15", "2.15+cpu", true}});
  EXPECT_FALSE(Specifier::parse(">=1.0+local"));
}

// PEP 440, "Version exclusion".
TEST(Specifier, ExclusionIsTheOppositeOfMatching) {
  expect_matches({{"!=1.1", "1.1.post1", true}, {"!=1.1.post1", "1.1.post1", false}, {"!=1.1.*", "1.1.post1", false},
                 {"!=1.1.*", "1.2", true}});
}

// PEP 440, "Exclusive ordered comparison".
TEST(Specifier, ExclusiveComparisonsFollowThePep) {
  expect_matches({{">1.7", "1.7.1", true}, {">1.7", "1.7.0.post1", false}, {">1.7", "1.7", false},
                 {">1.7", "1.7+local", false}, {">1.7.post2", "1.7.1", true}, {">1.7.post2", "1.7.0.post3", true},
                 {">1.7.post2", "1.7.0", false}, {"<1.7", "1.7.0rc1", false, true}, {"<1.7", "1.6.9rc1", true, true},
                 {"<1.7rc1", "1.7.0a1", true, true},
                 // < and > never opt in to pre-releases
                 {"<1.7rc1", "1.7.0a1", false}, {"<1.7", "1.6", true}, {"<1.7", "1.7", false}});
}

TEST(Specifier, InclusiveComparisons) {
  expect_matches({{">=3.12", "3.12.0", true}, {">=3.12", "3.11.2", false}, {"<=2.15", "2.15.0", true},
                 {"<=2.15", "2.15.1", false}, {">=1!0.5", "1!1.0", true}, {">=1!0.5", "2.0", false}});
}

// PEP 440, "Arbitrary equality": a plain, case-insensitive string comparison.
TEST(Specifier, ArbitraryEqualityComparesStrings) {
  auto set = SpecifierSet::parse("===foobar");
  ASSERT_TRUE(set);
  EXPECT_TRUE(set->contains_text("foobar"));
  EXPECT_TRUE(set->contains_text("FooBar"));
  EXPECT_FALSE(set->contains_text("foobaz"));
  expect_matches({{"===1.0", "1.0.0", false}, {"===1.0", "1.0", true}});
}

// PEP 440, "Handling of pre-releases": excluded unless asked for or named.
TEST(SpecifierSet, PreReleasesNeedToBeNamedOrAllowed) {
  expect_matches({{">=1.0", "2.0a1", false}, {">=1.0", "2.0a1", true, true}, {">=1.0a1", "2.0a1", true},
                 {">=1.0,<3.0.dev0", "2.0b1", false}, {">=1.0,<=3.0.dev0", "2.0b1", true}, {">=1.0", "2.0.dev1", false},
                 {">=1.0", "2.0.post1", true}});
}

TEST(SpecifierSet, ParsesListsAndRefusesNonsense) {
  auto set = SpecifierSet::parse(" >= 2.11 , <=2.15 ");
  ASSERT_TRUE(set);
  EXPECT_EQ(set->specifiers().size(), 2u);
  EXPECT_EQ(set->to_string(), "<=2.15,>=2.11");
  EXPECT_TRUE(SpecifierSet::parse("")->contains(v("0.0.1")));
  EXPECT_FALSE(SpecifierSet::parse("2.0"));
  EXPECT_FALSE(SpecifierSet::parse(">=two"));
  EXPECT_FALSE(SpecifierSet::parse(">="));
}

}  // namespace
}  // namespace onramp::wheel
