// bandwidth's cp.async.bulk copies (kernels_bulk.cu, kernels_ring.cu): c = a for n floats, sm_90
// only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab::lessons::bandwidth {

void launch_bulk_copy(const float* a, float* c, std::size_t n, cudaStream_t stream);
// kernels_ring.cu: the persistent ring of stages (bulk_ring).
void launch_bulk_ring(const float* a, float* c, std::size_t n, cudaStream_t stream);
// The same ring with evict-first L2 hints (bulk_ring_hint); 8 KiB stages, 6 blocks/SM
// (bulk_ring_many).
void launch_bulk_ring_hint(const float* a, float* c, std::size_t n, cudaStream_t stream);
void launch_bulk_ring_many(const float* a, float* c, std::size_t n, cudaStream_t stream);

}  // namespace memlab::lessons::bandwidth
