#include "text/format.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gbx {
namespace {

TEST(Format, DurationsTakeTheUnitOfTheirMagnitude) {
  EXPECT_EQ(format_duration(812e-9), "812 ns");
  EXPECT_EQ(format_duration(2.314e-6), "2.31 us");
  EXPECT_EQ(format_duration(40.24e-3), "40.2 ms");
  EXPECT_EQ(format_duration(3.0), "3.00 s");
  EXPECT_EQ(format_duration(NAN), "-");
  EXPECT_STREQ(time_unit_for(5e-4).name, "us");
  EXPECT_EQ(time_unit_for(5e-4).scale, 1e6);
}

TEST(Format, BytesInBinaryUnits) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(16388), "16.0 KiB");
  EXPECT_EQ(format_bytes(2.0 * 1024 * 1024), "2.00 MiB");
  EXPECT_EQ(format_bytes(201326592), "192 MiB");
  EXPECT_EQ(format_bytes(INFINITY), "-");
}

TEST(Format, PercentagesAndNumbers) {
  EXPECT_EQ(format_percent(0.1234), "12.3%");
  EXPECT_EQ(format_signed_percent(0.1234), "+12.3%");
  EXPECT_EQ(format_signed_percent(-0.04), "-4.0%");
  EXPECT_EQ(format_three_digits_compact(155.4), "155");
  EXPECT_EQ(format_three_digits_compact(3.384), "3.38");
  EXPECT_EQ(format_three_digits_compact(1234.4), "1234");
  EXPECT_EQ(format_scientific(5.337e-7), "5.34e-07");
  EXPECT_EQ(format_fixed(0.926, 2), "0.93");
  EXPECT_EQ(format_three_digits_fixed(40.24), "40.2");
  // The two differ in the zeros: kept for a table's columns, dropped inside a sentence.
  EXPECT_EQ(format_three_digits_fixed(2.0), "2.00");
  EXPECT_EQ(format_three_digits_compact(2.0), "2");
  EXPECT_EQ(format_percent(NAN), "-");
  EXPECT_EQ(format_fixed(NAN, 2), "-");
}

TEST(Format, PadLeftRightAligns) {
  EXPECT_EQ(pad_left("ab", 5), "   ab");
  EXPECT_EQ(pad_left("abcdef", 3), "abcdef");
}

}  // namespace
}  // namespace gbx
