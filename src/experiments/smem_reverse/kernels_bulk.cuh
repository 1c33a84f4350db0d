// smem_reverse's cp.async.bulk variants (kernels_bulk.cu, kernels_pipelined.cu): sm_90, n a
// multiple of 4.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab::lessons::smem_reverse {

void launch_bulk_reverse(const float* in, float* out, std::size_t n, cudaStream_t stream);
void launch_pipelined_reverse(const float* in, float* out, std::size_t n, cudaStream_t stream);
// bulk_pipelined_many: 8 KiB stages, 6 blocks per SM, evict-first hints.
void launch_pipelined_many_reverse(const float* in, float* out, std::size_t n, cudaStream_t stream);

}  // namespace memlab::lessons::smem_reverse
