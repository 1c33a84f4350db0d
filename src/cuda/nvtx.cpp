#include "memlab/cuda/nvtx.hpp"

#include <nvtx3/nvToolsExt.h>

namespace memlab {

NvtxRange::NvtxRange(const std::string& name) {
  nvtxRangePushA(name.c_str());
}

NvtxRange::~NvtxRange() {
  nvtxRangePop();
}

}  // namespace memlab
