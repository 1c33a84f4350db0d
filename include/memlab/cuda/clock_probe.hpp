// Clocks and throttle reasons during measurements, through NVML (src/cuda/nvml.cpp).
#pragma once

#include "memlab/bench/clocks.hpp"
#include "memlab/cuda/device_info.hpp"

namespace memlab {

// SM and memory clocks and throttle reasons, read through NVML each time the probe is called.
// Empty when NVML or the device cannot be opened (measurements then carry no clock range).
bench::ClockProbe make_clock_probe(const DeviceInfo& device);

}  // namespace memlab
