// An NVTX push/pop range (NVTX 3, header-only; a no-op unless a tool such as Nsight Compute is
// attached). Each variant's verification launch runs inside "memlab:EXPERIMENT/VARIANT/POINT", so
// `ncu --nvtx --print-nvtx-rename kernel` names its kernels after the record they belong to
// (scripts/device/verify.sh ncu).
#pragma once

#include <string>

namespace memlab {

class NvtxRange {
 public:
  explicit NvtxRange(const std::string& name);
  ~NvtxRange();
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace memlab
