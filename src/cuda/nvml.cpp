// Current clocks and PCIe link through NVML, opened at run time with dlopen so that memlab needs
// no NVML at build time and still runs where the library is missing (then: no live clocks).
#include <dlfcn.h>
#include <fmt/format.h>

#include "memlab/cuda/clock_probe.hpp"
#include "memlab/cuda/device.hpp"

namespace memlab {
namespace {

// The few NVML entry points used, declared from NVML's public C API documentation.
using NvmlReturn = int;  // NVML_SUCCESS == 0
using NvmlDevice = void*;
constexpr unsigned kNvmlClockSm = 1;
constexpr unsigned kNvmlClockMem = 2;

struct Nvml {
  void* handle = nullptr;
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*by_bus_id)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*clock)(NvmlDevice, unsigned, unsigned*) = nullptr;
  NvmlReturn (*link_gen)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*link_width)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*max_link_gen)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*max_link_width)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*reasons)(NvmlDevice, unsigned long long*) = nullptr;
  bool ok = false;
};

template <class F>
void load(void* handle, F& fn, const char* name) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
}

Nvml& nvml() {
  static Nvml n = [] {
    Nvml m;
    m.handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (m.handle == nullptr) return m;
    load(m.handle, m.init, "nvmlInit_v2");
    load(m.handle, m.by_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
    load(m.handle, m.clock, "nvmlDeviceGetClockInfo");
    load(m.handle, m.link_gen, "nvmlDeviceGetCurrPcieLinkGeneration");
    load(m.handle, m.link_width, "nvmlDeviceGetCurrPcieLinkWidth");
    load(m.handle, m.max_link_gen, "nvmlDeviceGetMaxPcieLinkGeneration");
    load(m.handle, m.max_link_width, "nvmlDeviceGetMaxPcieLinkWidth");
    load(m.handle, m.reasons, "nvmlDeviceGetCurrentClocksEventReasons");
    if (m.reasons == nullptr)
      load(m.handle, m.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    m.ok = m.init != nullptr && m.by_bus_id != nullptr && m.clock != nullptr && m.init() == 0;
    return m;
  }();
  return n;
}

NvmlDevice device_handle(const DeviceInfo& device) {
  const std::string bus_id =
      fmt::format("{:08x}:{:02x}:{:02x}.0", device.pci_domain, device.pci_bus, device.pci_device);
  NvmlDevice dev = nullptr;
  if (nvml().by_bus_id(bus_id.c_str(), &dev) != 0) return nullptr;
  return dev;
}

}  // namespace

bench::ClockProbe make_clock_probe(const DeviceInfo& device) {
  Nvml& n = nvml();
  if (!n.ok) return {};
  NvmlDevice dev = device_handle(device);
  if (dev == nullptr) return {};
  return [dev]() -> std::optional<bench::ClockSample> {
    Nvml& m = nvml();
    bench::ClockSample s;
    unsigned v = 0;
    if (m.clock(dev, kNvmlClockSm, &v) != 0) return std::nullopt;
    s.sm_mhz = static_cast<int>(v);
    if (m.clock(dev, kNvmlClockMem, &v) == 0) s.mem_mhz = static_cast<int>(v);
    unsigned long long reasons = 0;
    if (m.reasons != nullptr && m.reasons(dev, &reasons) == 0) s.reasons = reasons;
    return s;
  };
}

std::optional<LiveClocks> read_live_clocks(const DeviceInfo& device) {
  Nvml& n = nvml();
  if (!n.ok) return std::nullopt;
  NvmlDevice dev = device_handle(device);
  if (dev == nullptr) return std::nullopt;
  LiveClocks c;
  unsigned v = 0;
  if (n.clock(dev, kNvmlClockSm, &v) == 0) c.sm_mhz = static_cast<int>(v);
  if (n.clock(dev, kNvmlClockMem, &v) == 0) c.mem_mhz = static_cast<int>(v);
  if (n.link_gen != nullptr && n.link_gen(dev, &v) == 0) c.pcie_gen = static_cast<int>(v);
  if (n.link_width != nullptr && n.link_width(dev, &v) == 0) c.pcie_width = static_cast<int>(v);
  if (n.max_link_gen != nullptr && n.max_link_gen(dev, &v) == 0) {
    c.pcie_max_gen = static_cast<int>(v);
  }
  if (n.max_link_width != nullptr && n.max_link_width(dev, &v) == 0) {
    c.pcie_max_width = static_cast<int>(v);
  }
  return c;
}

}  // namespace memlab
