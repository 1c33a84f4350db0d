// Current clocks, PCIe link and NVLink topology through NVML, opened at run time with dlopen so
// that memlab needs no NVML at build time and still runs where the library is missing (then: no
// live clocks).
#include <dlfcn.h>
#include <fmt/format.h>

#include "memlab/cuda/clock_probe.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/topology.hpp"

namespace memlab {
namespace {

// The few NVML entry points used, declared from NVML's public C API documentation.
using NvmlReturn = int;  // NVML_SUCCESS == 0
using NvmlDevice = void*;
constexpr unsigned kNvmlClockSm = 1;
constexpr unsigned kNvmlClockMem = 2;
constexpr unsigned kNvmlMaxNvLinks = 18;  // NVML_NVLINK_MAX_LINKS

// nvmlPciInfo_t (NVML's public header): the far end of an NVLink.
struct NvmlPciInfo {
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};

// nvmlProcessInfo_t of nvmlDeviceGetComputeRunningProcesses_v3 (R535+) and _v2's shorter form.
struct NvmlProcessV3 {
  unsigned pid;
  unsigned long long used_memory;
  unsigned gpu_instance, compute_instance;
  unsigned long long cc_protected_memory;
};
struct NvmlProcessV2 {
  unsigned pid;
  unsigned long long used_memory;
  unsigned gpu_instance, compute_instance;
};

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
  NvmlReturn (*nvlink_state)(NvmlDevice, unsigned, int*) = nullptr;
  NvmlReturn (*nvlink_version)(NvmlDevice, unsigned, unsigned*) = nullptr;
  NvmlReturn (*nvlink_remote)(NvmlDevice, unsigned, NvmlPciInfo*) = nullptr;
  NvmlReturn (*numa_node)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*cpu_affinity)(NvmlDevice, unsigned, unsigned long*) = nullptr;
  NvmlReturn (*common_ancestor)(NvmlDevice, NvmlDevice, int*) = nullptr;
  NvmlReturn (*processes_v3)(NvmlDevice, unsigned*, NvmlProcessV3*) = nullptr;
  NvmlReturn (*processes_v2)(NvmlDevice, unsigned*, NvmlProcessV2*) = nullptr;
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
    load(m.handle, m.nvlink_state, "nvmlDeviceGetNvLinkState");
    load(m.handle, m.nvlink_version, "nvmlDeviceGetNvLinkVersion");
    load(m.handle, m.nvlink_remote, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    load(m.handle, m.numa_node, "nvmlDeviceGetNumaNodeId");
    load(m.handle, m.cpu_affinity, "nvmlDeviceGetCpuAffinity");
    load(m.handle, m.common_ancestor, "nvmlDeviceGetTopologyCommonAncestor");
    load(m.handle, m.processes_v3, "nvmlDeviceGetComputeRunningProcesses_v3");
    load(m.handle, m.processes_v2, "nvmlDeviceGetComputeRunningProcesses_v2");
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

std::optional<std::vector<unsigned>> compute_processes(const DeviceInfo& device) {
  Nvml& n = nvml();
  if (!n.ok) return std::nullopt;
  NvmlDevice dev = device_handle(device);
  if (dev == nullptr) return std::nullopt;
  std::vector<unsigned> pids;
  unsigned count = 64;
  if (n.processes_v3 != nullptr) {
    std::vector<NvmlProcessV3> p(count);
    if (n.processes_v3(dev, &count, p.data()) != 0) return std::nullopt;
    for (unsigned i = 0; i < count && i < p.size(); ++i) pids.push_back(p[i].pid);
    return pids;
  }
  if (n.processes_v2 != nullptr) {
    std::vector<NvmlProcessV2> p(count);
    if (n.processes_v2(dev, &count, p.data()) != 0) return std::nullopt;
    for (unsigned i = 0; i < count && i < p.size(); ++i) pids.push_back(p[i].pid);
    return pids;
  }
  return std::nullopt;
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

std::optional<NvmlLinks> read_nvml_links(const DeviceInfo& device) {
  Nvml& n = nvml();
  if (!n.ok) return std::nullopt;
  NvmlDevice dev = device_handle(device);
  if (dev == nullptr) return std::nullopt;
  NvmlLinks out;
  if (n.nvlink_state != nullptr) {
    for (unsigned link = 0; link < kNvmlMaxNvLinks; ++link) {
      int active = 0;
      if (n.nvlink_state(dev, link, &active) != 0 || active == 0) continue;
      NvmlLinks::Link l;
      unsigned version = 0;
      if (n.nvlink_version != nullptr && n.nvlink_version(dev, link, &version) == 0)
        l.version = static_cast<int>(version);
      NvmlPciInfo pci{};
      if (n.nvlink_remote != nullptr && n.nvlink_remote(dev, link, &pci) == 0) {
        l.remote_domain = static_cast<int>(pci.domain);
        l.remote_bus = static_cast<int>(pci.bus);
        l.remote_device = static_cast<int>(pci.device);
      }
      out.active.push_back(l);
    }
  }
  unsigned node = 0;
  if (n.numa_node != nullptr && n.numa_node(dev, &node) == 0)
    out.numa_node = static_cast<int>(node);
  if (n.cpu_affinity != nullptr) {
    std::vector<unsigned long> words(64);  // 4096 CPUs
    if (n.cpu_affinity(dev, static_cast<unsigned>(words.size()), words.data()) == 0) {
      out.cpu_affinity =
          format_cpu_ranges(std::vector<unsigned long long>(words.begin(), words.end()));
    }
  }
  return out;
}

int read_nvml_common_ancestor(const DeviceInfo& a, const DeviceInfo& b) {
  Nvml& n = nvml();
  if (!n.ok || n.common_ancestor == nullptr) return -1;
  NvmlDevice da = device_handle(a), db = device_handle(b);
  int level = -1;
  if (da == nullptr || db == nullptr || n.common_ancestor(da, db, &level) != 0) return -1;
  return level;
}

}  // namespace memlab
