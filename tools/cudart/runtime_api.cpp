// ptxmma's CUDA runtime: the entry points of libcudart.so.13 that nvcc's host code calls to
// register its kernels and launch them, and the memory functions programs use, implemented on the
// simulated device (tools/cudart/device.hpp). A CUDA program built with `nvcc -cudart shared`
// runs unchanged with this library in place of NVIDIA's (`ptxmma exec`; docs/cuda-programs.md).
//
// Errors behave as the CUDA runtime's: a call returns its error code and sets the last error; a
// failed kernel (a located PTX error) makes every later call fail with cudaErrorLaunchFailure, as
// a faulting kernel does on the GPU. Each error is also printed on stderr, prefixed "ptxmma:", so
// that a program that never checks its calls still shows what went wrong.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <iostream>
#include <mutex>
#include <vector>

#include "sim/error.hpp"
#include "tools/cudart/device.hpp"

namespace {

using ptxmma::cudart::Device;

// The runtime's types, laid out as cuda_runtime_api.h declares them (passed by value in registers).
struct dim3 {
  unsigned x, y, z;
};
using cudaError_t = int;
constexpr cudaError_t kSuccess = 0, kInvalidValue = 1, kMemoryAllocation = 2, kInvalidDevicePointer = 17,
                      kInvalidMemcpyDirection = 21, kInvalidDeviceFunction = 98, kInvalidDevice = 101,
                      kLaunchFailure = 719;
enum MemcpyKind { kHostToHost = 0, kHostToDevice = 1, kDeviceToHost = 2, kDeviceToDevice = 3, kDefault = 4 };

struct CallConfiguration {
  dim3 grid, block;
  std::size_t shared;
  void* stream;
};

struct Runtime {
  std::recursive_mutex lock;
  Device device;
  cudaError_t last = kSuccess;
  cudaError_t sticky = kSuccess;  // a kernel failed: the context is unusable, as on the GPU
  std::vector<CallConfiguration> configurations;  // <<< >>> pushes, the stub pops
};

Runtime& runtime() {
  // Made at the first call (from the program's static constructors); a bad setting ends the program.
  static Runtime* r = [] {
    try {
      return new Runtime;
    } catch (const std::exception& e) {
      std::cerr << "ptxmma: error: " << e.what() << "\n";
      std::exit(1);
    }
  }();
  return *r;
}

cudaError_t fail(Runtime& r, cudaError_t code, const std::string& what) {
  std::cerr << "ptxmma: error: " << what << "\n";
  r.last = code;
  return code;
}

// Runs `body` under the runtime's lock with the sticky error checked; Error becomes `code`.
template <class F>
cudaError_t call(const char* name, cudaError_t code, F&& body) {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  if (r.sticky != kSuccess) return r.last = r.sticky;
  try {
    return body(r);
  } catch (const std::exception& e) {
    return fail(r, code, fmt::format("{}: {}", name, e.what()));
  }
}

ptxmma::Dim3 dims(dim3 d) { return {static_cast<int>(d.x), static_cast<int>(d.y), static_cast<int>(d.z)}; }

cudaError_t launch(void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared) {
  return call("kernel launch", kLaunchFailure, [&](Runtime& r) {
    if (!kernel) return fail(r, kInvalidDeviceFunction, "kernel launch: the function is not a kernel the program registered");
    try {
      r.device.launch(kernel, {dims(grid), dims(block), shared}, args);
    } catch (const std::exception& e) {
      r.sticky = kLaunchFailure;
      return fail(r, kLaunchFailure, e.what());
    }
    return kSuccess;
  });
}

std::uint64_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

extern "C" {

void** __cudaRegisterFatBinary(void* fatbin) {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  // The handle the program gives back with each registration: the module's index, never dereferenced.
  return reinterpret_cast<void**>(static_cast<std::uintptr_t>(r.device.add_module(fatbin)) + 1);
}

void __cudaRegisterFatBinaryEnd(void**) {}
void __cudaUnregisterFatBinary(void**) {}
char __cudaInitModule(void**) { return 1; }

void __cudaRegisterFunction(void** handle, const char* host_function, char*, const char* device_name, int, void*, void*,
                            void*, void*, int*) {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  r.device.add_kernel(host_function, static_cast<int>(reinterpret_cast<std::uintptr_t>(handle) - 1), device_name);
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, std::size_t shared, void* stream) {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  r.configurations.push_back({grid, block, shared, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, std::size_t* shared, void** stream) {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  if (r.configurations.empty()) return r.last = kInvalidValue;
  const CallConfiguration c = r.configurations.back();
  r.configurations.pop_back();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *stream = c.stream;
  return kSuccess;
}

cudaError_t __cudaGetKernel(void** kernel, const void* host_function) {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  *kernel = r.device.kernel(host_function);
  return *kernel ? kSuccess : (r.last = kInvalidDeviceFunction);
}

cudaError_t __cudaLaunchKernel(void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared, void*) {
  return launch(kernel, grid, block, args, shared);
}
cudaError_t __cudaLaunchKernel_ptsz(void* kernel, dim3 grid, dim3 block, void** args, std::size_t shared, void*) {
  return launch(kernel, grid, block, args, shared);
}

cudaError_t cudaLaunchKernel(const void* host_function, dim3 grid, dim3 block, void** args, std::size_t shared, void*) {
  void* kernel = nullptr;
  {
    Runtime& r = runtime();
    std::lock_guard<std::recursive_mutex> hold(r.lock);
    kernel = r.device.kernel(host_function);
  }
  return launch(kernel, grid, block, args, shared);
}

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  return call("cudaMalloc", kMemoryAllocation, [&](Runtime& r) {
    if (!pointer) return fail(r, kInvalidValue, "cudaMalloc: the pointer to return the address in is null");
    *pointer = reinterpret_cast<void*>(static_cast<std::uintptr_t>(r.device.allocate(bytes)));
    return kSuccess;
  });
}

cudaError_t cudaFree(void* pointer) {
  return call("cudaFree", kInvalidDevicePointer, [&](Runtime& r) {
    if (pointer) r.device.free(address(pointer));
    return kSuccess;
  });
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, int kind) {
  return call("cudaMemcpy", kInvalidValue, [&](Runtime& r) {
    Device& d = r.device;
    const bool dst_device = d.inside(address(dst), bytes), src_device = d.inside(address(src), bytes);
    if (kind == kDefault) kind = src_device ? (dst_device ? kDeviceToDevice : kDeviceToHost) : (dst_device ? kHostToDevice : kHostToHost);
    if (kind < kHostToHost || kind > kDeviceToDevice)
      return fail(r, kInvalidMemcpyDirection, fmt::format("cudaMemcpy: {} is not a cudaMemcpyKind", kind));
    const bool want_src = kind == kDeviceToHost || kind == kDeviceToDevice, want_dst = kind == kHostToDevice || kind == kDeviceToDevice;
    if ((want_src && !src_device) || (want_dst && !dst_device))
      return fail(r, kInvalidValue,
                  fmt::format("cudaMemcpy of {} bytes: the {} address {:#x} is not inside one cudaMalloc allocation", bytes,
                              want_src && !src_device ? "source" : "destination",
                              want_src && !src_device ? address(src) : address(dst)));
    if (bytes == 0) return kSuccess;
    if (kind == kHostToHost) {
      std::memmove(dst, src, bytes);
    } else if (kind == kHostToDevice) {
      d.write(address(dst), src, bytes);
    } else if (kind == kDeviceToHost) {
      d.read(address(src), dst, bytes);
    } else {
      std::vector<std::uint8_t> staging(bytes);
      d.read(address(src), staging.data(), bytes);
      d.write(address(dst), staging.data(), bytes);
    }
    return kSuccess;
  });
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  return call("cudaMemset", kInvalidValue, [&](Runtime& r) {
    if (!r.device.inside(address(pointer), bytes))
      return fail(r, kInvalidValue, fmt::format("cudaMemset of {} bytes at {:#x}: not inside one cudaMalloc allocation", bytes, address(pointer)));
    const std::vector<std::uint8_t> fill(bytes, static_cast<std::uint8_t>(value));
    r.device.write(address(pointer), fill.data(), bytes);
    return kSuccess;
  });
}

cudaError_t cudaDeviceSynchronize() {
  return call("cudaDeviceSynchronize", kSuccess, [](Runtime&) { return kSuccess; });
}
cudaError_t cudaDeviceReset() {
  return call("cudaDeviceReset", kSuccess, [](Runtime&) { return kSuccess; });
}

cudaError_t cudaGetLastError() {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  const cudaError_t e = r.sticky != kSuccess ? r.sticky : r.last;
  r.last = kSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  return r.sticky != kSuccess ? r.sticky : r.last;
}

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case kSuccess: return "cudaSuccess";
    case kInvalidValue: return "cudaErrorInvalidValue";
    case kMemoryAllocation: return "cudaErrorMemoryAllocation";
    case kInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case kInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case kInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case kInvalidDevice: return "cudaErrorInvalidDevice";
    case kLaunchFailure: return "cudaErrorLaunchFailure";
    default: return "cudaErrorUnknown";
  }
}
const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case kSuccess: return "no error";
    case kInvalidValue: return "invalid argument";
    case kMemoryAllocation: return "out of memory";
    case kInvalidDevicePointer: return "invalid device pointer";
    case kInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case kInvalidDeviceFunction: return "invalid device function";
    case kInvalidDevice: return "invalid device ordinal";
    case kLaunchFailure: return "unspecified launch failure (ptxmma printed the kernel's error on stderr)";
    default: return "unknown error";
  }
}

cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return kSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return kSuccess;
}
cudaError_t cudaSetDevice(int device) {
  Runtime& r = runtime();
  std::lock_guard<std::recursive_mutex> hold(r.lock);
  return device == 0 ? kSuccess : fail(r, kInvalidDevice, fmt::format("cudaSetDevice({}): the simulated machine has device 0 only", device));
}

}  // extern "C"
