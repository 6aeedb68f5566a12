#include <gtest/gtest.h>

#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {
TEST(ElementwiseSmoke, Builds) {}
}  // namespace
}  // namespace ember
