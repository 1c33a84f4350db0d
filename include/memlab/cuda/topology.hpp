// How the GPUs of this machine are linked: per GPU its PCIe link, NUMA node and CPU affinity, its
// NVLinks; per ordered pair peer access, peer atomics and the NVLinks that join them. Plain data
// (no CUDA headers): `query_topology` (src/cuda/topology.cpp) fills it from the CUDA runtime and
// NVML; formatting and parsing (src/cuda/topology_format.cpp) are host code, tested with a fake
// topology (tests/host/test_topology.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace memlab {

struct GpuTopology {
  int ordinal = 0;
  std::string name;
  std::string uuid;        // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (cudaDeviceProp::uuid)
  std::string pci_bus_id;  // "0000:19:00.0"
  int pcie_gen = 0, pcie_width = 0, pcie_max_gen = 0, pcie_max_width = 0;  // 0: unknown
  int numa_node = -1;                                                      // -1: unknown
  std::string cpu_affinity;  // "0-47,96-143" (NVML's ideal CPUs); empty: unknown
  int nvlinks_active = 0;
  int nvlink_version = 0;  // NVML's number for the first active link; 0: none or unknown
};

struct PairTopology {
  int from = 0, to = 0;       // ordered pair, from != to
  bool peer_access = false;   // cudaDevP2PAttrAccessSupported
  bool peer_atomics = false;  // cudaDevP2PAttrNativeAtomicSupported
  int perf_rank = 0;          // cudaDevP2PAttrPerformanceRank (lower = faster)
  int nvlinks = 0;            // active NVLinks of `from` whose far end is `to`
  int nvlink_version = 0;
  // NVML's common ancestor as nvidia-smi topo names it when no NVLink joins the two:
  // "PIX", "PXB", "PHB", "NODE", "SYS"; empty: unknown.
  std::string pcie_path;

  // nvidia-smi topo -m's cell: "NV18" with NVLinks, else the PCIe path, else "?".
  std::string link_label() const;
  // NVLinks x the rate of their version, GB/s (1e9 B/s) per direction; 0 without NVLink.
  double nvlink_gbps_per_direction() const;
};

struct Topology {
  std::vector<GpuTopology> gpus;
  std::vector<PairTopology> pairs;  // every ordered pair (n x (n-1))
  bool nvml = false;                // NVML answered (else links, NUMA, affinity are unknown)
  std::string note;                 // why something is unknown, for the reader

  const PairTopology* pair(int from, int to) const;
};

// NVLink data rate per link and direction in GB/s for NVML's version number: 1 (P100) 20,
// 2 (V100) 25, 3 (A100) 25, 4 (H100/H200) 25, 5 (B200) 50; 0 when unknown.
double nvlink_gbps_per_link(int version);

// NVML's nvmlGpuTopologyLevel_t as nvidia-smi topo names it: 0 (same board) "INT", 10 "PIX",
// 20 "PXB", 30 "PHB", 40 "NODE", 50 "SYS"; empty for other values.
std::string pcie_path_name(int nvml_level);

// NVML's CPU affinity bit mask (64 CPUs per word, CPU 0 = bit 0 of word 0) as "0-47,96-143".
std::string format_cpu_ranges(const std::vector<unsigned long long>& mask);

// The matrix `memlab info` prints (rows: from, columns: to) and one line per GPU.
std::string render_topology(const Topology& topology);
// {"nvml": bool, "note": str, "gpus": [...], "pairs": [{"from","to","peer_access",
//  "peer_atomics","perf_rank","nvlinks","nvlink_version","nvlink_gbps_per_direction",
//  "pcie_path","link"}]}
std::string topology_json(const Topology& topology);
// The inverse of topology_json (reads a saved `memlab info --json` "topology" value); throws
// std::runtime_error naming the key on a malformed document.
Topology parse_topology_json(const std::string& text);

// What NVML says about one GPU's links (src/cuda/nvml.cpp; nullopt without NVML).
struct NvmlLinks {
  struct Link {
    int version = 0;
    int remote_domain = 0, remote_bus = 0, remote_device = 0;  // the far end's PCI address
  };
  std::vector<Link> active;  // one per active NVLink
  int numa_node = -1;
  std::string cpu_affinity;
};
struct DeviceInfo;
std::optional<NvmlLinks> read_nvml_links(const DeviceInfo& device);
// nvmlDeviceGetTopologyCommonAncestor's level for two GPUs; -1 when NVML cannot say.
int read_nvml_common_ancestor(const DeviceInfo& a, const DeviceInfo& b);

// Filled from the CUDA runtime and NVML (src/cuda/topology.cpp). Throws CudaError.
Topology query_topology();

}  // namespace memlab
