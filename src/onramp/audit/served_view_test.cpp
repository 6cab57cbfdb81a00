#include "onramp/audit/served_view.h"

#include <gtest/gtest.h>

namespace onramp::audit {
namespace served_view_test {  // one per file: a unity batch joins several

using probe::Route;

const report::Figure& fig(const report::Section& s, const std::string& key) {
  for (const auto& f : s.figures) {
    if (f.key == key) return f;
  }
  static report::Figure none;
  ADD_FAILURE() << "no figure " << key;
  return none;
}

ServedViewInput input() {
  return {{{"add.Tensor", "csrc/ops.cpp:3"}, {"relu", "csrc/ops.cpp:4"}, {"gone", "csrc/ops.cpp:5"}},
          {{"relu.out", "list.py UNREGISTERED"}, {"lt.Scalar_out", "list.py UNREGISTERED"},
           {"embedding", "list.py UNREGISTERED"}, {"no_such_op", "list.py UNREGISTERED"},
           {"relu", "list.py UNREGISTERED"}},
          "the ops section (ops report of tree)",
          "the torchgen of python"};
}

probe::AskedRoutes asked() {
  probe::AskedRoutes a;
  a.facts.measured = true;
  a.command = "python scripts/api_probe.py results/routes.jsonl m '' --routes routes-ops.txt";
  a.routes = {{"add.Tensor", {Route::own_kernel, "csrc/ops.cpp:3", "", ""}},
              {"relu", {Route::own_kernel, "csrc/ops.cpp:4", "", ""}},
              {"gone", {Route::composite_implicit, "t/Composite.cpp:1", "", ""}},
              {"relu.out", {Route::composite_explicit, "t/CompositeExplicit.cpp:7", "", ""}},
              {"lt.Scalar_out", {Route::missing, "", "", "no PrivateUse1 kernel"}},
              {"embedding", {Route::composite_implicit, "t/Composite.cpp:2", "", ""}},
              {"no_such_op", {Route::unknown_op, "", "", ""}}};
  return a;
}

TEST(ServedView, AsksEveryOpOfBothListsOnce) {
  EXPECT_EQ(served_view_ops(input()), (std::vector<std::string>{"add.Tensor", "embedding", "gone", "lt.Scalar_out",
                                                                "no_such_op", "relu", "relu.out"}));
}

TEST(ServedView, CountsEachListByRouteAndTheCountsAddUp) {
  auto s = served_view_section(input(), asked());
  EXPECT_EQ(s.key, "routes");
  EXPECT_EQ(fig(s, "served_view_ops").value, 7);
  EXPECT_EQ(fig(s, "source_registered_ops").value, 3);
  EXPECT_EQ(fig(s, "source_registered_own_kernel").value, 2);
  EXPECT_EQ(fig(s, "source_registered_served_otherwise").value, 1);
  EXPECT_EQ(fig(s, "source_registered_missing").value, 0);
  EXPECT_EQ(fig(s, "listed_unregistered_ops").value, 5);
  EXPECT_EQ(fig(s, "listed_unregistered_served").value, 3);  // relu (its own kernel: a stale entry), relu.out, embedding
  EXPECT_EQ(fig(s, "listed_unregistered_missing").value, 1);
  EXPECT_EQ(fig(s, "listed_unregistered_unknown_op").value, 1);
  for (const auto& f : s.figures) {
    EXPECT_FALSE(f.method.empty()) << f.key;
    EXPECT_NE(f.evidence.find("--routes"), std::string::npos) << f.key;
    EXPECT_NE(f.evidence.find("the torchgen of python"), std::string::npos) << f.key;
  }
  const report::Table* by_route = s.table("served_view");
  ASSERT_TRUE(by_route);
  long src = 0, listed = 0;
  for (const auto& row : by_route->rows) {
    src += row["source_registered"].get<long>();
    listed += row["listed_unregistered"].get<long>();
  }
  EXPECT_EQ(src, 3);
  EXPECT_EQ(listed, 5);
  const report::Table* routes = s.table("served_routes");
  ASSERT_TRUE(routes);
  ASSERT_EQ(routes->rows.size(), 7u);
  EXPECT_EQ(routes->rows[3]["op"], "lt.Scalar_out");
  EXPECT_EQ(routes->rows[3]["route"], "missing");
  EXPECT_EQ(routes->rows[3]["list"], "listed_unregistered");
  EXPECT_EQ(routes->rows[5]["op"], "relu");
  EXPECT_EQ(routes->rows[5]["list"], "both");
  EXPECT_EQ(routes->rows[5]["source"], "csrc/ops.cpp:4");
}

TEST(ServedView, FindingsNameTheServedAnywayByRoute) {
  auto s = served_view_section(input(), asked());
  bool summary = false, otherwise = false;
  for (const auto& f : s.findings) {
    summary |= f.text == "Of 5 op(s) listed as unregistered, 3 are served anyway (1 own_kernel, 1 composite_explicit, "
                         "1 composite_implicit), 1 have no route and 1 are unknown to the dispatcher";
    otherwise |= f.text.starts_with("1 op(s) the source registers for PrivateUse1 are served by another route");
  }
  EXPECT_TRUE(summary);
  EXPECT_TRUE(otherwise);
}

TEST(ServedView, NotMeasuredFiguresAreNullAndSayWhy) {
  probe::AskedRoutes a;
  a.facts.measured = false;
  a.facts.not_measured = "this torch has no torch._C._dispatch_dump_table";
  auto s = served_view_section(input(), a);
  ASSERT_FALSE(s.figures.empty());
  for (const auto& f : s.figures) {
    EXPECT_TRUE(f.value.is_null()) << f.key;
    EXPECT_EQ(f.not_measured, a.facts.not_measured) << f.key;
  }
  EXPECT_FALSE(s.table("served_routes"));
  ASSERT_EQ(s.findings.size(), 1u);
  EXPECT_EQ(s.findings[0].text, "Not measured: the served view: this torch has no torch._C._dispatch_dump_table");
}

}  // namespace
}  // namespace onramp::audit
