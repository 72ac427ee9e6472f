// Tensor maps (CUtensorMap): the 128-byte object that describes a tensor in global memory to
// cp.async.bulk.tensor (TMA), as the CUDA driver's cuTensorMapEncodeTiled and
// cuTensorMapEncodeIm2col write it for sm_90.
// The driver documents the parameters, not the bytes; the layout below was read from the driver's
// output over its parameters (docs/hardware/tensormap-sm90.md, tools/capture/tensormap_capture):
//
//   qword 0      global address (bits 4..56; 16-byte aligned, below 2^57)
//   qword 1      bits 4..6 rank - 1; 7..10 element code; 11..12 interleave; 13..14 swizzle;
//                15 NaN out-of-bounds fill; 16 tf32 rounding; 17..18 L2 promotion;
//                32..63 the low 32 bits of stride[0] >> 4
//   qword 2      low 32 bits of stride[1] >> 4 | low 32 bits of stride[2] >> 4 << 32
//   qword 3      low 32 bits of stride[3] >> 4; bits 32 + 4i .. 35 + 4i the high bits of stride[i] >> 4
//   qword 4..6   dim[i] - 1, 32 bits each (dim 0 in qword 4's low half ... dim 4 in qword 6's)
//   qword 6      bits 32 + 3i .. 34 + 3i element stride[i] - 1; bits 56..63 box[0] - 1
//   qword 7      byte i - 1: box[i] - 1 (i = 1..4; 0 past the rank)
//   qword 8      the box's bytes: element size x the product of floor(box[i] / element stride[i])
//   qword 9      the swizzle's shared-memory span: 16 (none), 256 (32B), 512 (64B), 1024 (128B)
//   qword 10..15 zero
// (stride[i] is the byte stride of dimension i + 1.) An im2col map sets qword 1 bit 0, keeps
// channels - 1 in box[0]'s bits, the pixel box's corners in qword 7 (lower from bit 0, upper from
// bit 16, W first; 16, 8 or 5 bits each at rank 3, 4, 5) with pixels - 1 at bits 32..41, and
// pixels x channels x element bytes in qword 8. The TMA does not read qwords 8 and 9.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/ptx_program.hpp"

namespace ptxmma {

// CUtensorMapDataType, in the driver's order.
enum class TensorMapType : std::uint8_t {
  u8, u16, u32, s32, u64, s64, f16, f32, f64, bf16, f32_ftz, tf32, tf32_ftz,
};
std::string_view name(TensorMapType t);  // "u8", ..., "f32_ftz", "tf32", "tf32_ftz"
std::optional<TensorMapType> parse_tensor_map_type(std::string_view s);
int element_bytes(TensorMapType t);

// The parameters of cuTensorMapEncodeTiled; enums take the driver's values.
struct TensorMapParams {
  TensorMapType type = TensorMapType::f16;
  int rank = 2;                                  // 1..5
  std::uint64_t address = 0;
  std::array<std::uint64_t, 5> dims{};           // elements, innermost first
  std::array<std::uint64_t, 4> strides{};        // bytes, of dimensions 1 .. rank - 1
  std::array<std::uint32_t, 5> box{};            // elements
  std::array<std::uint32_t, 5> element_strides{1, 1, 1, 1, 1};
  int interleave = 0;                            // 0 none, 1 16B, 2 32B
  int swizzle = 0;                               // 0 none, 1 32B, 2 64B, 3 128B
  int l2_promotion = 0;                          // 0 none, 1 64B, 2 128B, 3 256B
  bool oob_nan = false;                          // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
  // cuTensorMapEncodeIm2col's map (rank 3..5, no box): the pixel box's corners in dimensions
  // 1 .. rank - 2 (W, H, D), the channels of a pixel and the pixels a load reads.
  bool im2col = false;
  std::array<int, 3> lower{}, upper{};
  std::uint32_t channels = 0, pixels = 0;

  bool operator==(const TensorMapParams&) const = default;
};

using TensorMapBytes = std::array<std::uint8_t, 128>;

// The map the driver writes for these parameters. Error (naming the parameter) for what the
// driver refuses: rank outside 1..5, an unaligned address, a dimension of 0 or above 2^32, a
// stride not a multiple of 16 or not below 2^40, a box of 0 or above 256 elements, an inner box
// that is not a multiple of 16 bytes (no interleave) or wider than the swizzle span, an element
// stride outside 1..8, interleave with a rank below 3, 32B interleave without the 32B swizzle, a
// NaN fill for an integer type, a box above 227 KiB; for an im2col map (cuTensorMapEncodeIm2col)
// its own conditions instead of the box's (docs/hardware/tensormap-sm90.md, "im2col maps").
TensorMapBytes encode_tensor_map(const TensorMapParams& p);

// The parameters a map holds; Error for bytes no encoding writes (a reserved bit set, an element
// code the driver does not use, ...), naming the byte. encode_tensor_map(decode(b)) == b but for
// qwords 8 and 9, which tensormap.replace leaves as they were.
TensorMapParams decode_tensor_map(const TensorMapBytes& b);

// tensormap.replace's change of `field` (dimension `ord`) to `value` in the bytes of a map, as the
// GPU makes it (docs/hardware/tensormap-sm90.md, "tensormap.replace"): only that field's bits.
void replace_tensor_map_field(TensorMapBytes& b, ptx::TensormapField field, int ord, std::uint64_t value);

// "f16, rank 2, address 0x100000, dims 128 x 64, strides 256, box 64 x 32, swizzle 128B"
std::string describe(const TensorMapParams& p);

// Swizzle span in bytes (0 for none).
inline int swizzle_span(int swizzle) { return swizzle == 0 ? 0 : 16 << swizzle; }

}  // namespace ptxmma
