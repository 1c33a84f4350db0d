// bandwidth's cp.async.bulk copy (kernels_bulk.cu): c = a for n floats, sm_90 only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab::lessons::bandwidth {

void launch_bulk_copy(const float* a, float* c, std::size_t n, cudaStream_t stream);

}  // namespace memlab::lessons::bandwidth
