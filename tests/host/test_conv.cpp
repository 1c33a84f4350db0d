// conv1d / conv2d: even mask widths and masks larger than the __constant__ buffer are one-line
// usage errors naming the axis, rejected before any device work (no GPU needed).
#include "cli_runner.hpp"

namespace {

using memlab::testing_cli::expect_usage_error;

TEST(Conv, EvenMaskIsRejected) {
  expect_usage_error("run conv1d -a n=1000 -a mask=4", "axis mask: 4 is even");
  expect_usage_error("run conv2d -a height=10 -a width=10 -a mask=6", "axis mask: 6 is even");
}

TEST(Conv, MaskLargerThanTheConstantBufferIsRejected) {
  expect_usage_error("run conv1d -a n=1000 -a mask=27", "axis mask: 27 is larger than");
  expect_usage_error("run conv2d -a height=10 -a width=10 -a mask=17",
                     "axis mask: 17 is larger than");
}

}  // namespace
