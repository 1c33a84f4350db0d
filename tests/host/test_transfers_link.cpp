// PCIe link arithmetic of the transfers lesson.
#include <gtest/gtest.h>

#include "transfers/link.hpp"

namespace memlab::lessons::transfers {
namespace {

TEST(TransfersLink, TheoreticalRatesPerDirection) {
  EXPECT_NEAR(pcie_link_gbps(5, 16), 63.015, 1e-3);  // 32 GT/s x 16 x 128/130 / 8
  EXPECT_NEAR(pcie_link_gbps(4, 16), 31.508, 1e-3);
  EXPECT_NEAR(pcie_link_gbps(3, 8), 7.877, 1e-3);
  EXPECT_NEAR(pcie_link_gbps(2, 16), 8.0, 1e-12);  // 8b/10b
  EXPECT_NEAR(pcie_link_gbps(1, 1), 0.25, 1e-12);
  EXPECT_NEAR(pcie_link_gbps(6, 16), 121.0, 1e-9);  // FLIT: 242 of 256 bytes
  EXPECT_EQ(pcie_link_gbps(0, 16), 0.0);            // unknown generation
  EXPECT_EQ(pcie_link_gbps(5, 0), 0.0);
}

TEST(TransfersLink, MillisecondsPerGiB) {
  EXPECT_DOUBLE_EQ(ms_per_gib(100.0, 256.0 * 1024 * 1024), 400.0);
  EXPECT_DOUBLE_EQ(ms_per_gib(5.0, 0.0), 0.0);
}

}  // namespace
}  // namespace memlab::lessons::transfers
