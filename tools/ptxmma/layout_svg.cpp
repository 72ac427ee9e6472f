#include "tools/ptxmma/layout_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <string_view>

#include "sim/error.hpp"
#include "tools/vectors/output_file.hpp"

namespace ptxmma::cli {
namespace {

constexpr int kCellH = 22, kFont = 10, kGap = 36, kMargin = 20;

// Lanes of a warp get 32 hues; the warps of a warpgroup get lighter shades of them.
std::string lane_colour(int lane) {
  return fmt::format("hsl({},70%,{}%)", (lane % 32) * 360 / 32, 78 - 6 * (lane / 32));
}

std::string row_colour(int row) { return fmt::format("hsl({},60%,80%)", (row * 47) % 360); }

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

struct Canvas {
  std::string body;
  int width = 0, y = kMargin;
  void text(int x, int ty, const std::string& s, int size = kFont, const char* anchor = "middle") {
    if (std::string_view(anchor) == "start") width = std::max(width, x + static_cast<int>(s.size()) * size * 3 / 5 + kMargin);
    body += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{}\">{}</text>\n", x, ty, size, anchor,
                        escape(s));
  }
  void cell(int x, int cy, int w, const std::string& cls, const std::string& data, const std::string& fill,
            const std::string& label) {
    body += fmt::format("<rect class=\"{}\" {} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
                        "stroke=\"#666\" stroke-width=\"0.5\"/>\n",
                        cls, data, x, cy, w, kCellH, fill);
    text(x + w / 2, cy + kCellH / 2 + kFont / 2 - 1, label);
    width = std::max(width, x + w + kMargin);
  }
};

int label_width(std::size_t chars) { return static_cast<int>(chars) * 6 + 8; }

void draw_fragment(Canvas& c, const SvgFragment& f) {
  const FragmentLayout& l = *f.layout;
  const bool pack = l.elems_per_reg > 1;
  const auto slot_label = [&](const FragmentSlot& s) {
    return pack ? fmt::format("T{}:r{}[{}]", s.lane, s.reg, s.elem) : fmt::format("T{}:r{}", s.lane, s.reg);
  };
  const int rows = l.problems * l.rows;
  const int cw = label_width(slot_label({l.lanes - 1, l.regs - 1, l.elems_per_reg - 1}).size());
  c.text(kMargin, c.y + 12, fmt::format("{}: {} x {} {}, layout {} (matrix view: who holds each element)", f.op,
                                        rows, l.cols, name(f.type), l.name),
         12, "start");
  c.y += 22;
  const int x0 = kMargin + 30;
  for (int col = 0; col < l.cols; ++col) c.text(x0 + col * cw + cw / 2, c.y + 12, std::to_string(col));
  c.y += 16;
  for (int r = 0; r < rows; ++r) {
    c.text(x0 - 6, c.y + kCellH / 2 + 4, std::to_string(r), kFont, "end");
    for (int col = 0; col < l.cols; ++col) {
      const FragmentSlot& s = l.slot(r / l.rows, r % l.rows, col);
      c.cell(x0 + col * cw, c.y, cw, fmt::format("cell matrix op-{}", f.op == "C/D" ? "CD" : f.op),
             fmt::format("data-row=\"{}\" data-col=\"{}\" data-lane=\"{}\" data-reg=\"{}\" data-elem=\"{}\"", r, col,
                         s.lane, s.reg, s.elem),
             lane_colour(s.lane), slot_label(s));
    }
    c.y += kCellH;
  }
  c.y += kGap / 2;
  // Lane view.
  c.text(kMargin, c.y + 12, fmt::format("{}: lane view (what each register element of each {} holds)", f.op,
                                        l.lanes > 32 ? "thread" : "lane"),
         12, "start");
  c.y += 22;
  const int lw = label_width(std::string(l.problems > 1 ? "p0(15,15)" : "(63,255)").size());
  for (int lane = 0; lane < l.lanes; ++lane) {
    c.text(x0 - 6, c.y + kCellH / 2 + 4, fmt::format("T{}", lane), kFont, "end");
    for (int r = 0; r < l.regs; ++r)
      for (int e = 0; e < l.elems_per_reg; ++e) {
        const FragmentCoord& co = l.coord(lane, r, e);
        const int i = r * l.elems_per_reg + e;
        const int row = co.problem * l.rows + co.row;
        c.cell(x0 + i * lw, c.y, lw, fmt::format("cell lane op-{}", f.op == "C/D" ? "CD" : f.op),
               fmt::format("data-lane=\"{}\" data-reg=\"{}\" data-elem=\"{}\" data-row=\"{}\" data-col=\"{}\"", lane,
                           r, e, row, co.col),
               lane_colour(lane),
               l.problems > 1 ? fmt::format("p{}({},{})", co.problem, co.row, co.col)
                              : fmt::format("({},{})", co.row, co.col));
      }
    c.y += kCellH;
  }
  c.y += kGap;
}

void draw_descriptor(Canvas& c, const SvgDescriptor& d) {
  const OperandAddressing& at = *d.at;
  // Which (x, k) lie in each 16-byte chunk.
  struct Chunk {
    int x_lo = 1 << 30, x_hi = -1, k_lo = 1 << 30, k_hi = -1;
  };
  std::map<std::uint64_t, Chunk> chunks;
  for (int x = 0; x < at.rows(); ++x)
    for (int k = 0; k < at.k(); ++k) {
      Chunk& ch = chunks[at.slot(x, k).address / 16];
      ch.x_lo = std::min(ch.x_lo, x), ch.x_hi = std::max(ch.x_hi, x);
      ch.k_lo = std::min(ch.k_lo, k), ch.k_hi = std::max(ch.k_hi, k);
    }
  const auto [lo, hi] = at.footprint();
  c.text(kMargin, c.y + 12, fmt::format("{} through descriptor {:#018x}: {}; {} ({})", d.op, at.descriptor().raw,
                                        at.descriptor().text(), name(at.major()), at.formula()),
         12, "start");
  c.y += 18;
  c.text(kMargin, c.y + 12, fmt::format("shared bytes {:#x}..{:#x}, one cell per 16-byte chunk ({} row x = {}, k range)",
                                        lo, hi, d.op, d.op == 'A' ? "m" : "n"),
         12, "start");
  c.y += 22;
  const int cw = 96, x0 = kMargin + 70;
  const std::uint64_t first_line = (lo / 128) * 128, last_line = (hi / 128) * 128;
  for (std::uint64_t line = first_line; line <= last_line; line += 128) {
    c.text(x0 - 6, c.y + kCellH / 2 + 4, fmt::format("{:#x}", line), kFont, "end");
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t chunk = line / 16 + static_cast<std::uint64_t>(i);
      const auto it = chunks.find(chunk);
      if (it == chunks.end()) continue;
      const Chunk& ch = it->second;
      const std::string xs = ch.x_lo == ch.x_hi ? std::to_string(ch.x_lo) : fmt::format("{}-{}", ch.x_lo, ch.x_hi);
      const std::string ks = ch.k_lo == ch.k_hi ? std::to_string(ch.k_lo) : fmt::format("{}-{}", ch.k_lo, ch.k_hi);
      c.cell(x0 + i * cw, c.y, cw, fmt::format("cell chunk op-{}", d.op),
             fmt::format("data-address=\"{:#x}\" data-row=\"{}\" data-k=\"{}\"", chunk * 16, xs, ks),
             row_colour(ch.x_lo), fmt::format("{}{} k{}", d.op == 'A' ? "m" : "n", xs, ks));
    }
    c.y += kCellH;
  }
  c.y += kGap;
}

}  // namespace

std::string layout_svg(const std::string& title, const std::vector<SvgFragment>& fragments,
                       const std::vector<SvgDescriptor>& descriptors) {
  Canvas c;
  c.text(kMargin, c.y + 14, title, 14, "start");
  c.y += 32;
  for (const auto& f : fragments) draw_fragment(c, f);
  for (const auto& d : descriptors) draw_descriptor(c, d);
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "font-family=\"monospace\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{}</svg>\n",
      c.width, c.y, c.width, c.y, c.body);
}

void write_svg(const std::string& path, const std::string& svg, const std::vector<SvgFragment>& fragments,
               const std::vector<SvgDescriptor>& descriptors) {
  write_output_file(path, svg);
  std::string what;
  for (const auto& fr : fragments)
    what += fmt::format("{}{} {} cells", what.empty() ? "" : ", ", fr.op,
                        fr.layout->problems * fr.layout->rows * fr.layout->cols);
  for (const auto& d : descriptors) {
    const auto [lo, hi] = d.at->footprint();
    what += fmt::format("{}{} shared bytes {:#x}..{:#x}", what.empty() ? "" : ", ", d.op, lo, hi);
  }
  std::cout << fmt::format("wrote {}: {}\n", path, what);
}

}  // namespace ptxmma::cli
