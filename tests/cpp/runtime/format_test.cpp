// The runtime's own formatter (runtime/core/format.h) against libc's
// snprintf, for every conversion the runtime's messages use.
#include "runtime/core/format.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace ember {
namespace {

template <typename... Args>
void expect_as_snprintf(const char* fmt, Args... args) {
  char ours[128];
  char libc[128];
  const size_t n = format(ours, sizeof(ours), fmt, args...);
  std::snprintf(libc, sizeof(libc), fmt, args...);
  EXPECT_STREQ(ours, libc) << "format: " << fmt;
  EXPECT_EQ(n, std::string(libc).size()) << "format: " << fmt;
}

TEST(Format, IntegersAsSnprintf) {
  expect_as_snprintf("%d %i", 0, -42);
  expect_as_snprintf("%d", INT32_MIN);
  expect_as_snprintf("%u %x", 4000000000u, 0xbeefu);
  expect_as_snprintf("%ld %lu", -1234567890123L, 1234567890123UL);
  expect_as_snprintf("%lld %llu", INT64_MIN, UINT64_MAX);
  expect_as_snprintf("%zu", static_cast<size_t>(SIZE_MAX));
  expect_as_snprintf("value %zu of %d%%", static_cast<size_t>(3), 7);
}

TEST(Format, StringsCharsAndPrecision) {
  expect_as_snprintf("%s and %c", "text", 'x');
  expect_as_snprintf("%.3s|%.*s|%.0s", "abcdef", 2, "xyz", "gone");
  expect_as_snprintf("%.64s", "short");
}

TEST(Format, DoublesAsSnprintfG) {
  for (double v : {0.0, 1.0, 1.5, -2.25, 123456.0, 1234567.0, 0.0001, 0.00001234, 1e30, -1e-30,
                   3.14159265}) {
    expect_as_snprintf("%g", v);
  }
}

TEST(Format, TruncatesAndTerminates) {
  char buf[6];
  EXPECT_EQ(format(buf, sizeof(buf), "%s", "abcdefgh"), 5u);
  EXPECT_STREQ(buf, "abcde");
  char one[1] = {'z'};
  EXPECT_EQ(format(one, sizeof(one), "%d", 12), 0u);
  EXPECT_EQ(one[0], '\0');
}

TEST(Format, UnknownConversionIsCopiedThrough) {
  char buf[32];
  const char* fmt = "%q and %d";  // not a literal: the compiler would flag %q
  format(buf, sizeof(buf), fmt, 5);
  EXPECT_STREQ(buf, "%q and 5");
}

}  // namespace
}  // namespace ember
