#include "tools/cudart/device.hpp"

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "isa/ptx_parser.hpp"
#include "tools/cudart/fatbin.hpp"

namespace ptxmma::cudart {
namespace {

// Allocations are zero-filled pages of the simulator's memory; past this the program is asking
// for more than a functional simulation of its kernels should hold.
constexpr std::uint64_t kMaxAllocated = 1ULL << 30;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

int sm_number(const std::string& arch) {
  // "sm_90a" -> 90
  int n = 0;
  for (char c : arch.substr(3)) {
    if (c < '0' || c > '9') break;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace

Device::Device() {
  if (const std::string a = env("PTXMMA_ARCH"); !a.empty()) arch_ = a;
  if (arch_.rfind("sm_", 0) != 0 || sm_number(arch_) == 0)
    throw Error(fmt::format("PTXMMA_ARCH={}: not an architecture such as sm_90a", arch_));
  save_ptx_ = env("PTXMMA_SAVE_PTX");
  strict_ = !env("PTXMMA_STRICT").empty();
}

int Device::add_module(const void* fatbin) {
  modules_.push_back({fatbin, {}, false});
  return static_cast<int>(modules_.size()) - 1;
}

void Device::add_kernel(const void* host_function, int module, std::string name) {
  kernels_[host_function] = Kernel{module, std::move(name), nullptr};
}

void* Device::kernel(const void* host_function) {
  const auto it = kernels_.find(host_function);
  return it == kernels_.end() ? nullptr : &it->second;
}

std::uint64_t Device::allocate(std::uint64_t bytes) {
  if (bytes > kMaxAllocated - allocated_)
    throw Error(fmt::format("cudaMalloc of {} bytes: the simulated device holds {} bytes of allocations at most ({} in use)",
                            bytes, kMaxAllocated, allocated_));
  const std::uint64_t at = next_;
  next_ += (std::max<std::uint64_t>(bytes, 1) + kAlign - 1) / kAlign * kAlign;
  allocations_[at] = bytes;
  allocated_ += bytes;
  const std::vector<std::uint8_t> zeros(std::min<std::uint64_t>(bytes, 1 << 20));
  for (std::uint64_t done = 0; done < bytes; done += zeros.size())
    global_.write(at + done, zeros.data(), static_cast<std::size_t>(std::min<std::uint64_t>(zeros.size(), bytes - done)));
  return at;
}

void Device::free(std::uint64_t address) {
  const auto it = allocations_.find(address);
  if (it == allocations_.end()) throw Error(fmt::format("cudaFree({:#x}): not an address cudaMalloc returned", address));
  allocated_ -= it->second;
  allocations_.erase(it);  // its bytes stay in memory: a kernel that reads them later is a bug the GPU does not catch either
}

bool Device::inside(std::uint64_t address, std::uint64_t bytes) const {
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return false;
  --it;
  return address - it->first <= it->second && bytes <= it->second - (address - it->first);
}

void Device::write(std::uint64_t address, const void* bytes, std::uint64_t n) {
  global_.write(address, static_cast<const std::uint8_t*>(bytes), static_cast<std::size_t>(n));
}

void Device::read(std::uint64_t address, void* bytes, std::uint64_t n) const {
  global_.read(address, static_cast<std::uint8_t*>(bytes), static_cast<std::size_t>(n));
}

const ptx::Program& Device::program(Kernel& k) {
  if (k.program) return *k.program;
  Module& m = modules_[static_cast<std::size_t>(k.module)];
  std::string file = fmt::format("module{}.ptx", k.module);
  if (!m.read) {
    m.ptx = fatbin_ptx(m.fatbin, sm_number(arch_));
    m.read = true;
    if (!save_ptx_.empty()) {
      std::ofstream out(save_ptx_ + "/" + file, std::ios::binary);
      out << m.ptx;
      if (!out.flush()) throw Error(fmt::format("PTXMMA_SAVE_PTX: cannot write {}/{}", save_ptx_, file));
    }
  }
  if (!save_ptx_.empty()) file = save_ptx_ + "/" + file;
  ptx::ParseOptions po;
  po.entry = k.name;
  po.default_target = arch_;
  auto parsed = std::make_unique<ptx::Program>(ptx::parse_ptx(m.ptx, file, po));
  for (const ptx::Variable& v : parsed->variables) {
    if (v.space != ptx::Space::global) continue;
    // Every module's variables start at the same address of the one global memory (isa/ptx_parser.cpp).
    if (globals_of_ >= 0 && globals_of_ != k.module)
      throw Error(fmt::format("{}: two modules (translation units) with .global variables: ptxmma's CUDA runtime holds one", k.name));
    globals_of_ = k.module;
  }
  k.program = std::move(parsed);
  return *k.program;
}

void Device::launch(void* kernel, const LaunchShape& shape, void** args) {
  Kernel& k = *static_cast<Kernel*>(kernel);
  const ptx::Program& prog = program(k);
  InterpreterOptions o;
  o.arch = arch_;
  o.ntid = shape.block;
  o.nctaid = shape.grid;
  o.dynamic_shared = shape.dynamic_shared;
  o.strict = strict_;
  o.print = &std::cout;
  o.keep_ctas = false;  // a launch's result is global memory
  Machine m(prog, o);
  // The first launch of the module with .global variables puts the device's memory over their
  // initializers; after it the device's memory holds them, and it moves into each launch's machine
  // and back whole (not copied), also when the launch fails.
  if (k.module == globals_of_ && !globals_seeded_) {
    for (const auto& [address, bytes] : global_.runs()) m.global().write(address, bytes.data(), bytes.size());
    globals_seeded_ = true;
  } else {
    m.global() = std::move(global_);
  }
  for (std::size_t i = 0; i < prog.params.size(); ++i)
    m.param().write(prog.params[i].address, static_cast<const std::uint8_t*>(args[i]), static_cast<std::size_t>(prog.params[i].size));
  try {
    const RunSummary sum = m.run();
    for (const auto& w : sum.warnings) std::cerr << "ptxmma: " << w.text() << "\n";
  } catch (...) {
    global_ = std::move(m.global());
    throw;
  }
  global_ = std::move(m.global());
}

}  // namespace ptxmma::cudart
