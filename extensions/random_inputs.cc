#include "extensions/random_inputs.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <string>

namespace gbx {

namespace {

// What identifies a draw; the bounds by their bits, as a draw depends on them exactly.
struct DrawKey {
  char type;  // 'f' or 'd'
  std::uint64_t seed;
  std::size_t count;
  std::uint64_t low_bits, high_bits;

  bool operator==(const DrawKey& other) const {
    return type == other.type && seed == other.seed && count == other.count && low_bits == other.low_bits &&
           high_bits == other.high_bits;
  }
};

template <class T>
DrawKey key_of(char type, std::uint64_t seed, std::size_t count, T low, T high) {
  const double bounds[2] = {static_cast<double>(low), static_cast<double>(high)};
  std::uint64_t bits[2];
  std::memcpy(bits, bounds, sizeof bits);
  return {type, seed, count, bits[0], bits[1]};
}

struct KeptDraw {
  DrawKey key;
  std::unique_ptr<unsigned char[]> bytes;
  std::size_t size;
};

struct Kept {
  std::mutex mutex;
  bool on = false;
  std::size_t max_bytes = 0;
  std::size_t bytes = 0;
  std::deque<KeptDraw> draws;  // oldest first
  std::string shared;          // the directory the workers share, if any
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

std::string shared_file(const std::string& directory, const DrawKey& key) {
  char name[128];
  std::snprintf(name, sizeof name, "/%c-%llu-%zu-%llx-%llx.bin", key.type, static_cast<unsigned long long>(key.seed),
                key.count, static_cast<unsigned long long>(key.low_bits),
                static_cast<unsigned long long>(key.high_bits));
  return directory + name;
}

// The draw from the shared directory, if a file there holds it: its size right and its first values
// the ones this process draws.
template <class T>
bool read_shared(const std::string& path, Span<T> values, std::uint64_t seed, T low, T high) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  const bool read = std::fread(values.data, 1, values.bytes(), file) == values.bytes() && std::fgetc(file) == EOF;
  std::fclose(file);
  if (!read) return false;
  T first[4];
  const std::size_t count = std::min<std::size_t>(4, values.size);
  draw(Span<T>{first, count}, seed, low, high);
  return std::memcmp(first, values.data, count * sizeof(T)) == 0;
}

// Written under a name of this process's, then renamed, so that no reader finds it half written.
template <class T>
void write_shared(const std::string& path, Span<T> values) {
  const std::string partial = path + "." + std::to_string(::getpid());
  std::FILE* file = std::fopen(partial.c_str(), "wb");
  if (file == nullptr) return;
  const bool written = std::fwrite(values.data, 1, values.bytes(), file) == values.bytes();
  if (std::fclose(file) == 0 && written && std::rename(partial.c_str(), path.c_str()) == 0) return;
  std::remove(partial.c_str());
}

template <class T>
void fill(Span<T> values, std::uint64_t seed, T low, T high, char type) {
  Kept& k = kept();
  std::lock_guard<std::mutex> lock(k.mutex);
  if (!k.on) return draw(values, seed, low, high);
  const DrawKey key = key_of(type, seed, values.size, low, high);
  for (const KeptDraw& d : k.draws) {
    if (d.key == key) {
      if (d.size > 0) std::memcpy(values.data, d.bytes.get(), d.size);
      return;
    }
  }
  const std::string path = k.shared.empty() ? "" : shared_file(k.shared, key);
  if (path.empty() || !read_shared(path, values, seed, low, high)) {
    draw(values, seed, low, high);
    if (!path.empty()) write_shared(path, values);
  }
  const std::size_t size = values.bytes();
  if (size > k.max_bytes) return;
  while (k.bytes + size > k.max_bytes) {
    k.bytes -= k.draws.front().size;
    k.draws.pop_front();
  }
  KeptDraw d{key, std::make_unique<unsigned char[]>(size), size};
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

void share_random_inputs(const std::string& directory) {
  Kept& k = kept();
  std::lock_guard<std::mutex> lock(k.mutex);
  k.shared = directory;
}

std::size_t kept_random_input_bytes() {
  Kept& k = kept();
  std::lock_guard<std::mutex> lock(k.mutex);
  return k.bytes;
}

}  // namespace gbx
