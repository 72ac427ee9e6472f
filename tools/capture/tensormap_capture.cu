// tensormap_capture: the 128-byte CUtensorMap that cuTensorMapEncodeTiled writes, over its
// parameters, as text for docs/hardware/tensormap-sm90.md and sim/exec/tensor_map's tests.
//
//   tensormap_capture [--random N] [--seed S] > maps.txt
//
// One line per call:
//   tiled type=T rank=R addr=0x.. dims=D0,D1,.. strides=S1,.. box=B0,.. estr=E0,.. il=I swz=W l2=L oob=O
//     -> ok <256 hex digits, byte 0 first>        or   -> CUDA_ERROR_...
// (strides: the rank - 1 byte strides of dimensions 1 ..; every enum as its CUDA value). The calls:
// a baseline, then each parameter varied alone over its range (the field each one lands in),
// then N random valid combinations, then invalid ones (what the driver refuses).
// cuTensorMapEncodeTiled is host code of the driver: it needs libcuda (a stub is not enough) and a
// current context. Then cuTensorMapEncodeIm2col the same way (lines starting `im2col`, with the
// pixel box's corners, W first, the channels per pixel and pixels per column; its box unused).
//
// Dependencies: the CUDA driver API (-lcuda) and the C++17 standard library.

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t range(std::uint64_t lo, std::uint64_t hi) { return lo + next() % (hi - lo + 1); }
};

struct Params {
  int type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  int rank = 2;
  std::uint64_t addr = 0x100000;
  std::uint64_t dims[5] = {1000, 300, 1, 1, 1};
  std::uint64_t strides[4] = {2048, 0, 0, 0};
  std::uint32_t box[5] = {64, 32, 1, 1, 1};
  std::uint32_t estr[5] = {1, 1, 1, 1, 1};
  int il = 0, swz = 0, l2 = 0, oob = 0;
};

int elem_bytes(int type) {
  static const int b[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return type >= 0 && type < 13 ? b[type] : 1;
}

std::string list(const std::uint64_t* v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}
std::string list(const std::uint32_t* v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

void encode(const Params& p) {
  CUtensorMap map;
  for (auto& q : map.opaque) q = 0xa5a5a5a5a5a5a5a5ULL;  // what the call leaves untouched shows
  const CUresult r = cuTensorMapEncodeTiled(
      &map, static_cast<CUtensorMapDataType>(p.type), static_cast<cuuint32_t>(p.rank),
      reinterpret_cast<void*>(static_cast<std::uintptr_t>(p.addr)), p.dims, p.strides, p.box, p.estr,
      static_cast<CUtensorMapInterleave>(p.il), static_cast<CUtensorMapSwizzle>(p.swz),
      static_cast<CUtensorMapL2promotion>(p.l2), static_cast<CUtensorMapFloatOOBfill>(p.oob));
  std::printf("tiled type=%d rank=%d addr=%#llx dims=%s strides=%s box=%s estr=%s il=%d swz=%d l2=%d oob=%d -> ", p.type,
              p.rank, static_cast<unsigned long long>(p.addr), list(p.dims, p.rank).c_str(),
              list(p.strides, p.rank - 1).c_str(), list(p.box, p.rank).c_str(), list(p.estr, p.rank).c_str(), p.il,
              p.swz, p.l2, p.oob);
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    std::printf("%s\n", name ? name : "?");
    return;
  }
  std::printf("ok ");
  const auto* b = reinterpret_cast<const unsigned char*>(&map);
  for (int i = 0; i < 128; ++i) std::printf("%02x", b[i]);
  std::printf("\n");
}

// Packed strides for dims of elements of e bytes, rounded up to 16 bytes, times a padding factor.
void dense_strides(Params& p, Rng* r) {
  std::uint64_t s = p.dims[0] * static_cast<std::uint64_t>(elem_bytes(p.type));
  for (int i = 0; i + 1 < p.rank; ++i) {
    s = (s + 15) / 16 * 16;
    if (r) s += 16 * r->range(0, 4);
    p.strides[i] = s;
    s *= p.dims[i + 1];
  }
}

Params random_valid(Rng& r) {
  Params p;
  p.type = static_cast<int>(r.range(0, 12));
  p.rank = static_cast<int>(r.range(1, 5));
  p.il = p.rank >= 3 ? static_cast<int>(r.range(0, 2)) : 0;
  const int e = elem_bytes(p.type);
  p.swz = p.il == 2 ? 1 : static_cast<int>(r.range(0, 3));
  p.l2 = static_cast<int>(r.range(0, 3));
  const bool is_float = p.type >= 6;
  p.oob = is_float ? static_cast<int>(r.range(0, 1)) : 0;
  p.addr = (r.next() & ((1ULL << 48) - 1)) & ~static_cast<std::uint64_t>(p.il == 2 ? 31 : 15);
  std::uint64_t total = 1;
  for (int i = 0; i < p.rank; ++i) {
    const int bits = static_cast<int>(r.range(0, p.rank == 1 ? 32 : 40 / p.rank));
    p.dims[i] = r.range(1, 1ULL << bits);
    total *= p.dims[i];
    p.estr[i] = static_cast<std::uint32_t>(r.range(1, 8));
    p.box[i] = static_cast<std::uint32_t>(r.range(1, 256));
  }
  (void)total;
  // The inner box: a multiple of 16 bytes (no interleave), within the swizzle span.
  if (p.il == 0) {
    const std::uint32_t unit = 16 / static_cast<std::uint32_t>(e);
    const std::uint32_t span = p.swz ? (16U << p.swz) / static_cast<std::uint32_t>(e) : 256;
    const std::uint32_t limit = span < 256 ? span : 256;
    p.box[0] = unit * static_cast<std::uint32_t>(r.range(1, limit / unit));
  } else {
    p.box[0] = static_cast<std::uint32_t>(r.range(1, (p.il == 1 ? 16 : 32) / e));
  }
  dense_strides(p, &r);
  if (p.il == 2)
    for (int i = 0; i + 1 < p.rank; ++i) p.strides[i] = (p.strides[i] + 31) / 32 * 32;
  return p;
}

// The parameters of cuTensorMapEncodeIm2col besides Params' (whose box is unused): the pixel
// box's corners (W first, rank - 2 of them) and the counts.
struct Im2col {
  Params p;
  int lower[3] = {-1, -1, -1}, upper[3] = {-1, -1, -1};
  unsigned channels = 64, pixels = 128;
};

void encode_im2col(const Im2col& q) {
  const Params& p = q.p;
  CUtensorMap map;
  for (auto& w : map.opaque) w = 0xa5a5a5a5a5a5a5a5ULL;
  const CUresult r = cuTensorMapEncodeIm2col(
      &map, static_cast<CUtensorMapDataType>(p.type), static_cast<cuuint32_t>(p.rank),
      reinterpret_cast<void*>(static_cast<std::uintptr_t>(p.addr)), p.dims, p.strides, q.lower, q.upper, q.channels,
      q.pixels, p.estr, static_cast<CUtensorMapInterleave>(p.il), static_cast<CUtensorMapSwizzle>(p.swz),
      static_cast<CUtensorMapL2promotion>(p.l2), static_cast<CUtensorMapFloatOOBfill>(p.oob));
  const int corners = p.rank >= 3 ? p.rank - 2 : 1;
  std::string lo, up;
  for (int i = 0; i < corners && i < 3; ++i)
    lo += (i ? "," : "") + std::to_string(q.lower[i]), up += (i ? "," : "") + std::to_string(q.upper[i]);
  std::printf("im2col type=%d rank=%d addr=%#llx dims=%s strides=%s lower=%s upper=%s channels=%u pixels=%u estr=%s il=%d swz=%d l2=%d oob=%d -> ",
              p.type, p.rank, static_cast<unsigned long long>(p.addr), list(p.dims, p.rank > 0 ? p.rank : 1).c_str(),
              list(p.strides, p.rank > 1 ? p.rank - 1 : 0).c_str(), lo.c_str(), up.c_str(), q.channels, q.pixels,
              list(p.estr, p.rank > 0 ? p.rank : 1).c_str(), p.il, p.swz, p.l2, p.oob);
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    std::printf("%s\n", name ? name : "?");
    return;
  }
  std::printf("ok ");
  const auto* b = reinterpret_cast<const unsigned char*>(&map);
  for (int i = 0; i < 128; ++i) std::printf("%02x", b[i]);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  int random = 2000;
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--random") random = std::atoi(argv[i + 1]);
    else if (a == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 0);
  }
  // The encoder wants a current context (CUDA_ERROR_INVALID_CONTEXT without one).
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
    std::fprintf(stderr, "tensormap_capture: no CUDA context\n");
    return 1;
  }
  const Params base;
  encode(base);
  // The address, bit by bit.
  for (int b = 4; b < 64; ++b) {
    Params p = base;
    p.addr = 1ULL << b;
    encode(p);
  }
  // Each parameter alone.
  for (int t = 0; t <= 15; ++t) {
    Params p = base;
    p.type = t;
    p.box[0] = 64;
    encode(p);
  }
  for (int rank = 1; rank <= 5; ++rank) {
    Params p = base;
    p.rank = rank;
    for (int i = 0; i < 5; ++i) p.dims[i] = 3 + static_cast<std::uint64_t>(i) * 5, p.box[i] = 2 + static_cast<std::uint32_t>(i);
    p.box[0] = 8;
    dense_strides(p, nullptr);
    encode(p);
  }
  for (int d = 0; d < 5; ++d)
    for (int b = 0; b <= 32; ++b) {
      Params p = base;
      p.rank = 5;
      for (int i = 1; i < 5; ++i) p.dims[i] = 2;
      p.dims[d] = 1ULL << b;
      dense_strides(p, nullptr);
      encode(p);
    }
  for (int d = 0; d < 4; ++d)
    for (int b = 4; b <= 40; ++b) {
      Params p = base;
      p.rank = 5;
      for (int i = 1; i < 5; ++i) p.dims[i] = 2;
      dense_strides(p, nullptr);
      p.strides[d] = 1ULL << b;
      encode(p);
    }
  for (int d = 0; d < 5; ++d)
    for (std::uint32_t v : {1U, 2U, 3U, 8U, 16U, 17U, 64U, 128U, 255U, 256U, 257U}) {
      Params p = base;
      p.rank = 5;
      for (int i = 1; i < 5; ++i) p.dims[i] = 300;
      dense_strides(p, nullptr);
      p.box[d] = d == 0 ? v * 8 : v;
      encode(p);
      Params q = p;
      q.estr[d] = v <= 9 ? v : 1;
      encode(q);
    }
  for (int il = 0; il <= 2; ++il)
    for (int swz = 0; swz <= 6; ++swz) {
      Params p = base;
      p.rank = 3;
      p.dims[2] = 4;
      p.box[2] = 2;
      p.box[0] = il == 0 ? 16 : il == 1 ? 8 : 16;
      dense_strides(p, nullptr);
      p.il = il;
      p.swz = swz;
      encode(p);
    }
  for (int l2 = 0; l2 <= 3; ++l2)
    for (int oob = 0; oob <= 1; ++oob) {
      Params p = base;
      p.box[0] = 16;
      p.l2 = l2;
      p.oob = oob;
      encode(p);
    }
  Rng r{seed};
  for (int i = 0; i < random; ++i) encode(random_valid(r));
  // Invalid: what the driver refuses.
  {
    Params p = base;
    p.addr = 0x100008;
    encode(p);
    p = base;
    p.strides[0] = 2056;
    encode(p);
    p = base;
    p.dims[1] = 0;
    encode(p);
    p = base;
    p.dims[1] = (1ULL << 32) + 1;
    encode(p);
    p = base;
    p.box[0] = 4;
    encode(p);
    p = base;
    p.box[1] = 257;
    encode(p);
    p = base;
    p.estr[1] = 9;
    encode(p);
    p = base;
    p.estr[0] = 0;
    encode(p);
    p = base;
    p.swz = 1;  // 64 f16 = 128 bytes in a 32-byte span
    encode(p);
    p = base;
    p.swz = 3;
    p.box[0] = 128;
    encode(p);
    p = base;
    p.il = 1;
    encode(p);
    p = base;
    p.type = 2;
    p.oob = 1;
    encode(p);
    p = base;
    p.rank = 6;
    encode(p);
    p = base;
    p.strides[0] = 1ULL << 40;
    encode(p);
    p = base;
    p.rank = 3;
    p.il = 2;
    p.swz = 2;
    p.box[0] = 16;
    dense_strides(p, nullptr);
    encode(p);
    p = base;
    p.strides[0] = 1024;  // below dims[0] * 2
    encode(p);
  }
  // im2col (lines `im2col`): a baseline (NHWC f16, C 64 x W 20 x H 12 x N 3, corners (-1, -1) and
  // (-1, -1), 64 channels, 128 pixels, 128B swizzle), each parameter varied alone, random valid
  // calls and invalid ones.
  Im2col ib;
  ib.p.rank = 4;
  ib.p.dims[0] = 64, ib.p.dims[1] = 20, ib.p.dims[2] = 12, ib.p.dims[3] = 3;
  ib.p.swz = 3;
  dense_strides(ib.p, nullptr);
  encode_im2col(ib);
  for (int b = 4; b < 64; ++b) {
    Im2col q = ib;
    q.p.addr = 1ULL << b;
    encode_im2col(q);
  }
  for (int t = 0; t <= 15; ++t) {
    Im2col q = ib;
    q.p.type = t;
    q.channels = 128 / static_cast<unsigned>(elem_bytes(t));
    encode_im2col(q);
  }
  for (int rank = 1; rank <= 5; ++rank) {
    Im2col q = ib;
    q.p.rank = rank;
    for (int i = 0; i < 5; ++i) q.p.dims[i] = 64 - 8 * static_cast<std::uint64_t>(i);
    dense_strides(q.p, nullptr);
    encode_im2col(q);
  }
  // The corners over their ranges, one at a time, for each rank.
  for (int rank = 3; rank <= 5; ++rank) {
    const int lim = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
    for (int k = 0; k < rank - 2; ++k)
      for (const int v : {-lim - 1, -lim, -lim + 1, -lim / 2 - 1, -5, -2, -1, 0, 1, 3, lim / 2 + 1, lim - 2, lim - 1, lim})
        for (int which = 0; which < 2; ++which) {
          Im2col q = ib;
          q.p.rank = rank;
          for (int i = 0; i < 5; ++i) q.p.dims[i] = i == 0 ? 64 : 40;
          dense_strides(q.p, nullptr);
          (which ? q.upper : q.lower)[k] = v;
          encode_im2col(q);
        }
  }
  for (const unsigned ch : {1U, 2U, 4U, 7U, 8U, 16U, 24U, 32U, 63U, 64U, 65U, 96U, 128U, 255U, 256U, 257U, 512U})
    for (int swz = 0; swz <= 3; ++swz) {
      Im2col q = ib;
      q.p.swz = swz;
      q.channels = ch;
      q.p.dims[0] = 512;
      dense_strides(q.p, nullptr);
      encode_im2col(q);
    }
  for (const unsigned px : {0U, 1U, 2U, 3U, 8U, 31U, 64U, 127U, 128U, 255U, 256U, 257U, 511U, 512U, 1023U, 1024U, 1025U}) {
    Im2col q = ib;
    q.pixels = px;
    encode_im2col(q);
    q.channels = 8;
    encode_im2col(q);
  }
  for (int d = 0; d < 5; ++d)
    for (const std::uint32_t v : {0U, 1U, 2U, 3U, 5U, 8U, 9U}) {
      Im2col q = ib;
      q.p.rank = 5;
      q.p.dims[4] = 2;
      dense_strides(q.p, nullptr);
      q.p.estr[d] = v;
      encode_im2col(q);
    }
  for (int d = 0; d < 4; ++d)
    for (int b = 0; b <= 32; b += (b < 4 || b > 28 ? 1 : 4)) {
      Im2col q = ib;
      q.p.dims[d] = 1ULL << b;
      dense_strides(q.p, nullptr);
      encode_im2col(q);
    }
  for (int d = 0; d < 3; ++d)
    for (int b = 4; b <= 40; ++b) {
      Im2col q = ib;
      dense_strides(q.p, nullptr);
      q.p.strides[d] = 1ULL << b;
      encode_im2col(q);
    }
  for (int il = 0; il <= 2; ++il)
    for (int swz = 0; swz <= 6; ++swz)
      for (const unsigned ch : {8U, 16U, 64U}) {
        Im2col q = ib;
        q.p.rank = 5;
        q.p.dims[0] = 8;
        q.p.dims[4] = 2;
        dense_strides(q.p, nullptr);
        q.p.il = il;
        q.p.swz = swz;
        q.channels = ch;
        encode_im2col(q);
      }
  for (int l2 = 0; l2 <= 4; ++l2)
    for (int oob = 0; oob <= 2; ++oob) {
      Im2col q = ib;
      q.p.l2 = l2;
      q.p.oob = oob;
      encode_im2col(q);
    }
  for (int i = 0; i < random / 3; ++i) {
    Im2col q;
    q.p = random_valid(r);
    q.p.rank = static_cast<int>(r.range(3, 5));
    q.p.il = static_cast<int>(r.range(0, 4)) == 0 ? static_cast<int>(r.range(1, 2)) : 0;
    q.p.swz = q.p.il == 2 ? 1 : static_cast<int>(r.range(0, 3));
    const int e = elem_bytes(q.p.type);
    const int lim = q.p.rank == 3 ? 32768 : q.p.rank == 4 ? 128 : 16;
    for (int k = 0; k < q.p.rank; ++k) q.p.dims[k] = r.range(1, k == 0 ? 300 : 100), q.p.estr[k] = static_cast<std::uint32_t>(r.range(1, 8));
    for (int k = 0; k < 3; ++k) {
      q.lower[k] = static_cast<int>(r.range(0, static_cast<std::uint64_t>(2 * lim - 1))) - lim;
      q.upper[k] = static_cast<int>(r.range(0, static_cast<std::uint64_t>(2 * lim - 1))) - lim;
    }
    const unsigned span = q.p.il ? 16U * static_cast<unsigned>(q.p.il) : q.p.swz ? 16U << q.p.swz : 256U * static_cast<unsigned>(e);
    q.channels = static_cast<unsigned>(r.range(1, std::min<unsigned>(256, span / static_cast<unsigned>(e))));
    if (r.range(0, 1)) q.channels = (q.channels + 15) / 16 * 16;
    q.pixels = static_cast<unsigned>(r.range(1, 1024));
    q.p.addr &= ~static_cast<std::uint64_t>(31);
    dense_strides(q.p, &r);
    if (q.p.il == 2)
      for (int k = 0; k + 1 < q.p.rank; ++k) q.p.strides[k] = (q.p.strides[k] + 31) / 32 * 32;
    encode_im2col(q);
  }
  {
    Im2col q = ib;
    q.p.addr = 0x100008;
    encode_im2col(q);
    q = ib;
    q.lower[0] = 5, q.upper[0] = -20;  // an empty box in W
    encode_im2col(q);
    q = ib;
    q.lower[1] = 0, q.upper[1] = -12;
    encode_im2col(q);
    q = ib;
    q.p.type = 2, q.p.oob = 1, q.channels = 32;
    encode_im2col(q);
    q = ib;
    q.p.il = 2, q.p.swz = 3;
    encode_im2col(q);
    q = ib;
    q.channels = 0;
    encode_im2col(q);
    q = ib;
    q.p.strides[0] = 136;
    encode_im2col(q);
  }
  return 0;
}
