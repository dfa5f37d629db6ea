#include "report/iso8601.h"

#include <cstdio>

namespace gbx::tools {

namespace {

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

}  // namespace

std::optional<std::int64_t> parse_iso8601(const std::string& text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &consumed) !=
          6 ||
      consumed != 19) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  std::size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  }
  std::int64_t offset = 0;
  if (at < text.size()) {
    const std::string zone = text.substr(at);
    int zone_hours = 0, zone_minutes = 0;
    if (zone == "Z") {
      offset = 0;
    } else if ((zone[0] == '+' || zone[0] == '-') && zone.size() == 6 &&
               std::sscanf(zone.c_str() + 1, "%2d:%2d", &zone_hours, &zone_minutes) == 2) {
      offset = (zone[0] == '+' ? 1 : -1) * (std::int64_t{zone_hours} * 3600 + std::int64_t{zone_minutes} * 60);
    } else {
      return std::nullopt;
    }
  }
  const std::int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return days * 86400 + std::int64_t{hour} * 3600 + std::int64_t{minute} * 60 + second - offset;
}

}  // namespace gbx::tools
