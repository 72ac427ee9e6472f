// cutlass_ws_capture: a CUTLASS 3.x Hopper warp-specialised GEMM (the kernel of CUTLASS's
// examples/48_hopper_warp_specialized_gemm, with a cooperative schedule) run on a real GPU, written
// as a ptxmma test vector (docs/test-vectors.md, docs/kernels.md) whose expected global memory is
// the D the GPU stored.
//
//   cutlass_ws_capture --ptx cutlass_ws_gemm_sm90a.ptx [--seed S] [--cases C] [--yaml OUT.test.yaml]
//                      [--simulate-only] [--device D]
//
// The kernel: D = alpha A B + beta C, f16 A (M x K, K-major) and B (N x K, K-major), f16 C and D
// (M-major), f32 accumulation, M = N = 256, K = 512, 128 x 128 x 64 CTA tiles, clusters of 2 x 1 x 1
// (the two CTAs of a cluster share their B tile: each loads half of it by TMA multicast to both),
// a six-stage pipeline, KernelTmaWarpSpecializedCooperative (one producer warp group, two
// consumer warp groups over a persistent tile scheduler), the TMA warp-specialised epilogue (C
// loaded and D stored through tensor maps). Its single parameter is GemmKernel::Params, passed by
// value (__grid_constant__): TMA descriptors, problem shape, scheduler and epilogue parameters.
//
// The PTX: `nvcc -ptx` of this translation unit (tools/kernels/cutlass_ws.sh), which instantiates
// cutlass::device_kernel<GemmKernel> below. The GPU runs that PTX file (JIT-compiled by the driver),
// not code built into this program, so the vector's PTX is the code that ran.
//
// Params are built by CUTLASS's own host code (GemmKernel::to_underlying_arguments) twice per case:
// over the device buffers for the launch, and over the simulated addresses of the vector (A, B, C at
// kA.., D at kD), so the vector's tensor maps are the driver's encoding at those addresses. The SM
// count the persistent scheduler sizes its grid by is fixed (kSmCount), so Params do not depend on
// the device. --simulate-only: no GPU; writes the vector without expected values (its Params still
// need cuTensorMapEncodeTiled), for checking ptxmma before a capture.
//
// Inputs (seed S, case c: splitmix64 from S * 1000003 + c, as snippet_capture): A and B random f16
// below 1 in magnitude (exponent -8..-1), C the same; alpha 1, beta 0.5; D starts as 0xcdcd halves.
//
// Dependencies: CUTLASS headers (include/, tools/util/include), the CUDA driver API (-lcuda).
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/device_kernel.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

// A named namespace: nvcc's kernel stubs cannot name types of an anonymous one.
namespace cutlass_ws {

using namespace cute;

using ElementA = cutlass::half_t;
using ElementB = cutlass::half_t;
using ElementC = cutlass::half_t;
using ElementD = cutlass::half_t;
using ElementAccumulator = float;
using LayoutA = cutlass::layout::RowMajor;     // K-major
using LayoutB = cutlass::layout::ColumnMajor;  // K-major
using LayoutC = cutlass::layout::ColumnMajor;  // M-major
constexpr int kAlign = 8;                      // 16 bytes of f16
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_2, _1, _1>;

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, ElementAccumulator, ElementAccumulator,
    ElementC, LayoutC, kAlign, ElementD, LayoutC, kAlign,
    cutlass::epilogue::TmaWarpSpecializedCooperative>::CollectiveOp;

using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, kAlign, ElementB, LayoutB, kAlign,
    ElementAccumulator, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;

using GemmKernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int>, CollectiveMainloop, CollectiveEpilogue>;

constexpr int kM = 256, kN = 256, kK = 512;
constexpr int kSmCount = 132;  // the H100 SXM's and H200's: the persistent grid's bound
constexpr float kAlpha = 1.0f, kBeta = 0.5f;
// Simulated addresses: A, B and C one after the other, D apart (as snippet_capture's in and out).
constexpr std::uint64_t kA = 0x100000, kB = kA + 2ULL * kM * kK, kC = kB + 2ULL * kN * kK, kD = 0x200000;
constexpr std::uint16_t kDFill = 0xcdcd;

struct Fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void cu_check(CUresult r, const char* call) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  throw Fatal(std::string(call) + ": " + (name ? name : "?"));
}
#define CU(call) cu_check((call), #call)

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

// A random f16 below 1 in magnitude: exponent -8..-1, random sign and significand.
std::uint16_t f16_small(Rng& r) {
  const auto sign = static_cast<std::uint16_t>((r.next() & 1U) << 15);
  const int e = -8 + static_cast<int>(r.next() % 8);
  return static_cast<std::uint16_t>(sign | ((e + 15) << 10) | (r.next() & 0x3ffU));
}

double f16_value(std::uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

typename GemmKernel::Params make_params(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  using StrideA = typename GemmKernel::StrideA;
  using StrideB = typename GemmKernel::StrideB;
  using StrideC = typename GemmKernel::StrideC;
  using StrideD = typename GemmKernel::StrideD;
  cutlass::KernelHardwareInfo hw;
  hw.device_id = 0;
  hw.sm_count = kSmCount;
  typename GemmKernel::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm,
      {kM, kN, kK},
      {reinterpret_cast<ElementA const*>(a), cutlass::make_cute_packed_stride(StrideA{}, {kM, kK, 1}),
       reinterpret_cast<ElementB const*>(b), cutlass::make_cute_packed_stride(StrideB{}, {kN, kK, 1})},
      {{kAlpha, kBeta},
       reinterpret_cast<ElementC const*>(c), cutlass::make_cute_packed_stride(StrideC{}, {kM, kN, 1}),
       reinterpret_cast<ElementD*>(d), cutlass::make_cute_packed_stride(StrideD{}, {kM, kN, 1})},
      hw};
  if (!GemmKernel::can_implement(args)) throw Fatal("CUTLASS: can_implement refuses the problem");
  if (GemmKernel::get_workspace_size(args) != 0) throw Fatal("CUTLASS: the kernel wants a workspace");
  return GemmKernel::to_underlying_arguments(args, nullptr);
}

std::string hex_bytes(const void* p, std::size_t n) {
  std::string s;
  char h[4];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(h, sizeof h, "%02x", static_cast<const unsigned char*>(p)[i]);
    s += h;
  }
  return s;
}

// Halves two to a little-endian word.
std::vector<std::uint32_t> words(const std::vector<std::uint16_t>& h) {
  std::vector<std::uint32_t> w(h.size() / 2);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = h[2 * i] | (static_cast<std::uint32_t>(h[2 * i + 1]) << 16);
  return w;
}

void write_words(std::ostream& o, const char* indent, std::uint64_t address, const std::vector<std::uint32_t>& w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(address));
  o << indent << "- {address: " << buf << ", type: b32, values: [";
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (i % 8 == 0 && i) o << ",\n" << indent << "    ";
    else if (i) o << ", ";
    std::snprintf(buf, sizeof buf, "0x%08x", w[i]);
    o << buf;
  }
  o << "]}\n";
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Fatal(path + ": cannot read");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string basename(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The PTX's only .entry (cutlass::device_kernel<GemmKernel>, mangled).
std::string entry_name(const std::string& ptx) {
  const auto at = ptx.find(".entry ");
  if (at == std::string::npos || ptx.find(".entry ", at + 1) != std::string::npos)
    throw Fatal("the PTX must hold exactly one .entry");
  const auto start = at + 7;
  return ptx.substr(start, ptx.find_first_of("( \n", start) - start);
}

struct Options {
  std::string ptx, yaml;
  std::uint64_t seed = 1;
  int cases = 2, device = 0;
  bool simulate_only = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Fatal(a + " needs a value");
      return argv[++i];
    };
    if (a == "--ptx") o.ptx = value();
    else if (a == "--yaml") o.yaml = value();
    else if (a == "--seed") o.seed = std::stoull(value());
    else if (a == "--cases") o.cases = std::stoi(value());
    else if (a == "--device") o.device = std::stoi(value());
    else if (a == "--simulate-only") o.simulate_only = true;
    else throw Fatal("unknown option " + a);
  }
  if (o.ptx.empty())
    throw Fatal("usage: cutlass_ws_capture --ptx FILE [--seed S] [--cases C] [--yaml OUT] [--simulate-only] [--device D]");
  return o;
}

}  // namespace cutlass_ws

using namespace cutlass_ws;

int main(int argc, char** argv) try {
  const Options opt = parse(argc, argv);
  const std::string ptx = read_file(opt.ptx);
  const std::string entry = entry_name(ptx);
  // Referencing the kernel makes `nvcc -ptx` of this file emit it.
  static_cast<void>(&cutlass::device_kernel<GemmKernel>);

  const dim3 block = GemmKernel::get_block_shape();
  const unsigned smem = GemmKernel::SharedStorageSize;
  const dim3 cluster(size<0>(ClusterShape{}), size<1>(ClusterShape{}), size<2>(ClusterShape{}));

  std::string device_name = "no GPU (--simulate-only)";
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
  if (!opt.simulate_only) {
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, opt.device));
    char name[256] = {};
    CU(cuDeviceGetName(name, sizeof name, dev));
    device_name = name;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    std::vector<char> log(16384, 0);
    CUjit_option jo[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* jv[] = {log.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(log.size()))};
    const CUresult jr = cuModuleLoadDataEx(&mod, ptx.c_str(), 2, jo, jv);
    if (jr != CUDA_SUCCESS) throw Fatal(opt.ptx + ": JIT failed: " + log.data());
    CU(cuModuleGetFunction(&fn, mod, entry.c_str()));
    CU(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(smem)));
    CU(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
  }

  // The vector's Params: CUTLASS's over the simulated addresses (the same for every case), made
  // in zeroed storage so that the padding between its fields is 0 rather than what the stack held
  // (the PTX never reads it).
  using Params = typename GemmKernel::Params;
  alignas(Params) static unsigned char sim_storage[sizeof(Params)] = {};
  const Params& sim = *new (sim_storage) Params(make_params(kA, kB, kC, kD));
  const dim3 grid = GemmKernel::get_grid_shape(sim);
  std::fprintf(stderr, "cutlass_ws_capture: %s, entry %s\n  grid %u,%u,%u cluster %u,%u,%u block %u, %u B shared, "
               "Params %zu B\n", device_name.c_str(), entry.c_str(), grid.x, grid.y, grid.z, cluster.x, cluster.y,
               cluster.z, block.x, smem, sizeof sim);

  std::ostringstream y;
  y << "# Captured on " << device_name << " by tools/capture/cutlass_ws_capture (docs/kernels.md):\n"
    << "#   cutlass_ws_capture --ptx " << basename(opt.ptx) << " --cases " << opt.cases << " --seed " << opt.seed
    << (opt.simulate_only ? " --simulate-only" : "") << "\n"
    << "# CUTLASS 3.x GemmUniversal, KernelTmaWarpSpecializedCooperative, f16 " << kM << " x " << kN << " x " << kK
    << ", alpha 1, beta 0.5, tile 128x128x64, cluster 2x1x1; its Params as the one parameter's bytes.\n"
    << (opt.simulate_only ? "# No GPU ran: no expected values.\n" : "# Expected values are the words the GPU stored; do not edit.\n")
    << "description: \"CUTLASS warp-specialised GEMM (sm_90a): compiler-emitted PTX, results captured on "
    << device_name << "\"\ntarget: sm_90a\ncases:\n";

  double worst = 0;
  for (int c = 0; c < opt.cases; ++c) {
    Rng rng{opt.seed * 1000003ULL + static_cast<std::uint64_t>(c)};
    std::vector<std::uint16_t> a(static_cast<std::size_t>(kM) * kK), b(static_cast<std::size_t>(kN) * kK),
        cm(static_cast<std::size_t>(kM) * kN), d(static_cast<std::size_t>(kM) * kN, kDFill);
    for (auto* v : {&a, &b, &cm})
      for (auto& h : *v) h = f16_small(rng);
    if (!opt.simulate_only) {
      CUdeviceptr da, db, dc, dd;
      CU(cuMemAlloc(&da, a.size() * 2));
      CU(cuMemAlloc(&db, b.size() * 2));
      CU(cuMemAlloc(&dc, cm.size() * 2));
      CU(cuMemAlloc(&dd, d.size() * 2));
      CU(cuMemcpyHtoD(da, a.data(), a.size() * 2));
      CU(cuMemcpyHtoD(db, b.data(), b.size() * 2));
      CU(cuMemcpyHtoD(dc, cm.data(), cm.size() * 2));
      CU(cuMemcpyHtoD(dd, d.data(), d.size() * 2));
      Params real = make_params(da, db, dc, dd);
      void* args[] = {&real};
      CUlaunchAttribute attr{};
      attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attr.value.clusterDim.x = cluster.x, attr.value.clusterDim.y = cluster.y, attr.value.clusterDim.z = cluster.z;
      CUlaunchConfig config{};
      config.gridDimX = grid.x, config.gridDimY = grid.y, config.gridDimZ = grid.z;
      config.blockDimX = block.x, config.blockDimY = block.y, config.blockDimZ = block.z;
      config.sharedMemBytes = smem;
      config.attrs = &attr;
      config.numAttrs = 1;
      CU(cuLaunchKernelEx(&config, fn, args, nullptr));
      CU(cuCtxSynchronize());
      CU(cuMemcpyDtoH(d.data(), dd, d.size() * 2));
      for (CUdeviceptr p : {da, db, dc, dd}) CU(cuMemFree(p));
      // A float64 reference (D column-major: element (m, n) at m + n M), to know the run is a GEMM.
      for (int n = 0; n < kN; ++n)
        for (int m = 0; m < kM; ++m) {
          double acc = 0;
          for (int k = 0; k < kK; ++k) acc += f16_value(a[m * kK + k]) * f16_value(b[n * kK + k]);
          const double ref = kAlpha * acc + kBeta * f16_value(cm[m + n * kM]);
          worst = std::max(worst, std::fabs(f16_value(d[m + n * kM]) - ref) / std::max(std::fabs(ref), 1e-3));
        }
    }
    y << "  - name: cutlass_ws_gemm case " << c << "\n"
      << "    snippet_file: " << basename(opt.ptx) << "\n"
      << "    entry: " << entry << "\n"
      << "    init:\n"
      << "      ntid: [" << block.x << ", " << block.y << ", " << block.z << "]\n"
      << "      nctaid: [" << grid.x << ", " << grid.y << ", " << grid.z << "]\n"
      << "      cluster: [" << cluster.x << ", " << cluster.y << ", " << cluster.z << "]\n"
      << "      dynamic_shared: " << smem << "\n"
      << "      params: [{bytes: \"" << hex_bytes(&sim, sizeof sim) << "\"}]\n"
      << "      global:\n";
    std::vector<std::uint16_t> in(a);
    in.insert(in.end(), b.begin(), b.end());
    in.insert(in.end(), cm.begin(), cm.end());
    write_words(y, "        ", kA, words(in));
    y << "        - {address: " << std::hex << std::showbase << kD << std::dec << std::noshowbase
      << ", type: b32, ramp: {start: 0xcdcdcdcd, step: 0, count: " << d.size() / 2 << "}}\n";
    if (!opt.simulate_only) {
      y << "    expect:\n      global:\n";
      write_words(y, "        ", kD, words(d));
    }
  }
  if (!opt.simulate_only) {
    std::fprintf(stderr, "  D against a float64 reference: largest relative error %.3g\n", worst);
    CU(cuModuleUnload(mod));
    CU(cuDevicePrimaryCtxRelease(dev));
  }
  if (opt.yaml.empty()) {
    std::cout << y.str();
  } else {
    std::ofstream f(opt.yaml);
    if (!f) throw Fatal(opt.yaml + ": cannot write");
    f << y.str();
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "cutlass_ws_capture: " << e.what() << "\n";
  return 1;
}
