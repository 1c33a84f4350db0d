// PCIe link arithmetic (host-only, header-only: the host tests include it directly).
#pragma once

namespace memlab::lessons::transfers {

// Usable bytes per second per lane and direction after line encoding, in GB/s (1e9 B/s):
// gen1 2.5 GT/s and gen2 5 GT/s with 8b/10b; gen3 8, gen4 16, gen5 32 GT/s with 128b/130b;
// gen6 64 GT/s PAM4 with FLIT mode (242 of 256 bytes carry data). 0 for an unknown generation.
inline double pcie_lane_gbps(int generation) {
  switch (generation) {
    case 1:
      return 2.5 * 0.8 / 8.0;
    case 2:
      return 5.0 * 0.8 / 8.0;
    case 3:
      return 8.0 * 128.0 / 130.0 / 8.0;
    case 4:
      return 16.0 * 128.0 / 130.0 / 8.0;
    case 5:
      return 32.0 * 128.0 / 130.0 / 8.0;
    case 6:
      return 64.0 * 242.0 / 256.0 / 8.0;
    default:
      return 0.0;
  }
}

// The link's theoretical rate per direction (gen5 x16: 63.0 GB/s). Packet headers (TLPs of
// 256-512 bytes payload carry ~20-30 bytes of overhead) keep real copies some 10-15% below it.
inline double pcie_link_gbps(int generation, int width) {
  return width > 0 ? pcie_lane_gbps(generation) * width : 0.0;
}

// Milliseconds per GiB for an operation on `bytes` that took `ms`.
inline double ms_per_gib(double ms, double bytes) {
  return bytes > 0 ? ms * (1024.0 * 1024.0 * 1024.0) / bytes : 0.0;
}

}  // namespace memlab::lessons::transfers
