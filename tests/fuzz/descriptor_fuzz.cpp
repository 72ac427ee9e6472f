// libFuzzer target: wgmma matrix descriptors (sim/exec/descriptor.hpp). The input is the 64-bit
// descriptor (little-endian), then one byte each for the operand's element type, the major-ness,
// the rows (8..64) and an element to look up. Besides crashes it checks answers: a descriptor
// that decodes encodes back to itself, and the reverse map finds the element at its own address.
#include <cstddef>
#include <cstdint>
#include <span>

#include "sim/error.hpp"
#include "sim/exec/descriptor.hpp"

namespace {

constexpr ptxmma::Type kTypes[] = {ptxmma::Type::f16,  ptxmma::Type::bf16, ptxmma::Type::tf32, ptxmma::Type::e4m3,
                                   ptxmma::Type::e5m2, ptxmma::Type::s8,   ptxmma::Type::u8,   ptxmma::Type::b1,
                                   ptxmma::Type::f32,  ptxmma::Type::f64,  ptxmma::Type::s4};

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 8) return 0;
  std::uint64_t raw = 0;
  for (int i = 0; i < 8; ++i) raw |= static_cast<std::uint64_t>(data[i]) << (8 * i);
  const auto byte = [&](std::size_t i) { return i < size ? data[i] : std::uint8_t{0}; };
  const ptxmma::Type type = kTypes[byte(8) % std::size(kTypes)];
  const auto major = (byte(9) & 1) ? ptxmma::Major::mn : ptxmma::Major::k;
  const int rows = 8 * (1 + byte(10) % 8);  // 8..64: every A, and B up to N = 64 (fast enough to fuzz)
  const int bits = type == ptxmma::Type::tf32 ? 32 : ptxmma::info(type).bits;
  const int k = 256 / bits;  // a wgmma K step is 32 bytes of a row
  try {
    const ptxmma::MatrixDescriptor d = ptxmma::MatrixDescriptor::decode(raw);
    check(ptxmma::MatrixDescriptor::encode(d.start, d.lbo, d.sbo, d.base_offset, d.swizzle) == raw);
    (void)d.text();
    const ptxmma::OperandAddressing a(d, major, type, rows, k);
    (void)a.formula();
    (void)a.footprint();
    (void)a.overlap();
    const int x = byte(11) % rows, kk = byte(12) % k;
    const ptxmma::SmemSlot s = a.slot(x, kk);
    bool found = false;
    for (const auto& e : a.elements_at(s.address)) found = found || (e.x == x && e.k == kk && e.bit == s.bit);
    check(found);
  } catch (const ptxmma::Error&) {
  }
  return 0;
}
