#include "onramp/probe/registrations.h"

#include <gtest/gtest.h>

#include "onramp/probe/records_test_util.h"

namespace onramp::probe {
namespace registrations_test {  // one per file: a unity batch joins several

using test_util::records;

const report::Figure* figure(const report::Section& s, const std::string& key) {
  for (const auto& f : s.figures) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

TEST(Registrations, TheAddedOpsOfEachKeyAreTheInventory) {
  auto run = records(
      R"({"kind": "registrations", "available": true, "key": "PrivateUse1", "before": 19, "after": 21,)"
      R"( "added": ["aten::add.Tensor", "aten::empty.memory_format"]})"
      "\n"
      R"({"kind": "registrations", "available": true, "key": "AutogradPrivateUse1", "before": 0, "after": 1,)"
      R"( "added": ["myns::fused"]})"
      "\n"
      R"({"kind": "registrations", "available": false, "key": "AutocastPrivateUse1", "message": "no such key"})"
      "\n");
  auto keys = read_registrations(run);
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys[0].before, 19);
  EXPECT_EQ(keys[0].after, 21);
  report::Section s{"probe", "", {}, {}, {}};
  add_registrations(s, keys, "backend", "python api_probe.py");
  ASSERT_NE(figure(s, "runtime_registered_ops"), nullptr);
  EXPECT_EQ(figure(s, "runtime_registered_ops")->value, 2);
  const auto* listing = s.table("runtime_registered");
  ASSERT_NE(listing, nullptr);
  EXPECT_TRUE(listing->json_only);
  ASSERT_EQ(listing->rows.size(), 3u);
  EXPECT_EQ(listing->rows[0]["op"], "add.Tensor");  // aten:: dropped, other namespaces kept
  EXPECT_EQ(listing->rows[2]["op"], "myns::fused");
  EXPECT_EQ(listing->rows[2]["key"], "AutogradPrivateUse1");
  const auto* by_key = s.table("runtime_registrations");
  ASSERT_NE(by_key, nullptr);
  EXPECT_TRUE(by_key->rows[2]["added"].is_null());
  EXPECT_EQ(by_key->rows[2]["note"], "no such key");
}

TEST(Registrations, ATorchThatCannotSayIsNotMeasuredWithTheReason) {
  auto run = records(R"({"kind": "registrations", "available": false, "message": "this torch has no X"})"
                     "\n");
  report::Section s{"probe", "", {}, {}, {}};
  add_registrations(s, read_registrations(run), "backend", "cmd");
  const auto* f = figure(s, "runtime_registered_ops");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->value.is_null());
  EXPECT_EQ(f->not_measured, "this torch has no X");
  EXPECT_EQ(s.table("runtime_registrations"), nullptr);
}

TEST(Registrations, WrongTypesFromTheTargetReadAsMissing) {
  auto run = records(R"({"kind": "registrations", "available": true, "key": "PrivateUse1", "before": "x",)"
                     R"( "after": null, "added": [1, "aten::relu", {"a": 1}]})"
                     "\n");
  auto keys = read_registrations(run);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].before, 0);
  EXPECT_EQ(keys[0].added, std::vector<std::string>{"aten::relu"});
}

TEST(Registrations, NoRecordIsNotMeasured) {
  report::Section s{"probe", "", {}, {}, {}};
  add_registrations(s, {}, "backend", "cmd");
  ASSERT_NE(figure(s, "runtime_registered_ops"), nullptr);
  EXPECT_EQ(figure(s, "runtime_registered_ops")->not_measured, "the probe wrote no registrations record");
}

}  // namespace
}  // namespace onramp::probe
