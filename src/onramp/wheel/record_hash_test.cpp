// RECORD's hashes: the form the wheel read writes a member's SHA-256 in, and
// the check of RECORD's rows against the hashes taken while inflating.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <string>

#include "onramp/wheel/wheel_archive.h"
#include "onramp/wheel/wheel_facts.h"

namespace onramp::wheel {
namespace record_hash_test {  // one per file: a unity batch joins several

std::string hash_of(const std::string& data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), md, &size, EVP_sha256(), nullptr);
  return record_hash(md, size);
}

TEST(RecordHash, IsUrlsafeBase64WithoutPadding) {
  // What pip and the build backends write (base64.urlsafe_b64encode(...).rstrip(b"=")).
  EXPECT_EQ(hash_of(""), "sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU");
  EXPECT_EQ(hash_of("pass\n"), "sha256=n1bnYdeb_bNDBKASWGywTRa0Ne9hMAkal3AuVZJgovI");
}

TEST(RecordHash, ShortDigestsEncodeEachTailLength) {
  const unsigned char bytes[] = {0xfb, 0xff, 0x01};
  EXPECT_EQ(record_hash(bytes, 1), "sha256=-w");
  EXPECT_EQ(record_hash(bytes, 2), "sha256=-_8");
  EXPECT_EQ(record_hash(bytes, 3), "sha256=-_8B");
}

TEST(CheckRecord, AMemberWhoseBytesHashOtherwiseIsAMismatch) {
  WheelArchive archive;
  archive.members = {{"p/a.py", 5, std::nullopt, hash_of("pass\n")},
                     {"p/b.py", 5, std::nullopt, hash_of("fail\n")},
                     {"p-1.dist-info/RECORD", 10, std::nullopt, hash_of("x")}};
  std::vector<RecordRow> rows{{"p/a.py", hash_of("pass\n"), 5},
                              {"p/b.py", hash_of("pass\n"), 5},
                              {"p-1.dist-info/RECORD", "", std::nullopt}};
  auto check = check_record(rows, archive, "p-1.dist-info/RECORD");
  EXPECT_EQ(check.hashes_checked, 2u);
  ASSERT_EQ(check.hash_mismatches.size(), 1u);
  EXPECT_EQ(check.hash_mismatches[0], "p/b.py");
}

TEST(CheckRecord, APaddedHashInRecordStillMatches) {
  WheelArchive archive;
  archive.members = {{"p/a.py", 5, std::nullopt, hash_of("pass\n")}};
  std::vector<RecordRow> rows{{"p/a.py", hash_of("pass\n") + "=", 5}};
  auto check = check_record(rows, archive, "p-1.dist-info/RECORD");
  EXPECT_EQ(check.hashes_checked, 1u);
  EXPECT_TRUE(check.hash_mismatches.empty());
}

TEST(CheckRecord, OtherAlgorithmsAreNotChecked) {
  WheelArchive archive;
  archive.members = {{"p/a.py", 5, std::nullopt, hash_of("pass\n")}};
  std::vector<RecordRow> rows{{"p/a.py", "sha512=abc", 5}};
  auto check = check_record(rows, archive, "p-1.dist-info/RECORD");
  EXPECT_EQ(check.hashes_checked, 0u);
  EXPECT_TRUE(check.hash_mismatches.empty());
}

}  // namespace
}  // namespace onramp::wheel
