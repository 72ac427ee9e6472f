#include "sim/exec/descriptor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "sim/error.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma {

std::string_view name(Swizzle s) {
  switch (s) {
    case Swizzle::none: return "none";
    case Swizzle::b128: return "128B";
    case Swizzle::b64: return "64B";
    case Swizzle::b32: return "32B";
  }
  return "?";
}

int swizzle_bytes(Swizzle s) {
  switch (s) {
    case Swizzle::b128: return 128;
    case Swizzle::b64: return 64;
    case Swizzle::b32: return 32;
    default: return 0;
  }
}

std::optional<Swizzle> parse_swizzle(std::string_view s) {
  if (s == "none" || s == "0") return Swizzle::none;
  if (s == "128B" || s == "128") return Swizzle::b128;
  if (s == "64B" || s == "64") return Swizzle::b64;
  if (s == "32B" || s == "32") return Swizzle::b32;
  return std::nullopt;
}

MatrixDescriptor MatrixDescriptor::decode(std::uint64_t raw) {
  struct Reserved {
    int hi, lo;
  };
  for (const Reserved r : {Reserved{15, 14}, Reserved{31, 30}, Reserved{48, 46}, Reserved{61, 52}}) {
    const std::uint64_t v = (raw >> r.lo) & ((1ULL << (r.hi - r.lo + 1)) - 1);
    if (v != 0)
      throw Error(fmt::format("matrix descriptor {:#018x}: reserved bits {}:{} are {:#0{}b} (must be 0){}", raw, r.hi,
                              r.lo, v, r.hi - r.lo + 3,
                              r.hi == 48 ? "; bits 48:46 = 0b001 belong to the sm_100 tcgen05 descriptor, not wgmma" : ""));
  }
  MatrixDescriptor d;
  d.raw = raw;
  d.start = static_cast<std::uint32_t>(raw & 0x3fff) << 4;
  d.lbo = static_cast<std::uint32_t>((raw >> 16) & 0x3fff) << 4;
  d.sbo = static_cast<std::uint32_t>((raw >> 32) & 0x3fff) << 4;
  d.base_offset = static_cast<int>((raw >> 49) & 7);
  d.swizzle = static_cast<Swizzle>((raw >> 62) & 3);
  return d;
}

MatrixDescriptor MatrixDescriptor::decode_tcgen05(std::uint64_t raw) {
  const auto field = [&](int hi, int lo) { return (raw >> lo) & ((1ULL << (hi - lo + 1)) - 1); };
  for (const auto& [hi, lo] : {std::pair{15, 14}, std::pair{31, 30}, std::pair{60, 53}})
    if (const std::uint64_t v = field(hi, lo))
      throw Error(fmt::format("tcgen05 matrix descriptor {:#018x}: reserved bits {}:{} are {:#0{}b} (must be 0)", raw, hi,
                              lo, v, hi - lo + 3));
  if (field(48, 46) != 1)
    throw Error(fmt::format("tcgen05 matrix descriptor {:#018x}: bits 48:46 are {:#05b}; sm_100 fixes them at 0b001 (a "
                            "wgmma descriptor has 0 there)",
                            raw, field(48, 46)));
  if (field(52, 52))
    throw Error(fmt::format("tcgen05 matrix descriptor {:#018x}: bit 52 (the absolute-LBO mode) is sm_103a's", raw));
  MatrixDescriptor d;
  d.raw = raw;
  d.start = static_cast<std::uint32_t>(field(13, 0)) << 4;
  d.lbo = static_cast<std::uint32_t>(field(29, 16)) << 4;
  d.sbo = static_cast<std::uint32_t>(field(45, 32)) << 4;
  d.base_offset = static_cast<int>(field(51, 49));
  switch (field(63, 61)) {
    case 0: d.swizzle = Swizzle::none; break;
    case 2: d.swizzle = Swizzle::b128; break;
    case 4: d.swizzle = Swizzle::b64; break;
    case 6: d.swizzle = Swizzle::b32; break;
    case 1:
      throw Error(fmt::format("tcgen05 matrix descriptor {:#018x}: swizzle 1 (128B with 32-byte atoms) is not simulated",
                              raw));
    default:
      throw Error(fmt::format("tcgen05 matrix descriptor {:#018x}: swizzle {} is undefined (0 none, 2 128B, 4 64B, 6 "
                              "32B)",
                              raw, field(63, 61)));
  }
  return d;
}

std::uint64_t MatrixDescriptor::encode(std::uint32_t start, std::uint32_t lbo, std::uint32_t sbo, int base_offset,
                                       Swizzle swizzle) {
  for (const auto& [v, what] : {std::pair{start, "start address"}, std::pair{lbo, "LBO"}, std::pair{sbo, "SBO"}}) {
    if (v % 16 != 0) throw Error(fmt::format("matrix descriptor: the {} {:#x} is not a multiple of 16 bytes", what, v));
    if (v >= (1U << 18))
      throw Error(fmt::format("matrix descriptor: the {} {:#x} does not fit in 18 bits (below 256 KiB)", what, v));
  }
  if (base_offset < 0 || base_offset > 7)
    throw Error(fmt::format("matrix descriptor: base offset {} is outside 0..7", base_offset));
  return (static_cast<std::uint64_t>(start >> 4)) | (static_cast<std::uint64_t>(lbo >> 4) << 16) |
         (static_cast<std::uint64_t>(sbo >> 4) << 32) | (static_cast<std::uint64_t>(base_offset) << 49) |
         (static_cast<std::uint64_t>(swizzle) << 62);
}

std::string MatrixDescriptor::text() const {
  return fmt::format("start {:#x}, LBO {}, SBO {}, base offset {}, swizzle {}", start, lbo, sbo, base_offset,
                     name(swizzle));
}

std::uint64_t swizzle_address(std::uint64_t linear, Swizzle s, int base_offset) {
  const int w = swizzle_bytes(s);
  if (w == 0) return linear;
  const std::uint64_t mask = static_cast<std::uint64_t>(w / 16 - 1);
  return linear ^ ((((linear >> 7) - static_cast<std::uint64_t>(base_offset)) & mask) << 4);
}

OperandAddressing::OperandAddressing(const MatrixDescriptor& d, Major major, Type t, int rows, int k, Container c)
    : d_(d), major_(major), bits_(ptxmma::element_bits(t, c)), rows_(rows), k_(k) {
  if (bits_ != 1 && bits_ != 8 && bits_ != 16 && bits_ != 32)
    throw Error(fmt::format("{} elements cannot be read through a matrix descriptor", name(t)));
  if (major == Major::mn && bits_ < 8) throw Error(fmt::format("{} operands are K-major only", name(t)));
}

std::uint64_t OperandAddressing::linear(int x, int k) const {
  const std::uint64_t s = d_.start, lbo = d_.lbo, sbo = d_.sbo;
  const auto ux = static_cast<std::uint64_t>(x), uk = static_cast<std::uint64_t>(k);
  const std::uint64_t w = static_cast<std::uint64_t>(swizzle_bytes(d_.swizzle));
  if (major_ == Major::k) {
    const std::uint64_t kb = uk * static_cast<std::uint64_t>(bits_) / 8;  // byte of element k in its row
    if (w == 0) return s + (ux >> 3) * sbo + (kb / 16) * lbo + (ux & 7) * 16 + kb % 16;
    // A row longer than the swizzle width (sparse B: 64 bytes of K) goes on LBO further, per
    // swizzle width: what an H100 ran (docs/hardware/wgmma-sp-sm90.md).
    return s + (ux >> 3) * sbo + (ux & 7) * w + (kb / w) * lbo + kb % w;
  }
  const std::uint64_t xb = ux * static_cast<std::uint64_t>(bits_ / 8);
  if (w == 0) return s + (xb / 16) * sbo + (uk >> 3) * lbo + (uk & 7) * 16 + xb % 16;
  return s + (xb / w) * lbo + (uk >> 3) * sbo + (uk & 7) * w + xb % w;
}

std::string OperandAddressing::formula() const {
  const int w = swizzle_bytes(d_.swizzle);
  std::string lin;
  const std::string kb = bits_ == 8 ? "k" : bits_ == 1 ? "k/8" : fmt::format("{}k", bits_ / 8);
  const std::string xb = bits_ == 8 ? "x" : fmt::format("{}x", bits_ / 8);
  if (major_ == Major::k && w == 0)
    lin = fmt::format("start {:#x} + (x>>3)*{} + ({}/16)*{} + (x&7)*16 + ({})%16", d_.start, d_.sbo, kb, d_.lbo, kb);
  else if (major_ == Major::k && k_ * bits_ / 8 > w)
    lin = fmt::format("start {:#x} + (x>>3)*{} + (x&7)*{} + ({}/{})*{} + ({})%{}", d_.start, d_.sbo, w, kb, w, d_.lbo,
                      kb, w);
  else if (major_ == Major::k)
    lin = fmt::format("start {:#x} + (x>>3)*{} + (x&7)*{} + {}", d_.start, d_.sbo, w, kb);
  else if (w == 0)
    lin = fmt::format("start {:#x} + ({}/16)*{} + (k>>3)*{} + (k&7)*16 + ({})%16", d_.start, xb, d_.sbo, d_.lbo, xb);
  else
    lin = fmt::format("start {:#x} + ({}/{})*{} + (k>>3)*{} + (k&7)*{} + ({})%{}", d_.start, xb, w, d_.lbo, d_.sbo, w,
                      xb, w);
  if (w == 0) return fmt::format("address = {}{}", lin, bits_ == 1 ? ", bit k%8" : "");
  const int mask = w / 16 - 1;
  return fmt::format("lin = {}; address = lin ^ ((((lin >> 7) - {}) & {}) << 4){}", lin, d_.base_offset, mask,
                     bits_ == 1 ? ", bit k%8" : "");
}

SmemSlot OperandAddressing::slot(int x, int k) const {
  return SmemSlot{swizzle_address(linear(x, k), d_.swizzle, d_.base_offset),
                  bits_ == 1 ? static_cast<int>(static_cast<unsigned>(k) % 8) : 0};
}

std::vector<OperandAddressing::Element> OperandAddressing::elements_at(std::uint64_t address) const {
  std::vector<Element> out;
  const int bytes = std::max(bits_ / 8, 1);
  for (int x = 0; x < rows_; ++x)
    for (int k = 0; k < k_; ++k) {
      const SmemSlot s = slot(x, k);
      if (address >= s.address && address < s.address + static_cast<std::uint64_t>(bytes))
        out.push_back(Element{x, k, s.bit, static_cast<int>(address - s.address)});
    }
  return out;
}

std::pair<std::uint64_t, std::uint64_t> OperandAddressing::footprint() const {
  std::uint64_t lo = ~0ULL, hi = 0;
  const auto bytes = static_cast<std::uint64_t>(std::max(bits_ / 8, 1));
  for (int x = 0; x < rows_; ++x)
    for (int k = 0; k < k_; ++k) {
      const SmemSlot s = slot(x, k);
      lo = std::min(lo, s.address);
      hi = std::max(hi, s.address + bytes - 1);
    }
  return {lo, hi};
}

std::optional<std::string> OperandAddressing::overlap() const {
  std::map<std::pair<std::uint64_t, int>, std::pair<int, int>> seen;  // (byte, bit) -> (x, k)
  const int bytes = std::max(bits_ / 8, 1);
  for (int x = 0; x < rows_; ++x)
    for (int k = 0; k < k_; ++k) {
      const SmemSlot s = slot(x, k);
      for (int b = 0; b < bytes; ++b) {
        const auto [it, fresh] = seen.emplace(std::pair{s.address + static_cast<std::uint64_t>(b), s.bit}, std::pair{x, k});
        if (!fresh)
          return fmt::format("elements ({}, {}) and ({}, {}) both use shared byte {:#x}{}", it->second.first,
                             it->second.second, x, k, s.address + static_cast<std::uint64_t>(b),
                             bits_ == 1 ? fmt::format(" bit {}", s.bit) : "");
      }
    }
  return std::nullopt;
}

}  // namespace ptxmma
