// The colours of the layout pictures (docs/pictures.md): one per lane of a warp, chosen so that any
// two lanes differ clearly, the lanes next to each other in a fragment (lane +- 1 in a row, +- 4
// down a column) most of all, and black text stays readable on every one.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace ptxmma::cli {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

// The 32 lane colours, lane 0 first: a greedy farthest-point choice (Glasbey's method) in CIELAB
// among the sRGB colours of lightness 62..95 and chroma at most 70, so every colour is light
// enough for black text (WCAG contrast above 7) and each new lane is as far as possible from
// all lanes before it.
const std::array<Rgb, 32>& lane_palette();

// "#rrggbb" of lane % 32: the warps of a warpgroup repeat the colours of warp 0.
std::string lane_colour(int lane);

}  // namespace ptxmma::cli
