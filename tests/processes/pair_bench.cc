// A test-only bench binary for the pages a gbx ab worker pair shares (extensions/pair_memory.h): two
// 1 MiB host arrays per setup. "same_a" and "same_b" fill the same bytes; "other" draws other ones.
#include <cstddef>
#include <cstdint>

#include "extensions/fixture.h"

namespace {

template <std::uint64_t Seed>
class TwoArrays : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override {
    declare_problem("pair/two_arrays");
    declare_seed(Seed);
    input_ = host_array<float>(kCount);
    output_ = host_array<float>(kCount);
    fill_random(input_);
  }
  void run() override {
    for (std::size_t i = 0; i < kCount; ++i) output_.data[i] = 2.0f * input_.data[i];
    benchmark::DoNotOptimize(output_.data);
    benchmark::ClobberMemory();
  }

 private:
  static constexpr std::size_t kCount = std::size_t{1} << 18;  // 1 MiB: a large array (host_memory.h)
  gbx::Span<float> input_;
  gbx::Span<float> output_;
};

using SameSeed = TwoArrays<7>;
using OtherSeed = TwoArrays<8>;

}  // namespace

GBX_BENCHMARK(SameSeed, "pair", "same_a");
GBX_BENCHMARK(SameSeed, "pair", "same_b");
GBX_BENCHMARK(OtherSeed, "pair", "other");
