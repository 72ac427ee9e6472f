#include "tools/vectors/wgmma_operands.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/error.hpp"

namespace ptxmma {

namespace {

constexpr std::uint32_t kAtom = 1024;  // the largest swizzle pattern repeats every 1024 bytes

std::uint32_t round_up(std::uint64_t x, std::uint32_t to) { return static_cast<std::uint32_t>((x + to - 1) / to * to); }

}  // namespace

std::uint64_t default_descriptor(const OperandAddressing& shape, Swizzle s, std::uint32_t start) {
  const std::uint32_t w = static_cast<std::uint32_t>(swizzle_bytes(s));
  const auto rows = static_cast<std::uint32_t>(shape.rows()), k = static_cast<std::uint32_t>(shape.k());
  const std::uint32_t bits = static_cast<std::uint32_t>(shape.element_bits());
  std::uint32_t lbo = 0, sbo = 0;
  if (shape.major() == Major::k) {
    const std::uint32_t row_bytes = std::max<std::uint32_t>(k * bits / 8, 16);
    if (w == 0) {
      lbo = 128;
      sbo = row_bytes / 16 * 128;
    } else {
      sbo = 8 * w;
      lbo = row_bytes > w ? rows / 8 * sbo : 16;
    }
  } else {
    const std::uint32_t mn_bytes = rows * bits / 8;
    if (w == 0) {
      sbo = 128;
      lbo = mn_bytes / 16 * 128;
    } else {
      sbo = 8 * w;
      lbo = k * w;
    }
  }
  return MatrixDescriptor::encode(start, lbo, sbo, 0, s);
}

WgmmaPlacement default_placement(const WgmmaExecutor& x, Swizzle s) {
  WgmmaPlacement p;
  std::uint32_t b_start = 0;
  if (x.operands().a_source == ASource::descriptor) {
    p.desc_a = default_descriptor(x.a_addressing(0), s, 0);
    b_start = round_up(x.a_addressing(p.desc_a).footprint().second + 1, kAtom);
  }
  p.desc_b = default_descriptor(x.b_addressing(0), s, b_start);
  return p;
}

void SharedImage::place(const OperandAddressing& at, std::span<const std::uint64_t> values, const char* op) {
  const int bits = at.element_bits();
  const int bytes = std::max(bits / 8, 1);
  const auto [lo, hi] = at.footprint();
  if (hi >= limit_) {  // name the first element outside
    for (int x = 0; x < at.rows(); ++x)
      for (int k = 0; k < at.k(); ++k) {
        const SmemSlot s = at.slot(x, k);
        if (s.address + static_cast<std::uint64_t>(bytes) > limit_)
          throw Error(fmt::format("{} element ({}, {}) lies at shared byte {:#x}, outside the {} bytes of shared memory "
                                  "(descriptor {:#018x}: {})",
                                  op, op[0] == 'A' ? x : k, op[0] == 'A' ? k : x, s.address, limit_,
                                  at.descriptor().raw, at.descriptor().text()));
      }
  }
  // Grow [lo_, lo_ + size) to hold [lo, hi].
  if (bytes_.empty()) lo_ = lo;
  const std::uint64_t new_lo = std::min(lo_, lo), new_hi = std::max(lo_ + bytes_.size(), hi + 1);
  if (new_lo < lo_ || new_hi > lo_ + bytes_.size()) {
    const std::size_t shift = static_cast<std::size_t>(lo_ - new_lo);
    const auto grow = [&](auto& v, auto fill) {
      v.insert(v.begin(), shift, fill);
      v.resize(static_cast<std::size_t>(new_hi - new_lo), fill);
    };
    grow(bytes_, std::uint8_t{0});
    grow(written_, std::uint8_t{0});
    grow(owner_, Owner{});
    lo_ = new_lo;
  }
  const std::uint64_t mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
  for (int x = 0; x < at.rows(); ++x)
    for (int k = 0; k < at.k(); ++k) {
      const std::uint64_t v = values[static_cast<std::size_t>(x) * static_cast<std::size_t>(at.k()) + static_cast<std::size_t>(k)];
      const SmemSlot s = at.slot(x, k);
      const auto xi = op[0] == 'A' ? x : k, ki = op[0] == 'A' ? k : x;  // the element as the matrix indexes it
      if (v & ~mask)
        throw Error(fmt::format("{}[{}][{}] = {:#x} does not fit in {} bits", op, xi, ki, v, bits));
      for (int b = 0; b < bytes; ++b) {
        const std::size_t i = static_cast<std::size_t>(s.address - lo_) + static_cast<std::size_t>(b);
        const std::uint8_t m = bits == 1 ? static_cast<std::uint8_t>(1U << s.bit) : std::uint8_t{0xff};
        const std::uint8_t val = bits == 1 ? static_cast<std::uint8_t>(v << s.bit) : static_cast<std::uint8_t>(v >> (8 * b));
        if ((written_[i] & m) && (bytes_[i] & m) != val) {
          const Owner& o = owner_[i];
          throw Error(fmt::format("{}[{}][{}] and {}[{}][{}] share shared byte {:#x}{} but differ there: the descriptors "
                                  "place them on the same memory",
                                  o.op, o.x, o.k, op, xi, ki, s.address + static_cast<std::uint64_t>(b),
                                  bits == 1 ? fmt::format(" bit {}", s.bit) : ""));
        }
        if (!written_[i]) owner_[i] = Owner{op[0], xi, ki};
        bytes_[i] = static_cast<std::uint8_t>((bytes_[i] & ~m) | val);
        written_[i] |= m;
      }
    }
}

void SharedImage::write_to(SharedMemory& smem) const {
  if (!bytes_.empty()) smem.write(lo_, bytes_, "the case's shared-memory image");
}

std::vector<std::uint64_t> read_shared_operand(const SharedMemory& smem, const OperandAddressing& at) {
  const int bits = at.element_bits();
  std::vector<std::uint64_t> out;
  out.reserve(static_cast<std::size_t>(at.rows()) * static_cast<std::size_t>(at.k()));
  for (int x = 0; x < at.rows(); ++x)
    for (int k = 0; k < at.k(); ++k) {
      const SmemSlot s = at.slot(x, k);
      const std::uint64_t raw = smem.load(s.address, std::max(bits / 8, 1), "a wgmma operand element");
      out.push_back(bits == 1 ? (raw >> s.bit) & 1 : raw);
    }
  return out;
}

std::vector<std::uint64_t> transpose(std::span<const std::uint64_t> m, int rows, int cols) {
  std::vector<std::uint64_t> t(m.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      t[static_cast<std::size_t>(c) * static_cast<std::size_t>(rows) + static_cast<std::size_t>(r)] =
          m[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)];
  return t;
}

}  // namespace ptxmma
