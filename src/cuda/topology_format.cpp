// Host-only half of the topology: link rates, the table and the JSON (no CUDA headers).
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "memlab/cuda/topology.hpp"

namespace memlab {

double nvlink_gbps_per_link(int version) {
  switch (version) {
    case 1:
      return 20.0;
    case 2:
    case 3:
    case 4:
      return 25.0;
    case 5:
      return 50.0;
    default:
      return 0.0;
  }
}

std::string pcie_path_name(int level) {
  switch (level) {
    case 0:
      return "INT";
    case 10:
      return "PIX";
    case 20:
      return "PXB";
    case 30:
      return "PHB";
    case 40:
      return "NODE";
    case 50:
      return "SYS";
    default:
      return {};
  }
}

std::string PairTopology::link_label() const {
  if (nvlinks > 0) return fmt::format("NV{}", nvlinks);
  if (!pcie_path.empty()) return pcie_path;
  return "?";
}

double PairTopology::nvlink_gbps_per_direction() const {
  return nvlinks * nvlink_gbps_per_link(nvlink_version);
}

const PairTopology* Topology::pair(int from, int to) const {
  for (const PairTopology& p : pairs) {
    if (p.from == from && p.to == to) return &p;
  }
  return nullptr;
}

std::string render_topology(const Topology& t) {
  std::string out = fmt::format("GPUs: {}\n", t.gpus.size());
  for (const GpuTopology& g : t.gpus) {
    std::string pcie = g.pcie_gen > 0 ? fmt::format("PCIe gen{} x{}", g.pcie_gen, g.pcie_width)
                                      : std::string("PCIe ?");
    if (g.pcie_max_gen > 0 && (g.pcie_max_gen != g.pcie_gen || g.pcie_max_width != g.pcie_width))
      pcie += fmt::format(" (max gen{} x{})", g.pcie_max_gen, g.pcie_max_width);
    out += fmt::format(
        "  GPU{} {} {} bus {}; {}; NUMA {}; CPUs {}; NVLinks {}{}\n", g.ordinal, g.name, g.uuid,
        g.pci_bus_id, pcie, g.numa_node >= 0 ? std::to_string(g.numa_node) : std::string("?"),
        g.cpu_affinity.empty() ? std::string("?") : g.cpu_affinity, g.nvlinks_active,
        g.nvlink_version > 0 ? fmt::format(" (version {})", g.nvlink_version) : std::string());
  }
  if (t.gpus.size() < 2) {
    out += "pairs: none (one GPU)\n";
  } else {
    out +=
        "links (row -> column; NV# = NVLinks, else the PCIe path; p = peer access, "
        "a = peer atomics):\n      ";
    for (const GpuTopology& g : t.gpus)
      out += fmt::format("{:>10}", fmt::format("GPU{}", g.ordinal));
    out += "\n";
    for (const GpuTopology& from : t.gpus) {
      out += fmt::format("{:<6}", fmt::format("GPU{}", from.ordinal));
      for (const GpuTopology& to : t.gpus) {
        const PairTopology* p = t.pair(from.ordinal, to.ordinal);
        std::string cell = "X";
        if (p != nullptr) {
          cell = p->link_label() + (p->peer_access ? " p" : " -") + (p->peer_atomics ? "a" : "-");
        }
        out += fmt::format("{:>10}", cell);
      }
      out += "\n";
    }
    for (const PairTopology& p : t.pairs) {
      if (p.nvlinks > 0) {
        out +=
            fmt::format("  GPU{} -> GPU{}: {} NVLinks version {}: {:.0f} GB/s per direction\n",
                        p.from, p.to, p.nvlinks, p.nvlink_version, p.nvlink_gbps_per_direction());
      }
    }
  }
  if (!t.note.empty()) out += "note: " + t.note + "\n";
  return out;
}

std::string topology_json(const Topology& t) {
  nlohmann::json gpus = nlohmann::json::array(), pairs = nlohmann::json::array();
  for (const GpuTopology& g : t.gpus) {
    gpus.push_back({{"ordinal", g.ordinal},
                    {"name", g.name},
                    {"uuid", g.uuid},
                    {"pci_bus_id", g.pci_bus_id},
                    {"pcie",
                     {{"generation", g.pcie_gen},
                      {"width", g.pcie_width},
                      {"max_generation", g.pcie_max_gen},
                      {"max_width", g.pcie_max_width}}},
                    {"numa_node", g.numa_node},
                    {"cpu_affinity", g.cpu_affinity},
                    {"nvlinks_active", g.nvlinks_active},
                    {"nvlink_version", g.nvlink_version}});
  }
  for (const PairTopology& p : t.pairs) {
    pairs.push_back({{"from", p.from},
                     {"to", p.to},
                     {"peer_access", p.peer_access},
                     {"peer_atomics", p.peer_atomics},
                     {"perf_rank", p.perf_rank},
                     {"nvlinks", p.nvlinks},
                     {"nvlink_version", p.nvlink_version},
                     {"nvlink_gbps_per_direction", p.nvlink_gbps_per_direction()},
                     {"pcie_path", p.pcie_path},
                     {"link", p.link_label()}});
  }
  const nlohmann::json j = {{"nvml", t.nvml}, {"note", t.note}, {"gpus", gpus}, {"pairs", pairs}};
  return j.dump(2);
}

namespace {

template <class T>
T get(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) {
    throw std::runtime_error(fmt::format("topology JSON: missing key '{}'", key));
  }
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(fmt::format("topology JSON: key '{}' has the wrong type", key));
  }
}

}  // namespace

Topology parse_topology_json(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(std::string("topology JSON: ") + e.what());
  }
  Topology t;
  t.nvml = get<bool>(j, "nvml");
  t.note = get<std::string>(j, "note");
  for (const nlohmann::json& g : get<nlohmann::json>(j, "gpus")) {
    GpuTopology x;
    x.ordinal = get<int>(g, "ordinal");
    x.name = get<std::string>(g, "name");
    x.uuid = get<std::string>(g, "uuid");
    x.pci_bus_id = get<std::string>(g, "pci_bus_id");
    const auto pcie = get<nlohmann::json>(g, "pcie");
    x.pcie_gen = get<int>(pcie, "generation");
    x.pcie_width = get<int>(pcie, "width");
    x.pcie_max_gen = get<int>(pcie, "max_generation");
    x.pcie_max_width = get<int>(pcie, "max_width");
    x.numa_node = get<int>(g, "numa_node");
    x.cpu_affinity = get<std::string>(g, "cpu_affinity");
    x.nvlinks_active = get<int>(g, "nvlinks_active");
    x.nvlink_version = get<int>(g, "nvlink_version");
    t.gpus.push_back(std::move(x));
  }
  for (const nlohmann::json& p : get<nlohmann::json>(j, "pairs")) {
    PairTopology x;
    x.from = get<int>(p, "from");
    x.to = get<int>(p, "to");
    x.peer_access = get<bool>(p, "peer_access");
    x.peer_atomics = get<bool>(p, "peer_atomics");
    x.perf_rank = get<int>(p, "perf_rank");
    x.nvlinks = get<int>(p, "nvlinks");
    x.nvlink_version = get<int>(p, "nvlink_version");
    x.pcie_path = get<std::string>(p, "pcie_path");
    t.pairs.push_back(std::move(x));
  }
  return t;
}

}  // namespace memlab

namespace memlab {

std::string format_cpu_ranges(const std::vector<unsigned long long>& mask) {
  std::string out;
  const int bits = static_cast<int>(mask.size()) * 64;
  for (int cpu = 0; cpu < bits;) {
    auto set = [&](int c) { return c < bits && ((mask[c / 64] >> (c % 64)) & 1ULL) != 0; };
    if (!set(cpu)) {
      ++cpu;
      continue;
    }
    int last = cpu;
    while (set(last + 1)) ++last;
    if (!out.empty()) out += ',';
    out += last == cpu ? fmt::format("{}", cpu) : fmt::format("{}-{}", cpu, last);
    cpu = last + 1;
  }
  return out;
}

}  // namespace memlab
