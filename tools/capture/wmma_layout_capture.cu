// wmma_layout_capture: which element of memory each `wmma.load` puts in which register of which
// lane, and which element of memory each register of `wmma.store.d` lands in, on a real GPU. The PTX
// ISA does not specify the wmma fragments, and they differ between architectures
// (docs/hardware/wmma-sm90.md).
//
// No layout is assumed. Each form runs in a PTX module written at run time (JIT-compiled by the
// driver): a warp loads a matrix whose every element holds a digit of its own number (element
// index + 1; 0 marks the padding between rows when the stride is larger than a row) and stores every
// lane's registers; several runs give the digits of narrow types. A store form gets registers that
// each hold their own (lane, register, slot) number and writes them to a zeroed padded matrix.
// Loads and stores use a stride 128 bits longer than the row (rounded up to 128 bits), so the
// stride's meaning shows too.
//
//   wmma_layout_capture OUT.txt [--device D]
//   wmma_layout_capture --dump-ptx DIR          (the modules, to check them with ptxas; no GPU)
//
// OUT.txt, one line per form:
//   load PTX ROWS COLS LAYOUT STRIDE: E E E ...   the element index (row-major, -1: padding) of each
//                                                 lane's registers' slots, lane 0 first, low slot first
//   store PTX ROWS COLS LAYOUT STRIDE: S S S ...  for each element (row-major) the slot number
//                                                 (lane * slots-per-lane + slot) stored there, -1: none
//
// Dependencies: the CUDA driver API (-lcuda) and the C++17 standard library.

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

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

// One load or store form. `bits` is the element width in memory; `regs` the registers per lane
// and `reg_bits` their width (the PTX ISA's fragment sizes).
struct Form {
  bool store;
  std::string ptx;  // without the operands
  int rows, cols;   // the matrix in memory
  bool row_major;
  int bits, regs, reg_bits;
};

int slots_per_reg(const Form& f) { return f.reg_bits / (f.bits == 64 ? 64 : f.bits); }

std::vector<Form> forms() {
  std::vector<Form> out;
  struct Shape {
    const char* name;
    int m, n, k;
  };
  const Shape half_shapes[] = {{"m16n16k16", 16, 16, 16}, {"m32n8k16", 32, 8, 16}, {"m8n32k16", 8, 32, 16}};
  auto add = [&](bool store, const std::string& what, const char* layout, const std::string& shape,
                 const std::string& type, int rows, int cols, int bits, int regs, int reg_bits) {
    const std::string ptx = std::string(store ? "wmma.store.d" : "wmma.load." + what) + ".sync.aligned." + layout + "." +
                            shape + ".global." + type;
    out.push_back({store, ptx, rows, cols, std::string(layout) == "row", bits, regs, reg_bits});
  };
  for (const char* l : {"row", "col"}) {
    for (const Shape& s : half_shapes) {
      const int ea = s.m * s.k, eb = s.k * s.n;
      // f16: A and B 8 registers of f16x2, C/D 4 of f16x2 or 8 of f32 (PTX ISA, WMMA fragments).
      add(false, "a", l, s.name, "f16", s.m, s.k, 16, 8, 32);
      add(false, "b", l, s.name, "f16", s.k, s.n, 16, 8, 32);
      add(false, "c", l, s.name, "f16", s.m, s.n, 16, 4, 32);
      add(false, "c", l, s.name, "f32", s.m, s.n, 32, 8, 32);
      add(true, "d", l, s.name, "f16", s.m, s.n, 16, 4, 32);
      add(true, "d", l, s.name, "f32", s.m, s.n, 32, 8, 32);
      // bf16: A and B hold their elements once, two to a register; 8-bit integers four to a register.
      add(false, "a", l, s.name, "bf16", s.m, s.k, 16, ea / 64, 32);
      add(false, "b", l, s.name, "bf16", s.k, s.n, 16, eb / 64, 32);
      for (const char* t : {"s8", "u8"}) {
        add(false, "a", l, s.name, t, s.m, s.k, 8, ea / 128, 32);
        add(false, "b", l, s.name, t, s.k, s.n, 8, eb / 128, 32);
      }
      add(false, "c", l, s.name, "s32", s.m, s.n, 32, 8, 32);
      add(true, "d", l, s.name, "s32", s.m, s.n, 32, 8, 32);
    }
    add(false, "a", l, "m16n16k8", "tf32", 16, 8, 32, 4, 32);
    add(false, "b", l, "m16n16k8", "tf32", 8, 16, 32, 4, 32);
    add(false, "c", l, "m16n16k8", "f32", 16, 16, 32, 8, 32);
    add(true, "d", l, "m16n16k8", "f32", 16, 16, 32, 8, 32);
    add(false, "a", l, "m8n8k4", "f64", 8, 4, 64, 1, 64);
    add(false, "b", l, "m8n8k4", "f64", 4, 8, 64, 1, 64);
    add(false, "c", l, "m8n8k4", "f64", 8, 8, 64, 2, 64);
    add(true, "d", l, "m8n8k4", "f64", 8, 8, 64, 2, 64);
    add(false, "c", l, "m8n8k32", "s32", 8, 8, 32, 2, 32);
    add(true, "d", l, "m8n8k32", "s32", 8, 8, 32, 2, 32);
    add(false, "c", l, "m8n8k128", "s32", 8, 8, 32, 2, 32);
    add(true, "d", l, "m8n8k128", "s32", 8, 8, 32, 2, 32);
  }
  // Sub-byte A and B exist only as A row-major and B column-major.
  for (const char* t : {"s4", "u4"}) {
    add(false, "a", "row", "m8n8k32", t, 8, 32, 4, 1, 32);
    add(false, "b", "col", "m8n8k32", t, 32, 8, 4, 1, 32);
  }
  add(false, "a", "row", "m8n8k128", "b1", 8, 128, 1, 1, 32);
  add(false, "b", "col", "m8n8k128", "b1", 128, 8, 1, 1, 32);
  return out;
}

// The stride in elements: the memory row (row-major: a matrix row; col-major: a column) rounded up
// to 128 bits, plus 128 bits (every row starts 128-bit aligned, as the loads require).
int mem_rows(const Form& f) { return f.row_major ? f.rows : f.cols; }
int mem_row_len(const Form& f) { return f.row_major ? f.cols : f.rows; }
int stride(const Form& f) { return ((mem_row_len(f) * f.bits + 127) / 128 * 128 + 128) / f.bits; }
// The element index (row-major in the logical matrix) at memory row r, position p; -1: padding.
int element_at(const Form& f, int r, int p) {
  if (p >= mem_row_len(f)) return -1;
  return f.row_major ? r * f.cols + p : p * f.cols + r;
}

const char* reg_type(const Form& f) { return f.reg_bits == 64 ? "b64" : "b32"; }

std::string module_text(const Form& f) {
  std::ostringstream s;
  const int n = f.regs;
  const char* rt = reg_type(f);
  s << ".version 8.0\n.target sm_90a\n.address_size 64\n"
    << ".visible .entry k(.param .u64 mem, .param .u64 regs)\n{\n"
    << "  .reg .b64 %m, %g, %o;\n  .reg .b32 %t;\n  .reg ." << rt << " %x<" << n << ">;\n"
    << "  ld.param.u64 %m, [mem];\n  ld.param.u64 %g, [regs];\n"
    << "  mov.u32 %t, %tid.x;\n  mul.wide.u32 %o, %t, " << n * f.reg_bits / 8 << ";\n  add.u64 %g, %g, %o;\n";
  std::string list = "{";
  for (int i = 0; i < n; ++i) list += std::string(i ? ", " : "") + "%x" + std::to_string(i);
  list += "}";
  if (f.store) {
    for (int i = 0; i < n; ++i) s << "  ld.global." << rt << " %x" << i << ", [%g+" << i * f.reg_bits / 8 << "];\n";
    s << "  " << f.ptx << " [%m], " << list << ", " << stride(f) << ";\n";
  } else {
    s << "  " << f.ptx << " " << list << ", [%m], " << stride(f) << ";\n";
    for (int i = 0; i < n; ++i) s << "  st.global." << rt << " [%g+" << i * f.reg_bits / 8 << "], %x" << i << ";\n";
  }
  s << "  ret;\n}\n";
  return s.str();
}

struct Gpu {
  CUdevice dev{};
  CUcontext ctx{};
};

// Runs the form once: `mem` (bytes) in and out, `regs` (32 lanes' register bytes) in and out.
void run(const Form& f, std::vector<unsigned char>& mem, std::vector<unsigned char>& regs) {
  const std::string text = module_text(f);
  std::vector<char> log(8192, 0);
  CUjit_option jo[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* jv[] = {log.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(log.size()))};
  CUmodule mod;
  if (cuModuleLoadDataEx(&mod, text.c_str(), 2, jo, jv) != CUDA_SUCCESS)
    throw Fatal(f.ptx + ": JIT failed: " + log.data() + "\n" + text);
  CUfunction fn;
  CU(cuModuleGetFunction(&fn, mod, "k"));
  CUdeviceptr dm, dr;
  CU(cuMemAlloc(&dm, mem.size()));
  CU(cuMemAlloc(&dr, regs.size()));
  CU(cuMemcpyHtoD(dm, mem.data(), mem.size()));
  CU(cuMemcpyHtoD(dr, regs.data(), regs.size()));
  void* params[] = {&dm, &dr};
  CU(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(mem.data(), dm, mem.size()));
  CU(cuMemcpyDtoH(regs.data(), dr, regs.size()));
  CU(cuMemFree(dm));
  CU(cuMemFree(dr));
  CU(cuModuleUnload(mod));
}

// Element `i` of `bits` width in a byte buffer (little-endian, element 0 in the low bits).
std::uint64_t get(const std::vector<unsigned char>& b, std::size_t i, int bits) {
  const std::size_t bit = i * static_cast<std::size_t>(bits);
  std::uint64_t v = 0;
  for (int k = 0; k < bits; ++k) v |= static_cast<std::uint64_t>((b[(bit + k) / 8] >> ((bit + k) % 8)) & 1U) << k;
  return v;
}
void put(std::vector<unsigned char>& b, std::size_t i, int bits, std::uint64_t v) {
  const std::size_t bit = i * static_cast<std::size_t>(bits);
  for (int k = 0; k < bits; ++k) {
    auto& byte = b[(bit + k) / 8];
    const auto mask = static_cast<unsigned char>(1U << ((bit + k) % 8));
    byte = static_cast<unsigned char>((v >> k) & 1U ? byte | mask : byte & ~mask);
  }
}

// A number's digit in an element: tf32 keeps it above the low 13 bits (which a tf32 load may drop).
int digit_bits(const Form& f) { return f.bits >= 16 ? 16 : f.bits; }
int digit_shift(const Form& f) { return f.ptx.find(".tf32") != std::string::npos ? 16 : 0; }
int passes(const Form& f, int count) {
  int p = 1;
  while ((count + 1) >> (p * digit_bits(f))) ++p;
  return p;
}

std::string capture(const Form& f) {
  const int elements = f.rows * f.cols;
  const std::size_t mem_elems = static_cast<std::size_t>(mem_rows(f)) * static_cast<std::size_t>(stride(f));
  const std::size_t mem_bytes = (mem_elems * static_cast<std::size_t>(f.bits) + 7) / 8;
  const int spr = slots_per_reg(f), slots = f.regs * spr, sbits = f.reg_bits / spr;
  const std::size_t reg_bytes = 32U * static_cast<std::size_t>(f.regs) * static_cast<std::size_t>(f.reg_bits) / 8;
  const int db = digit_bits(f), sh = digit_shift(f);
  const std::uint64_t dmask = (std::uint64_t{1} << db) - 1;
  std::ostringstream o;
  o << (f.store ? "store " : "load ") << f.ptx << " " << f.rows << " " << f.cols << " "
    << (f.row_major ? "row" : "col") << " " << stride(f) << ":";
  if (!f.store) {
    std::vector<std::uint64_t> number(32U * static_cast<std::size_t>(slots), 0);
    for (int p = 0; p < passes(f, elements); ++p) {
      std::vector<unsigned char> mem(mem_bytes, 0), regs(reg_bytes, 0);
      for (int r = 0; r < mem_rows(f); ++r)
        for (int q = 0; q < stride(f); ++q) {
          const int e = element_at(f, r, q);
          const std::uint64_t d = (static_cast<std::uint64_t>(e + 1) >> (p * db)) & dmask;
          put(mem, static_cast<std::size_t>(r) * static_cast<std::size_t>(stride(f)) + static_cast<std::size_t>(q), f.bits, d << sh);
        }
      run(f, mem, regs);
      for (std::size_t s = 0; s < number.size(); ++s)
        number[s] |= ((get(regs, s, sbits) >> sh) & dmask) << (p * db);
    }
    for (std::uint64_t n : number) {
      if (n > static_cast<std::uint64_t>(elements)) throw Fatal(f.ptx + ": a slot holds " + std::to_string(n) + ", no element number");
      o << " " << static_cast<long long>(n) - 1;
    }
  } else {
    std::vector<std::uint64_t> number(mem_elems, 0);
    const int total = 32 * slots;
    for (int p = 0; p < passes(f, total); ++p) {
      std::vector<unsigned char> mem(mem_bytes, 0), regs(reg_bytes, 0);
      for (int s = 0; s < total; ++s)
        put(regs, static_cast<std::size_t>(s), sbits, ((static_cast<std::uint64_t>(s + 1) >> (p * db)) & dmask) << sh);
      run(f, mem, regs);
      for (std::size_t i = 0; i < mem_elems; ++i) number[i] |= ((get(mem, i, f.bits) >> sh) & dmask) << (p * db);
    }
    for (int e = 0; e < elements; ++e) {
      const int r = e / f.cols, c = e % f.cols;
      const int mr = f.row_major ? r : c, mp = f.row_major ? c : r;
      o << " " << static_cast<long long>(number[static_cast<std::size_t>(mr) * static_cast<std::size_t>(stride(f)) +
                                                 static_cast<std::size_t>(mp)]) - 1;
    }
    for (int r = 0; r < mem_rows(f); ++r)  // the padding must stay zero
      for (int q = mem_row_len(f); q < stride(f); ++q)
        if (number[static_cast<std::size_t>(r) * static_cast<std::size_t>(stride(f)) + static_cast<std::size_t>(q)])
          throw Fatal(f.ptx + ": the store wrote into the padding of memory row " + std::to_string(r));
  }
  return o.str();
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2) throw Fatal("usage: wmma_layout_capture OUT.txt [--device D] | --dump-ptx DIR");
  if (std::string(argv[1]) == "--dump-ptx") {
    if (argc < 3) throw Fatal("--dump-ptx needs a directory");
    int i = 0;
    for (const Form& f : forms()) {
      std::ofstream p(std::string(argv[2]) + "/" + std::to_string(i++) + ".ptx");
      p << "// " << f.ptx << "\n" << module_text(f);
      if (!p) throw Fatal(std::string(argv[2]) + ": cannot write");
    }
    return 0;
  }
  const int device = argc >= 4 && std::string(argv[2]) == "--device" ? std::stoi(argv[3]) : 0;
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, device));
  char name[256] = {};
  CU(cuDeviceGetName(name, sizeof name, dev));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  std::ofstream out(argv[1]);
  if (!out) throw Fatal(std::string(argv[1]) + ": cannot write");
  out << "# wmma fragments on " << name << " (tools/capture/wmma_layout_capture.cu; docs/hardware/wmma-sm90.md)\n";
  int n = 0;
  for (const Form& f : forms()) {
    out << capture(f) << "\n";
    ++n;
  }
  std::cout << "wmma_layout_capture: " << n << " forms on " << name << "\n";
  CU(cuDevicePrimaryCtxRelease(dev));
  return 0;
} catch (const std::exception& e) {
  std::cerr << "wmma_layout_capture: " << e.what() << "\n";
  return 1;
}
