#include "tools/ptxmma/lane_palette.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ptxmma::cli {
namespace {

struct Lab {
  double l = 0, a = 0, b = 0;
};

double linear(int channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// sRGB (D65) to CIELAB.
Lab lab(Rgb c) {
  const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double distance(const Lab& p, const Lab& q) { return std::hypot(p.l - q.l, p.a - q.a, p.b - q.b); }

std::array<Rgb, 32> choose() {
  // Candidates: an sRGB grid of 16 levels a channel, light and not too saturated.
  std::vector<Rgb> rgb;
  std::vector<Lab> at;
  for (int r = 0; r < 256; r += 17)
    for (int g = 0; g < 256; g += 17)
      for (int b = 0; b < 256; b += 17) {
        const Rgb c{static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g), static_cast<std::uint8_t>(b)};
        const Lab p = lab(c);
        if (p.l >= 62 && p.l <= 95 && std::hypot(p.a, p.b) <= 70) {
          rgb.push_back(c);
          at.push_back(p);
        }
      }
  // Lane 0 starts from a light red (the PTX ISA's figures start there too); each next lane takes
  // the candidate farthest from every lane chosen so far.
  const Lab seed = lab({255, 153, 153});
  std::size_t next = 0;
  for (std::size_t i = 1; i < at.size(); ++i)
    if (distance(at[i], seed) < distance(at[next], seed)) next = i;
  std::vector<double> nearest(at.size(), std::numeric_limits<double>::infinity());
  std::array<Rgb, 32> out{};
  for (Rgb& lane : out) {
    lane = rgb[next];
    const Lab chosen = at[next];
    for (std::size_t i = 0; i < at.size(); ++i) nearest[i] = std::min(nearest[i], distance(at[i], chosen));
    next = static_cast<std::size_t>(std::max_element(nearest.begin(), nearest.end()) - nearest.begin());
  }
  return out;
}

}  // namespace

const std::array<Rgb, 32>& lane_palette() {
  static const std::array<Rgb, 32> palette = choose();
  return palette;
}

std::string lane_colour(int lane) {
  const Rgb& c = lane_palette()[static_cast<std::size_t>(lane % 32)];
  return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b);
}

}  // namespace ptxmma::cli
