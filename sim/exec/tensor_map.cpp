#include "sim/exec/tensor_map.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"

namespace ptxmma {

namespace {

constexpr std::string_view kTypeNames[] = {"u8",  "u16", "u32",  "s32",     "u64",  "s64",     "f16",
                                           "f32", "f64", "bf16", "f32_ftz", "tf32", "tf32_ftz"};
constexpr int kTypeBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
// The element code in qword 1 bits 7..10 per driver type; tf32 and tf32_ftz also set bit 16.
constexpr int kTypeCode[] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 7, 8};
// The most bytes a box may hold: 227 KiB, a CTA's largest shared memory on sm_90 (the driver took
// 232,320 and refused 233,856).
constexpr std::uint64_t kMaxBoxBytes = 227 * 1024;

std::uint64_t word(const TensorMapBytes& b, int q) {
  std::uint64_t w = 0;
  for (int i = 7; i >= 0; --i) w = (w << 8) | b[static_cast<std::size_t>(8 * q + i)];
  return w;
}

void put(TensorMapBytes& b, int q, std::uint64_t w) {
  for (int i = 0; i < 8; ++i) b[static_cast<std::size_t>(8 * q + i)] = static_cast<std::uint8_t>(w >> (8 * i));
}

// An im2col map's pixel-box corners: 16 bits each at rank 3, 8 at rank 4, 5 at rank 5.
int corner_bits(int rank) { return rank == 3 ? 16 : rank == 4 ? 8 : 5; }

std::uint64_t box_bytes(const TensorMapParams& p) {
  std::uint64_t n = static_cast<std::uint64_t>(element_bytes(p.type));
  if (p.im2col) return n * p.channels * p.pixels;
  for (int i = 0; i < p.rank; ++i) {
    const auto k = static_cast<std::size_t>(i);
    n *= p.box[k] / p.element_strides[k];
  }
  return n;
}

[[noreturn]] void fail(const std::string& s) { throw Error("tensor map: " + s); }

// What cuTensorMapEncodeIm2col refuses besides what both encoders do (all 1,631 calls of the
// capture): corners outside their bits, no channels or pixels, more than 256 channels or 1024
// pixels, a pixel not a multiple of 16 bytes or (without interleave) wider than the swizzle span,
// and a pixel box that is empty in a dimension. With interleave the driver checks corner k against
// dimension k rather than k + 1, and lets a pixel exceed the interleave and the swizzle.
void check_im2col(const TensorMapParams& p) {
  if (p.rank < 3) fail(fmt::format("an im2col map has a rank of 3 to 5, not {}", p.rank));
  const int limit = 1 << (corner_bits(p.rank) - 1);
  for (int k = 0; k + 2 < p.rank; ++k) {
    const auto u = static_cast<std::size_t>(k);
    for (const int v : {p.lower[u], p.upper[u]})
      if (v < -limit || v >= limit)
        fail(fmt::format("a pixel-box corner of {} in dimension {} is outside {}..{} (rank {})", v, k + 1, -limit,
                         limit - 1, p.rank));
    const std::size_t d = p.interleave != 0 ? u : u + 1;
    if (static_cast<std::int64_t>(p.dims[d]) - 1 + p.upper[u] < p.lower[u])
      fail(fmt::format("the pixel box is empty in dimension {}: from {} to {} - 1 {:+}", d, p.lower[u], p.dims[d],
                       p.upper[u]));
  }
  if (p.channels == 0 || p.channels > 256) fail(fmt::format("{} channels per pixel; 1 .. 256", p.channels));
  if (p.pixels == 0 || p.pixels > 1024) fail(fmt::format("{} pixels per column; 1 .. 1024", p.pixels));
  const std::uint64_t inner = static_cast<std::uint64_t>(p.channels) * static_cast<std::uint64_t>(element_bytes(p.type));
  if (inner % 16 != 0) fail(fmt::format("a pixel's {} channels are {} bytes, not a multiple of 16", p.channels, inner));
  if (p.interleave == 0 && p.swizzle != 0 && inner > static_cast<std::uint64_t>(swizzle_span(p.swizzle)))
    fail(fmt::format("a pixel's {} bytes are wider than the {}B swizzle", inner, swizzle_span(p.swizzle)));
}

void check(const TensorMapParams& p) {
  if (p.rank < 1 || p.rank > 5) fail(fmt::format("rank {} is outside 1..5", p.rank));
  if (p.interleave < 0 || p.interleave > 2) fail(fmt::format("interleave {} is not none, 16B or 32B", p.interleave));
  if (p.swizzle < 0 || p.swizzle > 3) fail(fmt::format("swizzle {} is not none, 32B, 64B or 128B", p.swizzle));
  if (p.l2_promotion < 0 || p.l2_promotion > 3) fail(fmt::format("L2 promotion {} is not none, 64B, 128B or 256B", p.l2_promotion));
  const std::uint64_t align = p.interleave == 2 ? 32 : 16;
  if (p.address % align != 0) fail(fmt::format("the global address {:#x} is not {}-byte aligned", p.address, align));
  if (p.address >> 57 != 0) fail(fmt::format("the global address {:#x} is not below 2^57", p.address));
  const int e = element_bytes(p.type);
  for (int i = 0; i < p.rank; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (p.dims[k] == 0 || p.dims[k] > (1ULL << 32))
      fail(fmt::format("dimension {} has {} elements; 1 .. 2^32", i, p.dims[k]));
    if (!p.im2col && (p.box[k] == 0 || p.box[k] > 256))
      fail(fmt::format("the box has {} elements in dimension {}; 1 .. 256", p.box[k], i));
    if (p.element_strides[k] == 0 || p.element_strides[k] > 8)
      fail(fmt::format("the element stride of dimension {} is {}; 1 .. 8", i, p.element_strides[k]));
  }
  for (int i = 0; i + 1 < p.rank; ++i) {
    const std::uint64_t s = p.strides[static_cast<std::size_t>(i)];
    if (s % align != 0 || s >= (1ULL << 40))
      fail(fmt::format("the stride of dimension {} is {} bytes; a multiple of {} below 2^40", i + 1, s, align));
  }
  if (p.im2col) {
    check_im2col(p);
  } else {
    const std::uint64_t inner = static_cast<std::uint64_t>(p.box[0]) * static_cast<std::uint64_t>(e);
    if (inner % 16 != 0) fail(fmt::format("the box's inner dimension is {} bytes, not a multiple of 16", inner));
    if (p.interleave != 0) {
      if (p.rank < 3) fail(fmt::format("interleave needs a rank of 3 or more, not {}", p.rank));
      if (inner > 16U * static_cast<unsigned>(p.interleave))
        fail(fmt::format("the box's inner dimension is {} bytes, wider than the {}B interleave", inner, 16 * p.interleave));
      if (p.interleave == 2 && p.swizzle != 1) fail("32B interleave needs the 32B swizzle");
    } else if (p.swizzle != 0 && inner > static_cast<std::uint64_t>(swizzle_span(p.swizzle))) {
      fail(fmt::format("the box's inner dimension is {} bytes, wider than the {}B swizzle", inner, swizzle_span(p.swizzle)));
    }
  }
  if (p.oob_nan && static_cast<int>(p.type) < static_cast<int>(TensorMapType::f16))
    fail(fmt::format("a NaN out-of-bounds fill needs a floating-point type, not {}", name(p.type)));
  if (box_bytes(p) > kMaxBoxBytes) fail(fmt::format("the box holds {} bytes, more than {}", box_bytes(p), kMaxBoxBytes));
}

}  // namespace

std::string_view name(TensorMapType t) { return kTypeNames[static_cast<int>(t)]; }

std::optional<TensorMapType> parse_tensor_map_type(std::string_view s) {
  for (int i = 0; i < 13; ++i)
    if (kTypeNames[i] == s) return static_cast<TensorMapType>(i);
  return std::nullopt;
}

int element_bytes(TensorMapType t) { return kTypeBytes[static_cast<int>(t)]; }

TensorMapBytes encode_tensor_map(const TensorMapParams& p) {
  check(p);
  TensorMapBytes b{};
  const auto t = static_cast<int>(p.type);
  std::uint64_t s[4] = {};
  for (int i = 0; i + 1 < p.rank; ++i) s[i] = p.strides[static_cast<std::size_t>(i)] >> 4;
  put(b, 0, p.address);
  put(b, 1, static_cast<std::uint64_t>(p.im2col) | static_cast<std::uint64_t>(p.rank - 1) << 4 | static_cast<std::uint64_t>(kTypeCode[t]) << 7 |
                static_cast<std::uint64_t>(p.interleave) << 11 | static_cast<std::uint64_t>(p.swizzle) << 13 |
                static_cast<std::uint64_t>(p.oob_nan) << 15 |
                static_cast<std::uint64_t>(p.type == TensorMapType::tf32 || p.type == TensorMapType::tf32_ftz) << 16 |
                static_cast<std::uint64_t>(p.l2_promotion) << 17 | (s[0] & 0xffffffffULL) << 32);
  put(b, 2, (s[1] & 0xffffffffULL) | (s[2] & 0xffffffffULL) << 32);
  put(b, 3, (s[3] & 0xffffffffULL) | (s[0] >> 32) << 32 | (s[1] >> 32) << 36 | (s[2] >> 32) << 40 | (s[3] >> 32) << 44);
  std::uint64_t d[5] = {};
  for (int i = 0; i < p.rank; ++i) d[i] = p.dims[static_cast<std::size_t>(i)] - 1;
  put(b, 4, d[0] | d[1] << 32);
  put(b, 5, d[2] | d[3] << 32);
  // An im2col map keeps its channels where a tiled one keeps box[0], and its corners (lower in
  // bits 0..15, upper in 16..31, W first) and pixels - 1 (bits 32..41) in qword 7.
  std::uint64_t w6 = d[4] | static_cast<std::uint64_t>((p.im2col ? p.channels : p.box[0]) - 1) << 56, w7 = 0;
  for (int i = 0; i < p.rank; ++i) {
    const auto k = static_cast<std::size_t>(i);
    w6 |= static_cast<std::uint64_t>(p.element_strides[k] - 1) << (32 + 3 * i);
    if (i > 0 && !p.im2col) w7 |= static_cast<std::uint64_t>(p.box[k] - 1) << (8 * (i - 1));
  }
  if (p.im2col) {
    const int bits = corner_bits(p.rank);
    const std::uint64_t mask = (1ULL << bits) - 1;
    for (int k = 0; k + 2 < p.rank; ++k) {
      const auto u = static_cast<std::size_t>(k);
      w7 |= (static_cast<std::uint64_t>(p.lower[u]) & mask) << (bits * k);
      w7 |= (static_cast<std::uint64_t>(p.upper[u]) & mask) << (16 + bits * k);
    }
    w7 |= static_cast<std::uint64_t>(p.pixels - 1) << 32;
  }
  put(b, 6, w6);
  put(b, 7, w7);
  put(b, 8, box_bytes(p));
  put(b, 9, p.swizzle == 0 ? 16 : 128U << p.swizzle);
  return b;
}

TensorMapParams decode_tensor_map(const TensorMapBytes& b) {
  const std::uint64_t w1 = word(b, 1);
  TensorMapParams p;
  p.rank = static_cast<int>((w1 >> 4) & 7) + 1;
  p.im2col = (w1 & 1) != 0;
  const int code = static_cast<int>((w1 >> 7) & 15);
  const bool tf32 = ((w1 >> 16) & 1) != 0;
  int type = -1;
  for (int t = 0; t < 13; ++t)
    if (kTypeCode[t] == code && (t == 11 || t == 12) == tf32 && type < 0) type = t;
  if (type < 0)
    throw Error(fmt::format("tensor map: byte 8 holds element code {}{}, which no tensor map has", code,
                            tf32 ? " with the tf32 bit" : ""));
  p.type = static_cast<TensorMapType>(type);
  p.interleave = static_cast<int>((w1 >> 11) & 3);
  p.swizzle = static_cast<int>((w1 >> 13) & 3);
  p.oob_nan = ((w1 >> 15) & 1) != 0;
  p.l2_promotion = static_cast<int>((w1 >> 17) & 3);
  p.address = word(b, 0);
  const std::uint64_t w2 = word(b, 2), w3 = word(b, 3);
  const std::uint64_t s[4] = {w1 >> 32 | ((w3 >> 32) & 15) << 32, (w2 & 0xffffffffULL) | ((w3 >> 36) & 15) << 32,
                              w2 >> 32 | ((w3 >> 40) & 15) << 32, (w3 & 0xffffffffULL) | ((w3 >> 44) & 15) << 32};
  for (int i = 0; i + 1 < p.rank; ++i) p.strides[static_cast<std::size_t>(i)] = s[i] << 4;
  const std::uint64_t w4 = word(b, 4), w5 = word(b, 5), w6 = word(b, 6), w7 = word(b, 7);
  const std::uint64_t d[5] = {w4 & 0xffffffffULL, w4 >> 32, w5 & 0xffffffffULL, w5 >> 32, w6 & 0xffffffffULL};
  for (int i = 0; i < p.rank; ++i) {
    const auto k = static_cast<std::size_t>(i);
    p.dims[k] = d[i] + 1;
    p.element_strides[k] = static_cast<std::uint32_t>((w6 >> (32 + 3 * i)) & 7) + 1;
    if (!p.im2col)
      p.box[k] = i == 0 ? static_cast<std::uint32_t>(w6 >> 56) + 1 : static_cast<std::uint32_t>((w7 >> (8 * (i - 1))) & 255) + 1;
  }
  if (p.im2col && p.rank >= 3) {
    const int bits = corner_bits(p.rank);
    const auto corner = [&](int at) {  // sign-extended
      const std::uint64_t v = (w7 >> at) & ((1ULL << bits) - 1);
      return static_cast<int>(static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits));
    };
    for (int k = 0; k + 2 < p.rank; ++k) {
      p.lower[static_cast<std::size_t>(k)] = corner(bits * k);
      p.upper[static_cast<std::size_t>(k)] = corner(16 + bits * k);
    }
    p.channels = static_cast<std::uint32_t>(w6 >> 56) + 1;
    p.pixels = static_cast<std::uint32_t>((w7 >> 32) & 1023) + 1;
  }
  for (int i = p.rank; i < 5; ++i) p.element_strides[static_cast<std::size_t>(i)] = 1;
  // Every other bit is what the driver writes for these parameters: compare the map, but for
  // qwords 8 and 9 (the box's bytes, the swizzle's span), which the TMA does not read:
  // tensormap.replace leaves them as they were and the H100 moved the box the fields describe.
  TensorMapBytes again;
  try {
    again = encode_tensor_map(p);
  } catch (const Error& e) {
    throw Error(fmt::format("tensor map ({}): {}", describe(p), e.what()));
  }
  for (std::size_t i = 0; i < b.size(); ++i)
    if (again[i] != b[i] && (i < 64 || i >= 80))
      throw Error(fmt::format("tensor map: byte {} is {:#04x}; a map of {} has {:#04x} there (a reserved field, or "
                              "a box size that does not match the box)",
                              i, b[i], describe(p), again[i]));
  return p;
}

void replace_tensor_map_field(TensorMapBytes& b, ptx::TensormapField field, int ord, std::uint64_t value) {
  using F = ptx::TensormapField;
  // Bits [lo, lo + n) of qword q set to v.
  const auto set = [&](int q, int lo, int n, std::uint64_t v) {
    const std::uint64_t mask = (n == 64 ? ~0ULL : (1ULL << n) - 1) << lo;
    put(b, q, (word(b, q) & ~mask) | ((v << lo) & mask));
  };
  const auto v32 = value & 0xffffffffULL;
  switch (field) {
    case F::global_address: set(0, 0, 64, value); return;
    case F::rank: set(1, 4, 3, v32); return;
    case F::box_dim:
      if (ord == 0) set(6, 56, 8, v32 - 1);
      else set(7, 8 * (ord - 1), 8, v32 - 1);
      return;
    case F::global_dim: set(4 + ord / 2, 32 * (ord % 2), 32, v32 - 1); return;
    case F::global_stride: {
      // stride[ord] (of dimension ord + 1) >> 4: its low 32 bits where encode_tensor_map puts them,
      // bits 32..35 in qword 3 at 32 + 4 ord (ord 4: there only; its low bits were not seen).
      const std::uint64_t s = value >> 4;
      if (ord == 0) set(1, 32, 32, s);
      else if (ord == 3) set(3, 0, 32, s);
      else if (ord < 3) set(2, 32 * (ord - 1), 32, s);
      else if ((s & 0xffffffffULL) != 0)
        throw Error(fmt::format("tensormap.replace of stride 4 with {:#x}: where its low bits go was not captured", value));
      set(3, 32 + 4 * ord, 4, s >> 32);
      return;
    }
    case F::element_stride: set(6, 32 + 3 * ord, 3, v32 - 1); return;
    case F::elemtype: {
      // The PTX ISA's numbering is the map's element code (.f32.ftz 8, .f64 9, .bf16 10), with
      // .tf32 11 and .tf32.ftz 12 the f32 codes and the tf32 bit.
      const std::uint64_t t = v32;
      set(1, 7, 4, t <= 10 ? t : t - 4);
      set(1, 16, 1, t >= 11 ? 1 : 0);
      return;
    }
    case F::interleave_layout: set(1, 11, 2, v32); return;
    case F::swizzle_mode: set(1, 13, 2, v32); return;
    case F::fill_mode: set(1, 15, 1, v32); return;
  }
}

std::string describe(const TensorMapParams& p) {
  const auto join = [&](const auto& v, int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += fmt::format("{}{}", i ? " x " : "", v[static_cast<std::size_t>(i)]);
    return s;
  };
  std::string s = fmt::format("{}, rank {}, address {:#x}, dims {}", name(p.type), p.rank, p.address, join(p.dims, p.rank));
  if (p.rank > 1) s += fmt::format(", strides {}", join(p.strides, p.rank - 1));
  if (p.im2col)
    s += fmt::format(", im2col: pixel box {} .. {}, {} channels x {} pixels", join(p.lower, p.rank - 2),
                     join(p.upper, p.rank - 2), p.channels, p.pixels);
  else
    s += fmt::format(", box {}", join(p.box, p.rank));
  bool unit = true;
  for (int i = 0; i < p.rank; ++i) unit = unit && p.element_strides[static_cast<std::size_t>(i)] == 1;
  if (!unit) s += fmt::format(", element strides {}", join(p.element_strides, p.rank));
  s += fmt::format(", swizzle {}", p.swizzle == 0 ? std::string("none") : fmt::format("{}B", swizzle_span(p.swizzle)));
  if (p.interleave) s += fmt::format(", interleave {}B", 16 * p.interleave);
  if (p.l2_promotion) s += fmt::format(", L2 promotion {}B", 32 << p.l2_promotion);
  if (p.oob_nan) s += ", NaN fill";
  return s;
}

}  // namespace ptxmma
