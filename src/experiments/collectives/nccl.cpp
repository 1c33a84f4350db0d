#include "collectives/nccl.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>

namespace memlab::lessons::collectives {
namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

// Folders named python3* under `lib`, each with site-packages and dist-packages (once each).
void add_python_versions(const fs::path& lib, std::vector<std::string>& out) {
  std::error_code ec;
  if (!fs::is_directory(lib, ec)) return;
  for (const auto& entry : fs::directory_iterator(lib, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("python3", 0) != 0) continue;
    for (const char* sub : {"site-packages", "dist-packages"}) {
      const std::string dir = (entry.path() / sub).string();
      if (fs::is_directory(dir, ec) && std::find(out.begin(), out.end(), dir) == out.end())
        out.push_back(dir);
    }
  }
}

}  // namespace

std::vector<std::string> python_package_dirs() {
  std::vector<std::string> out;
  std::error_code ec;
  const std::string pythonpath = env("PYTHONPATH");
  std::size_t pos = 0;
  while (!pythonpath.empty() && pos <= pythonpath.size()) {
    const std::size_t colon = pythonpath.find(':', pos);
    const std::string dir =
        pythonpath.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    if (!dir.empty() && fs::is_directory(dir, ec)) out.push_back(dir);
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  // The environment of every python3 on PATH (a venv's bin/ is there without VIRTUAL_ENV).
  const std::string path = env("PATH");
  pos = 0;
  while (!path.empty() && pos <= path.size()) {
    const std::size_t colon = path.find(':', pos);
    const fs::path dir =
        path.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    if (!dir.empty() && fs::exists(dir / "python3", ec))
      add_python_versions(dir.parent_path() / "lib", out);
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    const std::string root = env(var);
    if (!root.empty()) add_python_versions(fs::path(root) / "lib", out);
  }
  const std::string home = env("HOME");
  if (!home.empty()) {
    add_python_versions(fs::path(home) / ".local/lib", out);
    const fs::path pyenv = fs::path(home) / ".pyenv/versions";
    if (fs::is_directory(pyenv, ec)) {
      for (const auto& v : fs::directory_iterator(pyenv, ec))
        add_python_versions(v.path() / "lib", out);
    }
  }
  add_python_versions("/usr/local/lib", out);
  add_python_versions("/usr/lib", out);
  return out;
}

std::vector<std::string> nccl_candidates(const std::string& override_path,
                                         const std::vector<std::string>& python_dirs) {
  if (!override_path.empty()) return {override_path};
  std::vector<std::string> out{"libnccl.so.2"};
  for (const std::string& d : python_dirs) {
    out.push_back((fs::path(d) / "nvidia/nccl/lib/libnccl.so.2").string());
  }
  return out;
}

namespace {

template <class F>
bool load(void* h, F& fn, const char* name, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(h, name));
  if (fn == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(name);
  return fn != nullptr;
}

NcclApi open_nccl() {
  // NVLS (NVLink SHARP multicast) off, whatever the environment says: on shared machines a
  // multicast object can take the host's GPUs out of service.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  NcclApi api;
  const std::string override_path = env("MEMLAB_NCCL_LIBRARY");
  void* h = nullptr;
  std::string tried;
  for (const std::string& c : nccl_candidates(override_path, python_package_dirs())) {
    h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h != nullptr) {
      api.path = c;
      break;
    }
    tried += (tried.empty() ? "" : ", ") + c;
  }
  if (h == nullptr) {
    api.failure =
        override_path.empty()
            ? fmt::format("NCCL not found (tried {}); set MEMLAB_NCCL_LIBRARY", tried)
            : fmt::format("MEMLAB_NCCL_LIBRARY={} cannot be loaded: {}", override_path, dlerror());
    return api;
  }
  std::string missing;
  load(h, api.get_version, "ncclGetVersion", missing);
  load(h, api.get_unique_id, "ncclGetUniqueId", missing);
  load(h, api.comm_init_rank, "ncclCommInitRank", missing);
  load(h, api.comm_init_all, "ncclCommInitAll", missing);
  load(h, api.comm_destroy, "ncclCommDestroy", missing);
  load(h, api.error_string, "ncclGetErrorString", missing);
  load(h, api.all_reduce, "ncclAllReduce", missing);
  load(h, api.all_gather, "ncclAllGather", missing);
  load(h, api.reduce_scatter, "ncclReduceScatter", missing);
  load(h, api.broadcast, "ncclBroadcast", missing);
  load(h, api.send, "ncclSend", missing);
  load(h, api.recv, "ncclRecv", missing);
  load(h, api.group_start, "ncclGroupStart", missing);
  load(h, api.group_end, "ncclGroupEnd", missing);
  if (!missing.empty()) {
    api.failure = fmt::format("{} lacks {}", api.path, missing);
    return api;
  }
  api.get_version(&api.version);
  return api;  // the handle stays open for the life of the process
}

}  // namespace

const NcclApi& nccl() {
  static std::once_flag once;
  static NcclApi api;
  std::call_once(once, [] { api = open_nccl(); });
  return api;
}

void nccl_check(ncclResult_t r, const char* call) {
  if (r == 0) return;
  const NcclApi& a = nccl();
  throw std::runtime_error(fmt::format("NCCL {}: error {}: {}", call, r,
                                       a.error_string != nullptr ? a.error_string(r) : "?"));
}

}  // namespace memlab::lessons::collectives
