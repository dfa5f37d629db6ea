// The pages a gbx ab worker pair shares (extensions/pair_memory.h), with two "workers" in one process:
// the first publishes its setup's arrays and measures on the published pages, the second maps the
// same pages where its setup left the same bytes (a write by one is then read by the other), keeps to
// its own where they differ, and nothing is shared off a tmpfs or with sharing off.
#include <gtest/gtest.h>
#include <sys/vfs.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "extensions/host_memory.h"
#include "extensions/pair_memory.h"

namespace {

constexpr std::size_t kFloats = std::size_t{1} << 18;  // 1 MiB: a large array

struct WorkerSetup {
  std::vector<std::shared_ptr<void>> storage;
  float* array(std::size_t i) const { return static_cast<float*>(storage[i].get()); }
  std::vector<gbx::detail::HostArray> arrays() const {
    std::vector<gbx::detail::HostArray> out;
    for (const auto& s : storage) out.push_back({s.get(), kFloats * sizeof(float)});
    return out;
  }
};

// Two large arrays, the first filled from `seed`, the second zero (an output), and a small one.
WorkerSetup set_up(float seed) {
  WorkerSetup setup;
  for (int i = 0; i < 2; ++i) setup.storage.push_back(gbx::allocate_host_bytes(kFloats * sizeof(float)));
  for (std::size_t i = 0; i < kFloats; ++i) setup.array(0)[i] = seed + static_cast<float>(i % 101);
  return setup;
}

class PairMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    struct statfs status {};
    if (::statfs("/dev/shm", &status) != 0 || status.f_type != 0x01021994) GTEST_SKIP() << "/dev/shm is not a tmpfs";
    char name[] = "/dev/shm/gbx-pair-memory-gtest-XXXXXX";
    ASSERT_NE(::mkdtemp(name), nullptr);
    directory_ = name;
    gbx::detail::share_host_arrays_with_pair(directory_);
    gbx::detail::set_pair_memory_key("");
  }
  void TearDown() override {
    gbx::detail::share_host_arrays_with_pair("");
    gbx::detail::set_pair_memory_key("");
    if (!directory_.empty()) std::filesystem::remove_all(directory_);
  }
  std::string directory_;
};

TEST_F(PairMemory, TheSecondOfAPairMeasuresOnTheFirstsPagesWhereItsSetupLeftTheSameBytes) {
  const WorkerSetup first = set_up(1.0f);
  const auto published = gbx::detail::share_setup_with_pair("bandwidth/triad/n:262144", first.arrays());
  EXPECT_EQ(published.shared_bytes, 2 * kFloats * sizeof(float));
  EXPECT_EQ(published.private_bytes, 0u);
  EXPECT_EQ(first.array(0)[5], 6.0f);  // the first's bytes are unchanged by the move to the published pages
  first.array(1)[7] = 42.0f;           // its first run writes the output

  const WorkerSetup second = set_up(1.0f);
  const auto joined = gbx::detail::share_setup_with_pair("bandwidth/triad/n:262144", second.arrays());
  EXPECT_EQ(joined.shared_bytes, 2 * kFloats * sizeof(float)) << joined.why_private;
  EXPECT_EQ(gbx::detail::current_pair_memory().shared_bytes, joined.shared_bytes);
  // One copy: the first's output is what the second reads, and the second's writes reach the first.
  EXPECT_EQ(second.array(1)[7], 42.0f);
  second.array(0)[3] = -5.0f;
  EXPECT_EQ(first.array(0)[3], -5.0f);
  EXPECT_NE(first.array(0), second.array(0));  // at their own addresses, on the same pages
}

TEST_F(PairMemory, ASetupThatLeftOtherBytesKeepsToItsOwnPages) {
  const WorkerSetup first = set_up(1.0f);
  gbx::detail::share_setup_with_pair("reduce/naive/n:262144", first.arrays());
  const WorkerSetup other = set_up(2.0f);
  const auto outcome = gbx::detail::share_setup_with_pair("reduce/naive/n:262144", other.arrays());
  // The input differs and stays private; the output, zero in both setups, is shared.
  EXPECT_EQ(outcome.private_bytes, kFloats * sizeof(float));
  EXPECT_EQ(outcome.shared_bytes, kFloats * sizeof(float));
  EXPECT_NE(outcome.why_private.find("other bytes"), std::string::npos) << outcome.why_private;
  other.array(0)[0] = 99.0f;
  EXPECT_EQ(first.array(0)[0], 1.0f);
  EXPECT_EQ(other.array(0)[1], 3.0f);
}

TEST_F(PairMemory, TheRowsKeyJoinsVariantsOfOtherNamesAndOtherKeysDoNot) {
  gbx::detail::set_pair_memory_key("reduce/naive vs reduce/kahan");
  const WorkerSetup base = set_up(1.0f);
  gbx::detail::share_setup_with_pair("reduce/naive/n:262144", base.arrays());
  const WorkerSetup candidate = set_up(1.0f);
  EXPECT_EQ(gbx::detail::share_setup_with_pair("reduce/kahan/n:262144", candidate.arrays()).shared_bytes,
            2 * kFloats * sizeof(float));
  candidate.array(0)[0] = 7.5f;
  EXPECT_EQ(base.array(0)[0], 7.5f);
  gbx::detail::set_pair_memory_key("");
  const WorkerSetup elsewhere = set_up(1.0f);
  gbx::detail::share_setup_with_pair("reduce/pairwise/n:262144", elsewhere.arrays());
  elsewhere.array(0)[0] = 8.5f;  // published under its own name: a file of its own
  EXPECT_EQ(base.array(0)[0], 7.5f);
}

TEST_F(PairMemory, SmallArraysTakeNoPart) {
  const auto small = gbx::allocate_host_bytes(4096);
  const auto outcome = gbx::detail::share_setup_with_pair("tiny", {{small.get(), 4096}});
  EXPECT_EQ(outcome.shared_bytes + outcome.private_bytes, 0u);
  EXPECT_TRUE(std::filesystem::is_empty(directory_));
}

TEST_F(PairMemory, OffATmpfsOrOffNothingIsShared) {
  gbx::detail::share_host_arrays_with_pair("");
  const WorkerSetup off = set_up(1.0f);
  const auto none = gbx::detail::share_setup_with_pair("triad", off.arrays());
  EXPECT_EQ(none.shared_bytes, 0u);
  EXPECT_EQ(none.private_bytes, 2 * kFloats * sizeof(float));
  EXPECT_EQ(none.why_private, "");

  const std::string disk = std::filesystem::current_path().string();
  struct statfs status {};
  if (::statfs(disk.c_str(), &status) != 0 || status.f_type == 0x01021994) GTEST_SKIP() << disk << " is a tmpfs";
  gbx::detail::share_host_arrays_with_pair(disk);
  const auto on_disk = gbx::detail::share_setup_with_pair("triad", off.arrays());
  EXPECT_EQ(on_disk.shared_bytes, 0u);
  EXPECT_NE(on_disk.why_private.find("is not on a tmpfs"), std::string::npos) << on_disk.why_private;
}

}  // namespace
