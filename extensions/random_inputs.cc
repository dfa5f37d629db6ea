#include "extensions/random_inputs.h"

#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <random>

namespace gbx {

namespace {

struct KeptDraw {
  char type;  // 'f' or 'd'
  std::uint64_t seed;
  std::size_t count;
  double low, high;
  std::unique_ptr<unsigned char[]> bytes;
  std::size_t size;
};

struct Kept {
  std::mutex mutex;
  bool on = false;
  std::size_t max_bytes = 0;
  std::size_t bytes = 0;
  std::deque<KeptDraw> draws;  // oldest first
};

Kept& kept() {
  static Kept instance;
  return instance;
}

template <class T>
void draw(Span<T> values, std::uint64_t seed, T low, T high) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> dist(low, high);
  for (auto& v : values) v = dist(rng);
}

template <class T>
void fill(Span<T> values, std::uint64_t seed, T low, T high, char type) {
  Kept& k = kept();
  std::lock_guard<std::mutex> lock(k.mutex);
  if (!k.on) return draw(values, seed, low, high);
  for (const KeptDraw& d : k.draws) {
    if (d.type == type && d.seed == seed && d.count == values.size && d.low == low && d.high == high) {
      if (d.size > 0) std::memcpy(values.data, d.bytes.get(), d.size);
      return;
    }
  }
  draw(values, seed, low, high);
  const std::size_t size = values.bytes();
  if (size > k.max_bytes) return;
  while (k.bytes + size > k.max_bytes) {
    k.bytes -= k.draws.front().size;
    k.draws.pop_front();
  }
  KeptDraw d{type, seed, values.size, low, high, std::make_unique<unsigned char[]>(size), size};
  if (size > 0) std::memcpy(d.bytes.get(), values.data, size);
  k.draws.push_back(std::move(d));
  k.bytes += size;
}

}  // namespace

void fill_uniform(Span<float> values, std::uint64_t seed, float low, float high) { fill(values, seed, low, high, 'f'); }

void fill_uniform(Span<double> values, std::uint64_t seed, double low, double high) {
  fill(values, seed, low, high, 'd');
}

void keep_random_inputs(bool keep, std::size_t max_bytes) {
  Kept& k = kept();
  std::lock_guard<std::mutex> lock(k.mutex);
  k.on = keep;
  k.max_bytes = keep ? max_bytes : 0;
  k.draws.clear();
  k.bytes = 0;
}

std::size_t kept_random_input_bytes() {
  Kept& k = kept();
  std::lock_guard<std::mutex> lock(k.mutex);
  return k.bytes;
}

}  // namespace gbx
