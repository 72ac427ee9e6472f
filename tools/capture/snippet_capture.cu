// snippet_capture: runs a compiler-emitted PTX kernel that reads one global input buffer and writes
// one output buffer on a real GPU, one block or a grid of them, and writes a YAML test-vector file
// for `ptxmma test` (docs/test-vectors.md): the PTX file, the input words in global memory, and the
// output words the GPU stored, as the expected global memory.
//
//   snippet_capture --ptx FILE.ptx --entry NAME --threads T --in SPEC --out-words N
//                   [--grid X[,Y[,Z]]] [--cluster X[,Y[,Z]]] [--params LIST] [--dynamic-shared BYTES]
//                   [--cases C] [--seed S] [--yaml OUT.test.yaml] [--device D] [--expect-warning TEXT]...
//
// --grid: the CTAs of the launch (default 1); the vector's state declares the same grid (`nctaid`),
// and ptxmma runs every CTA of it. --cluster: the CTAs of a cluster (launched with cuLaunchKernelEx's
// cluster dimension, declared in the vector's state as `cluster`), e.g. for CuTe kernels that CUTLASS
// launches with launch_kernel_on_cluster.
// --params: the kernel's parameters in order, comma-separated (default `in,out`): `in` and `out`
// (the buffers' addresses), `in+B` (the address B bytes into the input buffer, for kernels that
// take several input matrices), `null` (a 64-bit 0, e.g. Triton's unused scratch pointers), `u32:V`,
// `u64:V` (a value), `tmap:SPEC` (a CUtensorMap by cuTensorMapEncodeTiled over a buffer, below),
// `i2c:SPEC` (one by cuTensorMapEncodeIm2col, below),
// `hex:BYTES` (bytes in memory order, e.g. `hex:003c` for the f16 1.0 or `hex:00` for an empty
// struct). Parts joined by `&` make one parameter of their bytes one after the other, for structs
// passed by value (CuTe's shapes and strides, a TMA atom: `tmap:...&hex:...` for a tensor map
// followed by more fields); place each part at its offset with `hex:` padding.
//
// A tensor map's SPEC: `TYPE;BUFFER;DIMS;STRIDES;BOX;SWIZZLE[;KEY=VALUE...]`, e.g.
// `tmap:f16;in+32768;128x128;256;64x32;128;l2=128`: TYPE u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32ftz
// tf32 tf32ftz; BUFFER `in` or `out` with an optional +byte offset; DIMS, BOX innermost first,
// `x`-separated; STRIDES the byte strides of dimensions 1.. (`-` for rank 1); SWIZZLE 0, 32, 64,
// 128; keys `estr=1x1` (element strides), `l2=0|64|128|256`, `oob=nan`, `il=16|32`. The launch
// gets the map of the real buffer; the vector's parameter is the driver's map of the same call
// with the simulated buffer address (so both bytes come from the driver). An im2col map's SPEC:
// `TYPE;BUFFER;DIMS;STRIDES;LOWER;UPPER;CHANNELS;PIXELS;SWIZZLE[;KEY=VALUE...]`, LOWER and UPPER
// the pixel box's corners (rank - 2 signed values, `x`-separated, W first as the dimensions).
// --expect-warning: a warning ptxmma must give for this kernel (part of its text), written into each
// case's `expect: warnings` (docs/test-vectors.md), for a kernel that really does what it says (the
// CuTe sm80 tutorial ends with cp.async copies in flight); repeatable.
// --dynamic-shared: bytes of dynamic shared memory (`.extern .shared` arrays) for the launch and the
// vector's state.
//
// SPEC: comma-separated segments KIND:COUNT, filled from a seeded generator (splitmix64):
//   u32:N   N random words
//   f32:N   N random f32, exponent in [-12, 12], random sign and significand
//   f32w:N  N f32 over the whole range: exponent in [-150, 130], one in 16 a special value
//           (+-0, +-inf, NaN, the largest finite, the smallest subnormal, 448, 57344)
//   f16:N   N random f16 (exponent in [-4, 4]), two to a word (N even)
//   f16s:N  N random f16 below 1 in magnitude (exponent in [-8, -1]), two to a word (N even)
//   bf16s:N N random bf16 below 1 in magnitude (exponent in [-8, -1]), two to a word (N even)
//   e4m3:N  N random finite e4m3 bytes (every code but the two NaNs), four to a word (N a multiple of 4)
// The output buffer starts as 0xcdcdcdcd words in both the GPU run and the vector's initial state,
// so a word the kernel does not write is compared too. The simulated addresses of in and out are
// fixed (0x100000 and 0x200000); the kernel sees them only through its two parameters.
//
// Dependencies: the CUDA driver API (-lcuda) and the C++17 standard library.

#include <cuda.h>

#include <algorithm>
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
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  throw Fatal(std::string(call) + ": " + (name ? name : "?") + ": " + (text ? text : "?"));
}
#define CU(call) cu_check((call), #call)

constexpr std::uint64_t kInAddress = 0x100000, kOutAddress = 0x200000;
constexpr std::uint32_t kOutFill = 0xcdcdcdcdu;  // also in the ramp line below

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
};

std::uint32_t f32_bits(Rng& r, int emin, int emax) {
  const std::uint32_t sign = static_cast<std::uint32_t>(r.next() & 1U) << 31;
  const int e = r.range(emin, emax);
  const auto frac = static_cast<std::uint32_t>(r.next() & 0x7fffffU);
  if (e < -126) {  // subnormal: the significand shifted right, the implicit bit kept
    const int shift = -126 - e;
    return sign | (shift >= 24 ? 1U : ((0x800000U | frac) >> shift));
  }
  return sign | (static_cast<std::uint32_t>(e + 127) << 23) | frac;
}

std::uint32_t f32_wide(Rng& r) {
  static const std::uint32_t special[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                          0x7f7fffff, 0x00000001, 0x43e00000, 0x47600000};
  if (r.next() % 16 == 0) return special[r.next() % (sizeof special / sizeof special[0])];
  return f32_bits(r, -150, 130);
}

std::uint16_t f16_bits(Rng& r, int emin, int emax) {
  const auto sign = static_cast<std::uint16_t>((r.next() & 1U) << 15);
  const int e = r.range(emin, emax);
  return static_cast<std::uint16_t>(sign | ((e + 15) << 10) | (r.next() & 0x3ffU));
}

std::uint16_t bf16_bits(Rng& r) {
  const auto sign = static_cast<std::uint16_t>((r.next() & 1U) << 15);
  const int e = r.range(-8, -1);
  return static_cast<std::uint16_t>(sign | ((e + 127) << 7) | (r.next() & 0x7fU));
}

std::uint32_t e4m3_byte(Rng& r) {
  const auto b = static_cast<std::uint32_t>(r.next() & 0xffU);
  return (b & 0x7fU) == 0x7fU ? b ^ 1U : b;  // 0x7f and 0xff are e4m3's NaNs
}

std::vector<std::uint32_t> fill(const std::string& spec, Rng& r) {
  std::vector<std::uint32_t> words;
  std::stringstream ss(spec);
  std::string seg;
  while (std::getline(ss, seg, ',')) {
    const auto colon = seg.find(':');
    if (colon == std::string::npos) throw Fatal("--in: segment '" + seg + "' is not KIND:COUNT");
    const std::string kind = seg.substr(0, colon);
    const long n = std::stol(seg.substr(colon + 1));
    if (n <= 0) throw Fatal("--in: segment '" + seg + "' has no elements");
    if (kind == "u32") {
      for (long i = 0; i < n; ++i) words.push_back(static_cast<std::uint32_t>(r.next()));
    } else if (kind == "f32") {
      for (long i = 0; i < n; ++i) words.push_back(f32_bits(r, -12, 12));
    } else if (kind == "f32w") {
      for (long i = 0; i < n; ++i) words.push_back(f32_wide(r));
    } else if (kind == "f16" || kind == "f16s") {
      if (n % 2) throw Fatal("--in: f16 segments need an even count");
      const int emin = kind == "f16" ? -4 : -8, emax = kind == "f16" ? 4 : -1;
      for (long i = 0; i < n; i += 2) {
        const std::uint32_t lo = f16_bits(r, emin, emax), hi = f16_bits(r, emin, emax);
        words.push_back(lo | (hi << 16));
      }
    } else if (kind == "bf16s") {
      if (n % 2) throw Fatal("--in: bf16 segments need an even count");
      for (long i = 0; i < n; i += 2) {
        const std::uint32_t lo = bf16_bits(r), hi = bf16_bits(r);
        words.push_back(lo | (hi << 16));
      }
    } else if (kind == "e4m3") {
      if (n % 4) throw Fatal("--in: e4m3 segments need a multiple of 4");
      for (long i = 0; i < n; i += 4) {
        std::uint32_t w = 0;
        for (int b = 0; b < 4; ++b) w |= e4m3_byte(r) << (8 * b);
        words.push_back(w);
      }
    } else {
      throw Fatal("--in: unknown kind '" + kind + "' (u32, f32, f32w, f16, f16s, bf16s, e4m3)");
    }
  }
  return words;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Fatal(path + ": cannot read");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A YAML block of words: `{address: 0x..., type: b32, values: [...]}` with 8 words per line.
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

// One kernel parameter: its bits and width, and how the YAML state spells it.
struct TensorMapSpec {
  int type = 0, rank = 0;
  bool out = false;  // over the output buffer, else the input
  std::uint64_t offset = 0;
  cuuint64_t dims[5] = {}, strides[4] = {};
  cuuint32_t box[5] = {}, estr[5] = {1, 1, 1, 1, 1};
  int swizzle = 0, l2 = 0, oob = 0, interleave = 0;
  bool im2col = false;  // cuTensorMapEncodeIm2col with the fields below
  int lower[3] = {}, upper[3] = {};
  cuuint32_t channels = 0, pixels = 0;
};

struct ParamPart {
  enum Kind { in, out, value, tmap, bytes } kind = value;
  std::uint64_t bits = 0;  // in: the byte offset into the input buffer
  bool wide = true;  // 8 bytes, else 4
  TensorMapSpec map;
  std::vector<unsigned char> raw;  // bytes
};

// One kernel parameter: one part, or several whose bytes follow each other (a struct by value).
using Param = std::vector<ParamPart>;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

TensorMapSpec parse_tmap(const std::string& spec, bool im2col) {
  static const char* types[] = {"u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32", "f64", "bf16", "f32ftz",
                                "tf32", "tf32ftz"};
  std::vector<std::string> f = split(spec, ';');
  TensorMapSpec m;
  if (im2col) {
    // TYPE;BUFFER;DIMS;STRIDES;LOWER;UPPER;CHANNELS;PIXELS;SWIZZLE...: the im2col fields taken out, and
    // a box of as many dimensions in their place for the tiled parser.
    if (f.size() < 9) throw Fatal("--params: i2c:" + spec + " needs TYPE;BUFFER;DIMS;STRIDES;LOWER;UPPER;CHANNELS;PIXELS;SWIZZLE");
    const std::vector<std::string> lo = split(f[4], 'x'), up = split(f[5], 'x');
    if (lo.size() != up.size() || lo.size() > 3) throw Fatal("--params: i2c:" + spec + ": as many lower as upper corners, at most 3");
    for (std::size_t i = 0; i < lo.size(); ++i) m.lower[i] = std::stoi(lo[i]), m.upper[i] = std::stoi(up[i]);
    m.channels = static_cast<cuuint32_t>(std::stoul(f[6]));
    m.pixels = static_cast<cuuint32_t>(std::stoul(f[7]));
    std::string box = "1";
    for (std::size_t i = 1; i < split(f[2], 'x').size(); ++i) box += "x1";
    f.erase(f.begin() + 4, f.begin() + 8);
    f.insert(f.begin() + 4, box);
  }
  if (f.size() < 6) throw Fatal("--params: tmap:" + spec + " needs TYPE;BUFFER;DIMS;STRIDES;BOX;SWIZZLE");
  m.im2col = im2col;
  m.type = -1;
  for (int t = 0; t < 13; ++t)
    if (f[0] == types[t]) m.type = t;
  if (m.type < 0) throw Fatal("--params: tmap type '" + f[0] + "' unknown");
  const std::string buf = f[1].substr(0, f[1].find('+'));
  if (buf != "in" && buf != "out") throw Fatal("--params: tmap buffer '" + f[1] + "' is not in or out");
  m.out = buf == "out";
  if (f[1].find('+') != std::string::npos) m.offset = std::stoull(f[1].substr(f[1].find('+') + 1), nullptr, 0);
  const std::vector<std::string> dims = split(f[2], 'x'), box = split(f[4], 'x');
  m.rank = static_cast<int>(dims.size());
  if (m.rank < 1 || m.rank > 5 || box.size() != dims.size()) throw Fatal("--params: tmap " + spec + ": rank 1..5, as many box sizes");
  for (int i = 0; i < m.rank; ++i) {
    m.dims[i] = std::stoull(dims[static_cast<std::size_t>(i)]);
    m.box[i] = static_cast<cuuint32_t>(std::stoul(box[static_cast<std::size_t>(i)]));
  }
  if (m.rank > 1) {
    const std::vector<std::string> st = split(f[3], 'x');
    if (static_cast<int>(st.size()) != m.rank - 1) throw Fatal("--params: tmap " + spec + ": rank - 1 strides");
    for (int i = 0; i + 1 < m.rank; ++i) m.strides[i] = std::stoull(st[static_cast<std::size_t>(i)]);
  }
  const int sw = std::stoi(f[5]);
  m.swizzle = sw == 0 ? 0 : sw == 32 ? 1 : sw == 64 ? 2 : sw == 128 ? 3 : -1;
  if (m.swizzle < 0) throw Fatal("--params: tmap swizzle 0, 32, 64 or 128");
  for (std::size_t k = 6; k < f.size(); ++k) {
    const auto eq = f[k].find('=');
    const std::string key = f[k].substr(0, eq), v = eq == std::string::npos ? "" : f[k].substr(eq + 1);
    if (key == "estr") {
      const std::vector<std::string> e = split(v, 'x');
      for (int i = 0; i < m.rank && i < static_cast<int>(e.size()); ++i) m.estr[i] = static_cast<cuuint32_t>(std::stoul(e[static_cast<std::size_t>(i)]));
    } else if (key == "l2") {
      const int l = std::stoi(v);
      m.l2 = l == 0 ? 0 : l == 64 ? 1 : l == 128 ? 2 : 3;
    } else if (key == "oob") {
      m.oob = v == "nan" ? 1 : 0;
    } else if (key == "il") {
      m.interleave = v == "16" ? 1 : v == "32" ? 2 : 0;
    } else {
      throw Fatal("--params: tmap key '" + key + "' unknown (estr, l2, oob, il)");
    }
  }
  return m;
}

CUtensorMap encode_map(const TensorMapSpec& m, std::uint64_t base) {
  CUtensorMap map;
  if (m.im2col) {
    cu_check(cuTensorMapEncodeIm2col(&map, static_cast<CUtensorMapDataType>(m.type), static_cast<cuuint32_t>(m.rank),
                                     reinterpret_cast<void*>(static_cast<std::uintptr_t>(base + m.offset)), m.dims,
                                     m.strides, m.lower, m.upper, m.channels, m.pixels, m.estr,
                                     static_cast<CUtensorMapInterleave>(m.interleave),
                                     static_cast<CUtensorMapSwizzle>(m.swizzle), static_cast<CUtensorMapL2promotion>(m.l2),
                                     static_cast<CUtensorMapFloatOOBfill>(m.oob)),
             "cuTensorMapEncodeIm2col");
    return map;
  }
  const CUresult r = cuTensorMapEncodeTiled(
      &map, static_cast<CUtensorMapDataType>(m.type), static_cast<cuuint32_t>(m.rank),
      reinterpret_cast<void*>(static_cast<std::uintptr_t>(base + m.offset)), m.dims, m.strides, m.box, m.estr,
      static_cast<CUtensorMapInterleave>(m.interleave), static_cast<CUtensorMapSwizzle>(m.swizzle),
      static_cast<CUtensorMapL2promotion>(m.l2), static_cast<CUtensorMapFloatOOBfill>(m.oob));
  cu_check(r, "cuTensorMapEncodeTiled");
  return map;
}

std::vector<unsigned char> parse_hex(const std::string& h) {
  if (h.empty() || h.size() % 2) throw Fatal("--params: hex:" + h + " needs an even number of hex digits");
  std::vector<unsigned char> out;
  for (std::size_t i = 0; i < h.size(); i += 2) {
    const std::string byte = h.substr(i, 2);
    if (byte.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) throw Fatal("--params: hex:" + h + " is not hex");
    out.push_back(static_cast<unsigned char>(std::stoul(byte, nullptr, 16)));
  }
  return out;
}

ParamPart parse_part(const std::string& item) {
  ParamPart p;
  if (item == "in") p.kind = ParamPart::in;
  else if (item.rfind("in+", 0) == 0) p.kind = ParamPart::in, p.bits = std::stoull(item.substr(3), nullptr, 0);
  else if (item == "out") p.kind = ParamPart::out;
  else if (item == "null") p.kind = ParamPart::value;
  else if (item.rfind("u32:", 0) == 0) p.bits = std::stoull(item.substr(4), nullptr, 0), p.wide = false;
  else if (item.rfind("u64:", 0) == 0) p.bits = std::stoull(item.substr(4), nullptr, 0);
  else if (item.rfind("tmap:", 0) == 0) p.kind = ParamPart::tmap, p.map = parse_tmap(item.substr(5), false);
  else if (item.rfind("i2c:", 0) == 0) p.kind = ParamPart::tmap, p.map = parse_tmap(item.substr(4), true);
  else if (item.rfind("hex:", 0) == 0) p.kind = ParamPart::bytes, p.raw = parse_hex(item.substr(4));
  else throw Fatal("--params: unknown item '" + item + "' (in, in+B, out, null, u32:V, u64:V, tmap:SPEC, i2c:SPEC, hex:BYTES)");
  if (p.kind == ParamPart::value && !p.wide && p.bits > 0xffffffffULL) throw Fatal("--params: " + item + " does not fit 32 bits");
  return p;
}

std::vector<Param> parse_params(const std::string& list) {
  std::vector<Param> out;
  for (const std::string& item : split(list, ',')) {
    Param p;
    for (const std::string& part : split(item, '&')) p.push_back(parse_part(part));
    if (p.empty()) throw Fatal("--params: empty item in '" + list + "'");
    out.push_back(p);
  }
  if (out.empty()) throw Fatal("--params: empty list");
  return out;
}

// A parameter's bytes with the input and output buffers at `in` and `out` (tensor maps encoded
// over them by the driver).
std::vector<unsigned char> param_bytes(const Param& param, std::uint64_t in, std::uint64_t out) {
  std::vector<unsigned char> b;
  for (const ParamPart& p : param) {
    if (p.kind == ParamPart::bytes) {
      b.insert(b.end(), p.raw.begin(), p.raw.end());
    } else if (p.kind == ParamPart::tmap) {
      const CUtensorMap map = encode_map(p.map, p.map.out ? out : in);
      const auto* m = reinterpret_cast<const unsigned char*>(&map);
      b.insert(b.end(), m, m + sizeof map);
    } else {
      const std::uint64_t v = p.kind == ParamPart::in ? in + p.bits : p.kind == ParamPart::out ? out : p.bits;
      for (int i = 0; i < (p.wide ? 8 : 4); ++i) b.push_back(static_cast<unsigned char>(v >> (8 * i)));
    }
  }
  return b;
}

struct Options {
  std::string ptx, entry, in_spec, yaml, params = "in,out";
  int threads = 32, out_words = 0, cases = 2, device = 0;
  unsigned dynamic_shared = 0;
  unsigned grid[3] = {1, 1, 1}, cluster[3] = {1, 1, 1};
  std::uint64_t seed = 1;
  std::vector<std::string> warnings;
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
    else if (a == "--entry") o.entry = value();
    else if (a == "--threads") o.threads = std::stoi(value());
    else if (a == "--in") o.in_spec = value();
    else if (a == "--out-words") o.out_words = std::stoi(value());
    else if (a == "--cases") o.cases = std::stoi(value());
    else if (a == "--seed") o.seed = std::stoull(value());
    else if (a == "--yaml") o.yaml = value();
    else if (a == "--device") o.device = std::stoi(value());
    else if (a == "--params") o.params = value();
    else if (a == "--expect-warning") o.warnings.push_back(value());
    else if (a == "--dynamic-shared") o.dynamic_shared = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--grid") {
      std::stringstream ss(value());
      std::string part;
      for (int k = 0; k < 3 && std::getline(ss, part, ','); ++k) {
        o.grid[k] = static_cast<unsigned>(std::stoul(part));
        if (o.grid[k] < 1 || o.grid[k] > 65535) throw Fatal("--grid values must be 1..65535");
      }
    }
    else if (a == "--cluster") {
      const std::vector<std::string> c = split(value(), ',');
      for (std::size_t k = 0; k < 3 && k < c.size(); ++k) {
        o.cluster[k] = static_cast<unsigned>(std::stoul(c[k]));
        if (o.cluster[k] < 1 || o.cluster[k] > 16) throw Fatal("--cluster values must be 1..16");
      }
    }
    else throw Fatal("unknown option " + a);
  }
  if (o.ptx.empty() || o.entry.empty() || o.in_spec.empty() || o.out_words <= 0)
    throw Fatal("usage: snippet_capture --ptx FILE --entry NAME --threads T --in SPEC --out-words N [--cases C] "
                "[--seed S] [--yaml OUT] [--device D]");
  if (o.threads < 1 || o.threads > 1024) throw Fatal("--threads must be 1..1024");
  return o;
}

std::string ptx_basename(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int main(int argc, char** argv) try {
  const Options opt = parse(argc, argv);
  const std::string ptx = read_file(opt.ptx);

  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, opt.device));
  char name[256] = {};
  CU(cuDeviceGetName(name, sizeof name, dev));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  std::vector<char> log(16384, 0);
  CUjit_option jo[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* jv[] = {log.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(log.size()))};
  CUmodule mod;
  const CUresult jr = cuModuleLoadDataEx(&mod, ptx.c_str(), 2, jo, jv);
  if (jr != CUDA_SUCCESS) throw Fatal(opt.ptx + ": JIT failed: " + log.data());
  CUfunction fn;
  CU(cuModuleGetFunction(&fn, mod, opt.entry.c_str()));
  if (opt.dynamic_shared > 48 * 1024)
    CU(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(opt.dynamic_shared)));
  std::vector<Param> params = parse_params(opt.params);
  // The vector's parameters: a plain pointer or value as a number, anything else as its bytes.
  std::string yaml_params;
  for (const Param& p : params) {
    yaml_params += yaml_params.empty() ? "" : ", ";
    if (p.size() == 1 && p[0].kind != ParamPart::tmap && p[0].kind != ParamPart::bytes) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(
          p[0].kind == ParamPart::in ? kInAddress + p[0].bits : p[0].kind == ParamPart::out ? kOutAddress : p[0].bits));
      yaml_params += buf;
      continue;
    }
    yaml_params += "{bytes: \"";
    char hex[4];
    for (const unsigned char b : param_bytes(p, kInAddress, kOutAddress)) {
      std::snprintf(hex, sizeof hex, "%02x", b);
      yaml_params += hex;
    }
    yaml_params += "\"}";
  }
  const bool clustered = opt.cluster[0] * opt.cluster[1] * opt.cluster[2] > 1;

  std::ostringstream y;
  y << "# Captured on " << name << " by tools/capture/snippet_capture (docs/hardware/snippets-sm90.md):\n"
    << "#   snippet_capture --ptx " << ptx_basename(opt.ptx) << " --entry " << opt.entry << " --threads "
    << opt.threads << " --in " << opt.in_spec << " --out-words " << opt.out_words
    << (opt.grid[0] * opt.grid[1] * opt.grid[2] > 1
            ? " --grid " + std::to_string(opt.grid[0]) + "," + std::to_string(opt.grid[1]) + "," + std::to_string(opt.grid[2])
            : std::string())
    << (clustered ? " --cluster " + std::to_string(opt.cluster[0]) + "," + std::to_string(opt.cluster[1]) + "," + std::to_string(opt.cluster[2])
                  : std::string())
    << (opt.params != "in,out" ? " --params '" + opt.params + "'" : std::string())
    << (opt.dynamic_shared ? " --dynamic-shared " + std::to_string(opt.dynamic_shared) : std::string())
    << [&] {
         std::string w;
         for (const std::string& t : opt.warnings) w += " --expect-warning '" + t + "'";
         return w;
       }()
    << " --cases " << opt.cases
    << " --seed " << opt.seed << "\n"
    << "# Expected values are the words the GPU stored; do not edit.\n"
    << "description: \"" << opt.entry << ": compiler-emitted PTX, results captured on " << name << "\"\n"
    << "target: sm_90a\ncases:\n";
  for (int c = 0; c < opt.cases; ++c) {
    Rng rng{opt.seed * 1000003ULL + static_cast<std::uint64_t>(c)};
    const std::vector<std::uint32_t> in = fill(opt.in_spec, rng);
    std::vector<std::uint32_t> out(static_cast<std::size_t>(opt.out_words), kOutFill);
    CUdeviceptr din, dout;
    CU(cuMemAlloc(&din, in.size() * 4));
    CU(cuMemAlloc(&dout, out.size() * 4));
    CU(cuMemcpyHtoD(din, in.data(), in.size() * 4));
    CU(cuMemcpyHtoD(dout, out.data(), out.size() * 4));
    // Each parameter's bytes in its own buffer: cuLaunchKernel reads as many as the kernel declares
    // (a u32 reads the low 4 bytes of a slot: little-endian).
    std::vector<std::vector<unsigned char>> bytes(params.size());
    std::vector<void*> args(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
      bytes[i] = param_bytes(params[i], din, dout);
      bytes[i].resize(std::max<std::size_t>(bytes[i].size(), 8));
      args[i] = bytes[i].data();
    }
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = opt.cluster[0], attr.value.clusterDim.y = opt.cluster[1], attr.value.clusterDim.z = opt.cluster[2];
    CUlaunchConfig config{};
    config.gridDimX = opt.grid[0], config.gridDimY = opt.grid[1], config.gridDimZ = opt.grid[2];
    config.blockDimX = static_cast<unsigned>(opt.threads), config.blockDimY = 1, config.blockDimZ = 1;
    config.sharedMemBytes = opt.dynamic_shared;
    config.attrs = &attr;
    config.numAttrs = clustered ? 1 : 0;
    CU(cuLaunchKernelEx(&config, fn, args.data(), nullptr));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out.data(), dout, out.size() * 4));
    CU(cuMemFree(din));
    CU(cuMemFree(dout));

    y << "  - name: " << opt.entry << " case " << c << "\n"
      << "    snippet_file: " << ptx_basename(opt.ptx) << "\n"
      << "    entry: " << opt.entry << "\n"
      << "    init:\n"
      << "      ntid: [" << opt.threads << ", 1, 1]\n";
    if (opt.grid[0] * opt.grid[1] * opt.grid[2] > 1)
      y << "      nctaid: [" << opt.grid[0] << ", " << opt.grid[1] << ", " << opt.grid[2] << "]\n";
    if (clustered) y << "      cluster: [" << opt.cluster[0] << ", " << opt.cluster[1] << ", " << opt.cluster[2] << "]\n";
    if (opt.dynamic_shared) y << "      dynamic_shared: " << opt.dynamic_shared << "\n";
    y << "      params: [" << yaml_params << "]\n"
      << "      global:\n";
    write_words(y, "        ", kInAddress, in);
    y << "        - {address: " << std::hex << std::showbase << kOutAddress << std::dec << std::noshowbase
      << ", type: b32, ramp: {start: 0xcdcdcdcd, step: 0, count: " << out.size() << "}}\n";
    y << "    expect:\n";
    if (!opt.warnings.empty()) {
      y << "      warnings: [";
      for (std::size_t i = 0; i < opt.warnings.size(); ++i) y << (i ? ", " : "") << '"' << opt.warnings[i] << '"';
      y << "]\n";
    }
    y << "      global:\n";
    write_words(y, "        ", kOutAddress, out);
  }
  CU(cuModuleUnload(mod));
  CU(cuDevicePrimaryCtxRelease(dev));
  if (opt.yaml.empty()) {
    std::cout << y.str();
  } else {
    std::ofstream f(opt.yaml);
    if (!f) throw Fatal(opt.yaml + ": cannot write");
    f << y.str();
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "snippet_capture: " << e.what() << "\n";
  return 1;
}
