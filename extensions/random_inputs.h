#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/span.h"

namespace gbx {

// Uniform draws in [low, high) from std::mt19937_64(seed): what fill_random() writes, the same values
// for the same arguments in every process and every call.
void fill_uniform(Span<float> values, std::uint64_t seed, float low, float high);
void fill_uniform(Span<double> values, std::uint64_t seed, double low, double high);

// Drawing costs more than the kernels it feeds: 16M floats take about 0.15 s here, a triad over them
// 6 ms. A worker of `gbx ab` sets a short-form benchmark up again for every block, so while keeping
// is on, each draw is kept (up to max_bytes in all, the oldest dropped first) and a later fill with
// the same arguments copies it. Turning it off frees what is kept.
inline constexpr std::size_t kKeptRandomInputBytes = std::size_t{1} << 30;
void keep_random_inputs(bool keep, std::size_t max_bytes = kKeptRandomInputBytes);
std::size_t kept_random_input_bytes();  // for tests

// While keeping, and with a directory given (the workers of one `gbx ab` run share one:
// processes/shared_inputs.h), a draw kept by no process yet is written there, and a process that
// needs it reads it instead of drawing, so that each worker pair does not draw its inputs again. A
// file is used only if its size is right and its first values are the ones this process would draw
// (the same generator and distribution); writing is best effort. "" shares nothing.
void share_random_inputs(const std::string& directory);

}  // namespace gbx
