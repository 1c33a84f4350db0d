// compute-sanitizer output for the diagnosis tests (tests/host/test_diagnosis.cpp). The first
// group is as NVIDIA's Compute Sanitizer documentation prints it (docs.nvidia.com/compute-
// sanitizer, 2024-2025: memcheck_demo, block_error, warp_error, divergent_threads,
// illegal_syncwarp) and an older CUDA-MEMCHECK racecheck report; the second group is the same
// forms written for the exercises' kernels (file kernel.cu, their lines and threads), as the
// worker's NVRTC image with -lineinfo makes the tools print them.
#pragma once

namespace memlab::exercise::samples {

// Racecheck, --racecheck-report analysis (the documentation's block_error).
inline constexpr const char* kDocRaceAnalysis = R"(========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at sumKernel(int *, int *)+0x90 in /home/cuda/github/compute-sanitizer-samples/Racecheck/block_error.cu:41
=========     and Read access at sumKernel(int *, int *)+0x100 in /home/cuda/github/compute-sanitizer-samples/Racecheck/block_error.cu:51 [508 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
)";

// Racecheck, --racecheck-report hazard (the documentation's warp_error).
inline constexpr const char* kDocRaceHazard =
    R"(========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x8c in block (0,0,0) :
=========     Write Thread (35,0,0) at sumKernel(int *, int *)+0x90 in /home/cuda/github/compute-sanitizer-samples/Racecheck/warp_error.cu:44
=========     Read Thread (32,0,0) at sumKernel(int *, int *)+0x120 in /home/cuda/github/compute-sanitizer-samples/Racecheck/warp_error.cu:56
=========     Current Value : 35
)";

// CUDA-MEMCHECK's older hazard form: spaces in the triples, the function after file:line.
inline constexpr const char* kOldRaceHazard =
    R"(========= WARN:(Warp Level Programming) Potential WAR hazard detected at __shared__ 0x3 in block (0, 0, 0) :
=========     Read Thread (31, 0, 0) at 0x00000170 in ./race.cu:4:test(int*, int*)
=========     Write Thread (0, 0, 0) at 0x000001a8 in ./race.cu:4:test(int*, int*)
=========     Current Value : 0, Incoming Value : 0
=========     Saved host backtrace up to driver entry point at kernel launch time
=========     Host Frame:/lib64/libcuda.so.1 (cuLaunchKernel + 0x346) [0x297db6]
=========
)";

// A summarised race without line information, three locations (a kernel built without -lineinfo).
inline constexpr const char* kRaceNoLines =
    R"(========= Error: Race reported between Write access at p10_shared_memory_race+0x140
=========     and Read access at p10_shared_memory_race+0xe0 [4 hazards]
=========     and Write access at p10_shared_memory_race+0x140 [5 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
)";

// Memcheck (the documentation's memcheck_demo, debug build).
inline constexpr const char* kDocMemcheck = R"(========= COMPUTE-SANITIZER
Mallocing memory
========= Invalid __global__ write of size 4 bytes
=========     at unaligned_kernel()+0x100 in memcheck_demo.cu:34
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7cc43aa00001 is misaligned
=========     and is inside the nearest allocation at 0x7cc43aa00000 of size 4 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: run_unaligned() [0xacd4] in memcheck_demo
=========
Running unaligned_kernel: no error
========= Invalid __global__ write of size 4 bytes
=========     at out_of_bounds_function()+0xb0 in memcheck_demo.cu:39
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x87654320 is out of bounds
=========     and is 137,179,965,340,896 bytes before the nearest allocation at 0x7cc43a800000 of size 1,024 bytes
=========     Device Frame: out_of_bounds_kernel()+0x30 in memcheck_demo.cu:44
=========
Running out_of_bounds_kernel: no error
========= ERROR SUMMARY: 2 errors
)";

// Synccheck (the documentation's divergent_threads and illegal_syncwarp).
inline constexpr const char* kDocSynccheck =
    R"(========= Barrier error detected. Divergent thread(s) in block.
=========     at [clone myKernel(int *, int *)] outlineSync()+0x11f0 in test.cu:42
=========     by thread (32,0,0) in block (0,0,0)
=========     Device Frame: myKernel(int *, int *)+0xe40 in test.cu:60
=========
========= Barrier error detected. Invalid arguments
=========     at __cuda_sm70_warpsync+0x30
=========     by thread (0,0,0) in block (0,0,0)
=========     Device Frame:__syncwarp(unsigned int)+0xf0 in /usr/local/cuda/include/sm_30_intrinsics.hpp:110
=========     Device Frame:myKernel(int *)+0x3c0 in /home/cuda/github/compute-sanitizer-samples/Synccheck/illegal_syncwarp.cu:48
=========
========= ERROR SUMMARY: 2 errors
)";

// matmul_tiled's solution without its two __syncthreads(): As written at line 13, Bs at 14, both
// read at 15; blocks of 16 x 16 threads (warp = two rows of ty). As[14][1] is byte 0x384,
// Bs[1][1] byte 0x400 + 0x44.
inline constexpr const char* kMatmulRacecheck = R"(========= COMPUTE-SANITIZER
========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x384 in block (0,0,0) :
=========     Write Thread (1,14,0) at matmul_tiled(const float *, const float *, float *, int, int, int)+0x1f0 in kernel.cu:13
=========     Read Thread (0,14,0) at matmul_tiled(const float *, const float *, float *, int, int, int)+0x2b0 in kernel.cu:15
=========     Current Value : 0
=========
========= Error: Potential RAW hazard detected at __shared__ 0x444 in block (1,0,0) :
=========     Write Thread (1,1,0) at matmul_tiled(const float *, const float *, float *, int, int, int)+0x210 in kernel.cu:14
=========     Read Thread (1,14,0) at matmul_tiled(const float *, const float *, float *, int, int, int)+0x2c0 in kernel.cu:15
=========     Current Value : 0
=========
========= Error: Potential RAW hazard detected at __shared__ 0x445 in block (1,0,0) :
=========     Write Thread (1,1,0) at matmul_tiled(const float *, const float *, float *, int, int, int)+0x210 in kernel.cu:14
=========     Read Thread (1,14,0) at matmul_tiled(const float *, const float *, float *, int, int, int)+0x2c0 in kernel.cu:15
=========     Current Value : 0
=========
========= Error: Potential WAR hazard detected at __shared__ 0x444 in block (0,1,0) :
=========     Read Thread (1,3,0) at matmul_tiled(const float *, const float *, float *, int, int, int)+0x2c0 in kernel.cu:15
=========     Write Thread (1,1,0) at matmul_tiled(const float *, const float *, float *, int, int, int)+0x210 in kernel.cu:14
=========     Current Value : 0, Incoming Value : 1056964608
=========
========= Error: Race reported between Write access at matmul_tiled(const float *, const float *, float *, int, int, int)+0x1f0 in kernel.cu:13
=========     and Read access at matmul_tiled(const float *, const float *, float *, int, int, int)+0x2b0 in kernel.cu:15 [1536 hazards]
=========
========= Error: Race reported between Write access at matmul_tiled(const float *, const float *, float *, int, int, int)+0x210 in kernel.cu:14
=========     and Read access at matmul_tiled(const float *, const float *, float *, int, int, int)+0x2c0 in kernel.cu:15 [3072 hazards]
=========
========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)
)";

// missing_syncthreads' starter (extern __shared__ float s[]; written at line 8, read at line 9),
// analysis form only.
inline constexpr const char* kReverseRacecheck =
    R"(========= Error: Race reported between Write access at reverse_segments(const float *, float *, int)+0x180 in kernel.cu:8
=========     and Read access at reverse_segments(const float *, float *, int)+0x2f0 in kernel.cu:9 [12288 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
)";

// vec_add without its bounds test (line 3: c[i] = a[i] + b[i];) at n = 5: one block of 256.
inline constexpr const char* kVecAddMemcheck = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at vec_add(const float *, const float *, float *, int)+0x90 in kernel.cu:3
=========     by thread (160,0,0) in block (0,0,0)
=========     Access at 0x7f3a2e000280 is out of bounds
=========     and is 620 bytes after the nearest allocation at 0x7f3a2e000000 of size 20 bytes
=========
========= Invalid __global__ read of size 4 bytes
=========     at vec_add(const float *, const float *, float *, int)+0x90 in kernel.cu:3
=========     by thread (161,0,0) in block (0,0,0)
=========     Access at 0x7f3a2e000284 is out of bounds
=========     and is 624 bytes after the nearest allocation at 0x7f3a2e000000 of size 20 bytes
=========
========= Invalid __global__ write of size 4 bytes
=========     at vec_add(const float *, const float *, float *, int)+0xb0 in kernel.cu:3
=========     by thread (5,0,0) in block (0,0,0)
=========     Address 0x7f3a2e000414 is out of bounds
=========     and is 0 bytes after the nearest allocation at 0x7f3a2e000400 of size 20 bytes
=========
========= ERROR SUMMARY: 3 errors
)";

// A __syncthreads() inside `if (threadIdx.x < 48)` (line 5 of the test's kernel).
inline constexpr const char* kDivergentSynccheck =
    R"(========= Barrier error detected. Divergent thread(s) in block.
=========     at reverse_static(const float *, float *, int)+0x1d0 in kernel.cu:5
=========     by thread (32,0,0) in block (0,0,0)
=========
========= Barrier error detected. Divergent thread(s) in block.
=========     at reverse_static(const float *, float *, int)+0x1d0 in kernel.cu:5
=========     by thread (33,0,0) in block (0,0,0)
=========
========= ERROR SUMMARY: 2 errors
)";

}  // namespace memlab::exercise::samples
