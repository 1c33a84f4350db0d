// The topology from the CUDA runtime (peer access, peer atomics, performance rank) and NVML
// (NVLinks, PCIe, NUMA, CPU affinity). No NVLink multicast object is ever created here.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "memlab/cuda/check.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/topology.hpp"

namespace memlab {

Topology query_topology() {
  Topology t;
  const int count = device_count_or_zero();
  std::vector<DeviceInfo> devices;
  std::vector<NvmlLinks> links(static_cast<std::size_t>(count));
  bool nvml = count > 0;
  for (int i = 0; i < count; ++i) {
    devices.push_back(query_device(i));
    const DeviceInfo& d = devices.back();
    GpuTopology g;
    g.ordinal = i;
    g.name = d.name;
    g.uuid = d.uuid;
    g.pci_bus_id = fmt::format("{:04x}:{:02x}:{:02x}.0", d.pci_domain, d.pci_bus, d.pci_device);
    if (auto c = read_live_clocks(d)) {
      g.pcie_gen = c->pcie_gen;
      g.pcie_width = c->pcie_width;
      g.pcie_max_gen = c->pcie_max_gen;
      g.pcie_max_width = c->pcie_max_width;
    }
    if (auto l = read_nvml_links(d)) {
      links[static_cast<std::size_t>(i)] = *l;
      g.numa_node = l->numa_node;
      g.cpu_affinity = l->cpu_affinity;
      g.nvlinks_active = static_cast<int>(l->active.size());
      if (!l->active.empty()) g.nvlink_version = l->active.front().version;
    } else {
      nvml = false;
    }
    t.gpus.push_back(std::move(g));
  }
  t.nvml = nvml;
  if (!nvml) t.note = "NVML (libnvidia-ml.so.1) not available: NVLinks, NUMA and CPUs unknown";
  // Links whose far end is no GPU of this machine end at an NVSwitch (HGX boards): every GPU
  // with such links reaches every other one through the switches, as nvidia-smi topo shows.
  auto is_gpu = [&](const NvmlLinks::Link& l) {
    for (const DeviceInfo& d : devices) {
      if (l.remote_domain == d.pci_domain && l.remote_bus == d.pci_bus &&
          l.remote_device == d.pci_device)
        return true;
    }
    return false;
  };
  std::vector<int> switch_links(static_cast<std::size_t>(count), 0);
  for (int a = 0; a < count; ++a) {
    for (const NvmlLinks::Link& l : links[static_cast<std::size_t>(a)].active)
      if (!is_gpu(l)) ++switch_links[static_cast<std::size_t>(a)];
  }
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      if (a == b) continue;
      PairTopology p;
      p.from = a;
      p.to = b;
      int v = 0;
      MEMLAB_CUDA_CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, a, b));
      p.peer_access = v != 0;
      MEMLAB_CUDA_CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrNativeAtomicSupported, a, b));
      p.peer_atomics = v != 0;
      MEMLAB_CUDA_CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, a, b));
      p.perf_rank = v;
      const DeviceInfo& to = devices[static_cast<std::size_t>(b)];
      for (const NvmlLinks::Link& l : links[static_cast<std::size_t>(a)].active) {
        if (l.remote_domain == to.pci_domain && l.remote_bus == to.pci_bus &&
            l.remote_device == to.pci_device) {
          ++p.nvlinks;
          p.nvlink_version = l.version;
        }
      }
      const int sa = switch_links[static_cast<std::size_t>(a)];
      if (p.nvlinks == 0 && sa > 0 && switch_links[static_cast<std::size_t>(b)] > 0) {
        p.nvlinks = sa;
        p.nvlink_version = t.gpus[static_cast<std::size_t>(a)].nvlink_version;
      }
      p.pcie_path =
          pcie_path_name(read_nvml_common_ancestor(devices[static_cast<std::size_t>(a)], to));
      t.pairs.push_back(std::move(p));
    }
  }
  return t;
}

}  // namespace memlab
