// Malformed wgmma matrix descriptors (sim/exec/descriptor.hpp): reserved bits, fields that do not
// fit, operands that cannot be addressed, operands outside shared memory, illegal variants.
#include <gtest/gtest.h>

#include "isa/wgmma_instruction.hpp"
#include "sim/exec/descriptor.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/model/model.hpp"
#include "tests/malformed/malformed.hpp"

namespace ptxmma::malformed {
namespace {

struct BadDescriptor {
  const char* what;
  std::function<void()> use;
  std::string error;
};

constexpr const char* kF16 = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16";

// Reads A and B of kF16 through the descriptors from `shared`.
void fetch(std::uint64_t desc_a, std::uint64_t desc_b, const SharedMemory& shared) {
  const MatrixVariant& v = *parse_wgmma(kF16).variant;
  const WgmmaExecutor x(v, models_for("sm_90a").select(v.family, v.a, v.d), WgmmaOperands{});
  WgmmaInputs in;
  in.shared = shared.bytes();
  in.desc_a = desc_a;
  in.desc_b = desc_b;
  (void)x.fetch(in);
}

TEST(Malformed, Descriptors) {
  const std::uint64_t ok = MatrixDescriptor::encode(0x400, 128, 256, 0, Swizzle::none);
  const SharedMemory small(1024), full;
  const std::vector<BadDescriptor> bad = {
      {"reserved bits 15:14", [] { MatrixDescriptor::decode(0x4000); }, "matrix descriptor 0x0000000000004000: reserved bits 15:14 are 0b01 (must be 0)"},
      {"reserved bits 31:30", [] { MatrixDescriptor::decode(0xc0000000); }, "matrix descriptor 0x00000000c0000000: reserved bits 31:30 are 0b11 (must be 0)"},
      {"a tcgen05 descriptor", [] { MatrixDescriptor::decode(1ULL << 46); }, "matrix descriptor 0x0000400000000000: reserved bits 48:46 are 0b001 (must be 0); bits 48:46 = 0b001 belong to the sm_100 tcgen05 descriptor, not wgmma"},
      {"reserved bits 61:52", [] { MatrixDescriptor::decode(0x3ffULL << 52); }, "matrix descriptor 0x3ff0000000000000: reserved bits 61:52 are 0b1111111111 (must be 0)"},
      {"start not a multiple of 16", [] { MatrixDescriptor::encode(0x408, 128, 256, 0, Swizzle::none); }, "matrix descriptor: the start address 0x408 is not a multiple of 16 bytes"},
      {"LBO past 18 bits", [] { MatrixDescriptor::encode(0x400, 1U << 18, 256, 0, Swizzle::none); }, "matrix descriptor: the LBO 0x40000 does not fit in 18 bits (below 256 KiB)"},
      {"base offset out of range", [] { MatrixDescriptor::encode(0x400, 128, 256, 8, Swizzle::b128); }, "matrix descriptor: base offset 8 is outside 0..7"},
      {"b1 MN-major", [ok] { OperandAddressing(MatrixDescriptor::decode(ok), Major::mn, Type::b1, 64, 256); }, "b1 operands are K-major only"},
      {"f64 through a descriptor", [ok] { OperandAddressing(MatrixDescriptor::decode(ok), Major::k, Type::f64, 64, 4); }, "f64 elements cannot be read through a matrix descriptor"},
      {"A past the end of a small shared memory", [&] { fetch(ok, ok, small); }, "shared memory: a 2-byte read at 0x400 (A element (0, 0) through descriptor 0x0000001000080040: start 0x400, LBO 128, SBO 256, base offset 0, swizzle none) is outside the 1024-byte shared memory (0x0..0x3ff)"},
      {"B at the top of shared memory", [&] { fetch(ok, MatrixDescriptor::encode(0x3fff0, 128, 256, 0, Swizzle::none), full); }, "shared memory: a 2-byte read at 0x3fff0 (B element (0, 0) through descriptor 0x0000001000083fff: start 0x3fff0, LBO 128, SBO 256, base offset 0, swizzle none) is outside the 233472-byte shared memory (0x0..0x38fff)"},
      {"reserved bits in B at run time", [&] { fetch(ok, ok | (1ULL << 46), full); }, "matrix descriptor 0x0000401000080040: reserved bits 48:46 are 0b001 (must be 0); bits 48:46 = 0b001 belong to the sm_100 tcgen05 descriptor, not wgmma"},
      {"wgmma on sm_80", [] { (void)parse_wgmma(kF16, "sm_80"); }, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16: needs sm_90a; the target is sm_80"},
      {"wgmma with an illegal N", [] { (void)parse_wgmma("wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16"); }, "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16: N = 12 is not legal for f16 inputs (N = 8..256 in steps of 8) (did you mean 'wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16'?)"},
  };
  ASSERT_GE(bad.size(), 10U);
  for (const BadDescriptor& b : bad) {
    SCOPED_TRACE(b.what);
    EXPECT_EQ(error_of(b.use), b.error);
  }
}

}  // namespace
}  // namespace ptxmma::malformed
