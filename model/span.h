#pragma once

#include <cstddef>

namespace gbx {

// A view of count elements that someone else owns (C++17 has no std::span).
template <class T>
struct Span {
  T* data = nullptr;
  std::size_t size = 0;

  T& operator[](std::size_t i) const { return data[i]; }
  T* begin() const { return data; }
  T* end() const { return data + size; }
  std::size_t bytes() const { return size * sizeof(T); }
};

}  // namespace gbx
