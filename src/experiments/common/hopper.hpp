// Host side of the Hopper variants: tensor maps for the Tensor Memory Accelerator, encoded through
// the driver's cuTensorMapEncodeTiled, reached by cudaGetDriverEntryPointByVersion (memlab links
// the CUDA runtime only, never libcuda); and the gate that keeps sm_90 variants off older GPUs.
#pragma once

#include <cuda.h>  // CUtensorMap and its enums (types only; no driver call is linked)

#include <cstdint>

namespace memlab::lessons::hopper {

// Why a Hopper variant is opt-in (Variant::opt_in): it compiles for sm_90 but has not yet passed
// its checks on a GPU. Remove the opt_in once scripts/device/verify.sh hopper has run green.
inline constexpr const char* kUnverified = "not yet verified on hardware (issue 16)";
// The skip reason on a GPU older than Hopper.
inline constexpr const char* kNeedsSm90 =
    "needs compute capability 9.0 (TMA, mbarrier transaction counts, clusters)";

// True on a device of compute capability 9.0 or newer, and without a device (so that the plan
// lists the variant; the run itself stops earlier for lack of a GPU).
bool sm90_or_no_device();
// True on a device of compute capability `major`.0 or newer, and without a device.
bool cc_at_least_or_no_device(int major);

// A tiled tensor map over a dense row-major tensor: `rank` dimensions, innermost first (dims[0]
// elements are contiguous), strides[i] = bytes between consecutive indices of dimension i + 1
// (multiples of 16), a box of box[i] elements (box[0] * element size a multiple of 16 bytes; with
// `swizzle128` at most 128 bytes). Elements outside the tensor read as zero. Throws CudaError
// naming the driver's result when the driver refuses the description.
CUtensorMap tensor_map(CUtensorMapDataType type, int rank, const void* base,
                       const std::uint64_t* dims, const std::uint64_t* strides,
                       const std::uint32_t* box, bool swizzle128);

}  // namespace memlab::lessons::hopper
