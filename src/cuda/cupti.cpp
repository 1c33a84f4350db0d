// CUPTI range profiler, opened at run time (dlopen): `memlab run --counters`. The declarations
// come from the CUDA toolkit's CUPTI headers (types and struct sizes only); memlab never links
// libcupti, so a machine without it runs memlab without counters.
#include "memlab/cuda/cupti.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <map>

#include "memlab/cuda/check.hpp"

#ifndef MEMLAB_CUDA_ROOT
#define MEMLAB_CUDA_ROOT "/usr/local/cuda"
#endif

namespace memlab {
namespace {

struct Api {
  void* handle = nullptr;
  std::string path;
  std::string error;
#define MEMLAB_CUPTI_FN(name) decltype(&::name) name = nullptr
  MEMLAB_CUPTI_FN(cuptiGetResultString);
  MEMLAB_CUPTI_FN(cuptiProfilerInitialize);
  MEMLAB_CUPTI_FN(cuptiProfilerDeInitialize);
  MEMLAB_CUPTI_FN(cuptiDeviceGetChipName);
  MEMLAB_CUPTI_FN(cuptiProfilerGetCounterAvailability);
  MEMLAB_CUPTI_FN(cuptiProfilerHostInitialize);
  MEMLAB_CUPTI_FN(cuptiProfilerHostDeinitialize);
  MEMLAB_CUPTI_FN(cuptiProfilerHostConfigAddMetrics);
  MEMLAB_CUPTI_FN(cuptiProfilerHostGetConfigImageSize);
  MEMLAB_CUPTI_FN(cuptiProfilerHostGetConfigImage);
  MEMLAB_CUPTI_FN(cuptiProfilerHostGetNumOfPasses);
  MEMLAB_CUPTI_FN(cuptiProfilerHostGetMetricProperties);
  MEMLAB_CUPTI_FN(cuptiProfilerHostEvaluateToGpuValues);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerEnable);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerDisable);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerGetCounterDataSize);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerCounterDataImageInitialize);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerSetConfig);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerStart);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerStop);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerPushRange);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerPopRange);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerDecodeData);
  MEMLAB_CUPTI_FN(cuptiRangeProfilerGetCounterDataInfo);
#undef MEMLAB_CUPTI_FN
};

// A CUPTI parameter struct: zeroed, its size set (CUPTI's versioning of the struct).
template <class P>
P params(std::size_t size) {
  P p{};
  p.structSize = size;
  return p;
}

template <class F>
bool resolve(void* handle, F& fn, const char* name, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  if (fn == nullptr && missing.empty()) missing = name;
  return fn != nullptr;
}

Api open_api() {
  Api a;
  const std::vector<std::string> candidates = cupti_library_candidates();
  const char* env = std::getenv("MEMLAB_CUPTI_LIBRARY");
  std::string last;
  for (const std::string& c : candidates) {
    a.handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (a.handle != nullptr) {
      a.path = c;
      break;
    }
    const char* e = dlerror();
    last = e != nullptr ? e : "cannot open";
  }
  if (a.handle == nullptr) {
    if (env != nullptr && *env != '\0') {
      a.error = fmt::format("MEMLAB_CUPTI_LIBRARY={}: {}", env, last);
    } else {
      a.error = fmt::format(
          "libcupti not found (tried {} and {} more; set MEMLAB_CUPTI_LIBRARY to its path)",
          candidates.front(), candidates.size() - 1);
    }
    return a;
  }
  std::string missing;
#define MEMLAB_CUPTI_LOAD(name) resolve(a.handle, a.name, #name, missing)
  MEMLAB_CUPTI_LOAD(cuptiGetResultString);
  MEMLAB_CUPTI_LOAD(cuptiProfilerInitialize);
  MEMLAB_CUPTI_LOAD(cuptiProfilerDeInitialize);
  MEMLAB_CUPTI_LOAD(cuptiDeviceGetChipName);
  MEMLAB_CUPTI_LOAD(cuptiProfilerGetCounterAvailability);
  MEMLAB_CUPTI_LOAD(cuptiProfilerHostInitialize);
  MEMLAB_CUPTI_LOAD(cuptiProfilerHostDeinitialize);
  MEMLAB_CUPTI_LOAD(cuptiProfilerHostConfigAddMetrics);
  MEMLAB_CUPTI_LOAD(cuptiProfilerHostGetConfigImageSize);
  MEMLAB_CUPTI_LOAD(cuptiProfilerHostGetConfigImage);
  MEMLAB_CUPTI_LOAD(cuptiProfilerHostGetNumOfPasses);
  MEMLAB_CUPTI_LOAD(cuptiProfilerHostGetMetricProperties);
  MEMLAB_CUPTI_LOAD(cuptiProfilerHostEvaluateToGpuValues);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerEnable);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerDisable);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerGetCounterDataSize);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerCounterDataImageInitialize);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerSetConfig);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerStart);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerStop);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerPushRange);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerPopRange);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerDecodeData);
  MEMLAB_CUPTI_LOAD(cuptiRangeProfilerGetCounterDataInfo);
#undef MEMLAB_CUPTI_LOAD
  if (!missing.empty()) {
    a.error = fmt::format("{} has no {} (the range profiler needs CUPTI from CUDA 12.6 or later)",
                          a.path, missing);
  }
  return a;
}

Api& api() {
  static Api a = open_api();
  return a;
}

Api& usable_api() {
  Api& a = api();
  if (!a.error.empty()) throw CountersUnavailable(a.error);
  return a;
}

std::string describe(CUptiResult r) {
  const char* text = nullptr;
  if (api().cuptiGetResultString != nullptr) api().cuptiGetResultString(r, &text);
  std::string s = text != nullptr ? text : fmt::format("CUPTI error {}", static_cast<int>(r));
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
      r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
    s += " (the driver restricts GPU counters to administrators: "
         "NVreg_RestrictProfilingToAdminUsers)";
  }
  return s;
}

// Every CUPTI failure means: no counters here (the caller carries on without them).
void check(CUptiResult r, const char* call) {
  if (r != CUPTI_SUCCESS) throw CountersUnavailable(fmt::format("{}: {}", call, describe(r)));
}
#define MEMLAB_CUPTI(call, params) check(api().call(&params), #call)

// A host object with the metrics added and its config image (one per metric set).
struct Config {
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<std::uint8_t> image;
  int passes = 0;
};

Config make_config(const std::string& chip, const std::vector<std::uint8_t>& availability,
                   const std::vector<const char*>& names) {
  Config c;
  auto init = params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.c_str();
  init.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  MEMLAB_CUPTI(cuptiProfilerHostInitialize, init);
  c.host = init.pHostObject;
  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = c.host;
  add.ppMetricNames = const_cast<const char**>(names.data());
  add.numMetrics = names.size();
  MEMLAB_CUPTI(cuptiProfilerHostConfigAddMetrics, add);
  auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = c.host;
  MEMLAB_CUPTI(cuptiProfilerHostGetConfigImageSize, size);
  c.image.resize(size.configImageSize);
  auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = c.host;
  image.configImageSize = c.image.size();
  image.pConfigImage = c.image.data();
  MEMLAB_CUPTI(cuptiProfilerHostGetConfigImage, image);
  auto passes = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  passes.configImageSize = c.image.size();
  passes.pConfigImage = c.image.data();
  MEMLAB_CUPTI(cuptiProfilerHostGetNumOfPasses, passes);
  c.passes = static_cast<int>(passes.numOfPasses);
  return c;
}

void release(Config& c) {
  if (c.host == nullptr) return;
  auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  p.pHostObject = c.host;
  api().cuptiProfilerHostDeinitialize(&p);
  c.host = nullptr;
}

std::vector<const char*> c_names(const std::vector<std::string>& metrics) {
  std::vector<const char*> out;
  for (const std::string& m : metrics) out.push_back(m.c_str());
  return out;
}

}  // namespace

std::vector<std::string> cupti_library_candidates() {
  const char* env = std::getenv("MEMLAB_CUPTI_LIBRARY");
  if (env != nullptr && *env != '\0') return {env};
  std::vector<std::string> out = {"libcupti.so.13", "libcupti.so"};
  std::vector<std::string> roots;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* v = std::getenv(var); v != nullptr && *v != '\0') roots.emplace_back(v);
  }
  roots.emplace_back(MEMLAB_CUDA_ROOT);
  roots.emplace_back("/usr/local/cuda");
  for (const std::string& root : roots) {
    for (const char* dir : {"/lib64/", "/extras/CUPTI/lib64/"}) {
      for (const char* file : {"libcupti.so.13", "libcupti.so"}) {
        std::string path = root + dir + file;
        bool seen = false;
        for (const std::string& o : out) seen = seen || o == path;
        if (!seen) out.push_back(std::move(path));
      }
    }
  }
  return out;
}

std::string cupti_load_error() {
  return api().error;
}
std::string cupti_library_path() {
  return api().path;
}

std::string check_metric_names(const std::string& chip, const std::vector<std::string>& metrics,
                               int* passes) {
  usable_api();
  auto init = params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.c_str();
  MEMLAB_CUPTI(cuptiProfilerHostInitialize, init);
  Config c;
  c.host = init.pHostObject;
  std::string bad;
  for (const std::string& m : metrics) {
    auto p = params<CUpti_Profiler_Host_GetMetricProperties_Params>(
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
    p.pHostObject = c.host;
    p.pMetricName = m.c_str();
    if (const CUptiResult r = api().cuptiProfilerHostGetMetricProperties(&p); r != CUPTI_SUCCESS) {
      bad = fmt::format("{}: {}", m, describe(r));
      break;
    }
  }
  release(c);
  if (bad.empty() && passes != nullptr) {
    Config all = make_config(chip, {}, c_names(metrics));
    *passes = all.passes;
    release(all);
  }
  return bad;
}

struct CounterSession::Impl {
  int device = 0;
  CUcontext context = nullptr;
  std::string chip;
  std::vector<std::uint8_t> availability;
  std::map<std::string, Config> configs;  // by the metric names joined
  bool initialized = false;
};

CounterSession::CounterSession(int device) : impl_(std::make_unique<Impl>()) {
  usable_api();
  impl_->device = device;
  MEMLAB_CUDA_CHECK(cudaSetDevice(device));
  MEMLAB_CUDA_CHECK(cudaFree(nullptr));  // the primary context exists from here on
  void* get_current = nullptr;
  cudaDriverEntryPointQueryResult found{};
  MEMLAB_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &get_current, 12000,
                                                     cudaEnableDefault, &found));
  if (get_current == nullptr || found != cudaDriverEntryPointSuccess) {
    throw CountersUnavailable("the driver has no cuCtxGetCurrent");
  }
  reinterpret_cast<CUresult (*)(CUcontext*)>(get_current)(&impl_->context);

  auto init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  MEMLAB_CUPTI(cuptiProfilerInitialize, init);
  impl_->initialized = true;
  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  MEMLAB_CUPTI(cuptiDeviceGetChipName, chip);
  impl_->chip = chip.pChipName;
  auto avail = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = impl_->context;
  MEMLAB_CUPTI(cuptiProfilerGetCounterAvailability, avail);
  impl_->availability.resize(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = impl_->availability.data();
  MEMLAB_CUPTI(cuptiProfilerGetCounterAvailability, avail);
}

CounterSession::~CounterSession() {
  for (auto& [key, config] : impl_->configs) release(config);
  if (impl_->initialized) {
    auto p =
        params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    api().cuptiProfilerDeInitialize(&p);
  }
}

const std::string& CounterSession::chip() const {
  return impl_->chip;
}

CounterSession::Result CounterSession::collect(const std::vector<std::string>& metrics,
                                               const std::function<void()>& before_pass,
                                               const std::function<void()>& work) {
  const std::vector<const char*> names = c_names(metrics);
  std::string key;
  for (const std::string& m : metrics) key += m + ',';
  auto it = impl_->configs.find(key);
  if (it == impl_->configs.end()) {
    it = impl_->configs.emplace(key, make_config(impl_->chip, impl_->availability, names)).first;
  }
  const Config& config = it->second;

  auto enable =
      params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = impl_->context;
  MEMLAB_CUPTI(cuptiRangeProfilerEnable, enable);
  CUpti_RangeProfiler_Object* object = enable.pRangeProfilerObject;
  // Disabled on every way out, also when the work throws.
  struct Disable {
    CUpti_RangeProfiler_Object* object;
    ~Disable() {
      auto p = params<CUpti_RangeProfiler_Disable_Params>(
          CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
      p.pRangeProfilerObject = object;
      api().cuptiRangeProfilerDisable(&p);
    }
  } disable{object};

  auto size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = object;
  size.pMetricNames = const_cast<const char**>(names.data());
  size.numMetrics = names.size();
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  MEMLAB_CUPTI(cuptiRangeProfilerGetCounterDataSize, size);
  std::vector<std::uint8_t> data(size.counterDataSize);
  auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = object;
  init.counterDataSize = data.size();
  init.pCounterData = data.data();
  MEMLAB_CUPTI(cuptiRangeProfilerCounterDataImageInitialize, init);

  auto set = params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  set.pRangeProfilerObject = object;
  set.configSize = config.image.size();
  set.pConfig = config.image.data();
  set.counterDataImageSize = data.size();
  set.pCounterDataImage = data.data();
  set.range = CUPTI_UserRange;
  set.replayMode = CUPTI_UserReplay;
  set.maxRangesPerPass = 1;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  MEMLAB_CUPTI(cuptiRangeProfilerSetConfig, set);

  Result result;
  for (bool all_submitted = false; !all_submitted;) {
    if (result.passes >= 64)
      throw CountersUnavailable("the range profiler asked for over 64 passes");
    if (before_pass) before_pass();
    MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
    auto start =
        params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = object;
    MEMLAB_CUPTI(cuptiRangeProfilerStart, start);
    auto push = params<CUpti_RangeProfiler_PushRange_Params>(
        CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
    push.pRangeProfilerObject = object;
    push.pRangeName = "memlab";
    MEMLAB_CUPTI(cuptiRangeProfilerPushRange, push);
    work();
    MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
    auto pop = params<CUpti_RangeProfiler_PopRange_Params>(
        CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
    pop.pRangeProfilerObject = object;
    MEMLAB_CUPTI(cuptiRangeProfilerPopRange, pop);
    auto stop =
        params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = object;
    MEMLAB_CUPTI(cuptiRangeProfilerStop, stop);
    all_submitted = stop.isAllPassSubmitted != 0;
    ++result.passes;
  }
  auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = object;
  MEMLAB_CUPTI(cuptiRangeProfilerDecodeData, decode);
  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  MEMLAB_CUPTI(cuptiRangeProfilerGetCounterDataInfo, info);
  if (info.numTotalRanges < 1) throw CountersUnavailable("the range profiler recorded no range");
  result.values.assign(metrics.size(), 0.0);
  auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  eval.pHostObject = config.host;
  eval.pCounterDataImage = data.data();
  eval.counterDataImageSize = data.size();
  eval.rangeIndex = 0;
  eval.ppMetricNames = const_cast<const char**>(names.data());
  eval.numMetrics = names.size();
  eval.pMetricValues = result.values.data();
  MEMLAB_CUPTI(cuptiProfilerHostEvaluateToGpuValues, eval);
  return result;
}

}  // namespace memlab
