// RAII owners of device and pinned host memory. No bare cudaMalloc/cudaFree outside this folder.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "memlab/cuda/check.hpp"

namespace memlab {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) {
      MEMLAB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()));
    }
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  T* get() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

  // Fill every byte with `value` (0xFF poisons floats to NaN and integers to -1 / max).
  void fill_bytes(int value, cudaStream_t stream = nullptr) const {
    if (count_ > 0) MEMLAB_CUDA_CHECK(cudaMemsetAsync(ptr_, value, bytes(), stream));
  }
  void copy_from_host(const T* src, std::size_t count) const {
    MEMLAB_CUDA_CHECK(cudaMemcpy(ptr_, src, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void copy_to_host(T* dst, std::size_t count) const {
    MEMLAB_CUDA_CHECK(cudaMemcpy(dst, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  void reset() noexcept {
    if (ptr_ != nullptr) cudaFree(ptr_);  // destructors never throw
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// Page-locked host memory (cudaHostAlloc). `flags` may add cudaHostAllocWriteCombined etc.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count, unsigned flags = cudaHostAllocDefault) : count_(count) {
    if (count_ > 0) {
      MEMLAB_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&ptr_), bytes(), flags));
    }
  }
  ~PinnedBuffer() { reset(); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  T* get() const noexcept { return ptr_; }
  T& operator[](std::size_t i) const noexcept { return ptr_[i]; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  void reset() noexcept {
    if (ptr_ != nullptr) cudaFreeHost(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// Managed (unified) memory: cudaMallocManaged; the driver migrates pages on demand.
template <class T>
class ManagedBuffer {
 public:
  ManagedBuffer() = default;
  explicit ManagedBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) {
      MEMLAB_CUDA_CHECK(cudaMallocManaged(reinterpret_cast<void**>(&ptr_), bytes()));
    }
  }
  ~ManagedBuffer() { reset(); }
  ManagedBuffer(const ManagedBuffer&) = delete;
  ManagedBuffer& operator=(const ManagedBuffer&) = delete;
  ManagedBuffer(ManagedBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  ManagedBuffer& operator=(ManagedBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  T* get() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  void reset() noexcept {
    if (ptr_ != nullptr) cudaFree(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// Pins an existing host range for its lifetime (cudaHostRegister / cudaHostUnregister).
class HostRegistration {
 public:
  HostRegistration(void* ptr, std::size_t bytes, unsigned flags = cudaHostRegisterDefault)
      : ptr_(ptr) {
    MEMLAB_CUDA_CHECK(cudaHostRegister(ptr, bytes, flags));
  }
  ~HostRegistration() {
    if (ptr_ != nullptr) cudaHostUnregister(ptr_);
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;

 private:
  void* ptr_;
};

}  // namespace memlab
