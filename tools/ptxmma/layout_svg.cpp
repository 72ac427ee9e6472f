#include "tools/ptxmma/layout_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <string_view>

#include "sim/error.hpp"
#include "tools/ptxmma/lane_palette.hpp"
#include "tools/vectors/output_file.hpp"

namespace ptxmma::cli {
namespace {

constexpr int kCellH = 22, kFont = 10, kGap = 36, kMargin = 20, kHead = 16, kLabelCol = 36;

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

// Pixels a label of font 10 needs (monospace: 6 a character) with a little room either side.
int label_width(const std::string& s) { return static_cast<int>(s.size()) * 6 + 8; }
int ceil_div(int a, int b) { return (a + b - 1) / b; }
// "5", or "5-36" for n elements from 5.
std::string span(int lo, int n) { return n == 1 ? std::to_string(lo) : fmt::format("{}-{}", lo, lo + n - 1); }

struct Canvas {
  std::string body;
  int width = 0, y = kMargin;
  void text(int x, int ty, const std::string& s, int size = kFont, const char* anchor = "middle", bool bold = false) {
    if (std::string_view(anchor) == "start") width = std::max(width, x + static_cast<int>(s.size()) * size * 3 / 5 + kMargin);
    // A text inherits font 10, centred, from the <svg> element (layout_svg): a cell's label names neither.
    const std::string size_attr = size == kFont ? "" : fmt::format(" font-size=\"{}\"", size);
    const std::string anchor_attr = std::string_view(anchor) == "middle" ? "" : fmt::format(" text-anchor=\"{}\"", anchor);
    body += fmt::format("<text x=\"{}\" y=\"{}\"{}{}{}>{}</text>\n", x, ty, size_attr, anchor_attr,
                        bold ? " font-weight=\"bold\"" : "", escape(s));
  }
  void cell(int x, int cy, int w, int h, const std::string& cls, const std::string& data, const std::string& fill,
            const std::string& label) {
    body += fmt::format("<rect class=\"{}\" {} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", cls, data,
                        x, cy, w, h, fill);
    text(x + w / 2, cy + h / 2 + kFont / 2 - 1, label);
    width = std::max(width, x + w + kMargin);
  }
  void line(int x1, int y1, int x2, int y2, const std::string& cls, bool dashed = false) {
    body += fmt::format("<line class=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\" stroke-width=\"2\"{}/>\n",
                        cls, x1, y1, x2, y2, dashed ? " stroke-dasharray=\"6,3\"" : "");
  }
};

// Elements that one register holds side by side along K (A's columns, B's rows): an operand of 8
// or more elements to a register is drawn one cell per such run, the others one cell per element.
struct Run {
  FragmentSlot at;  // the first element
  int len = 1;
  int problem = 0, row = 0, col = 0;  // where the first element sits
};

struct Fragment {
  const SvgFragment* f = nullptr;
  bool k_down = false;    // K runs down the rows (B) rather than along the columns (A)
  int rows = 0, cols = 0; // the problems stacked
  int group = 1;          // elements in a run: 1 unless grouped
  std::vector<Run> runs;  // of every (lane, register), copies included

  [[nodiscard]] const FragmentLayout& l() const { return *f->layout; }
  [[nodiscard]] std::string cls() const { return f->op == "C/D" ? "CD" : f->op; }
  [[nodiscard]] int row(const Run& r) const { return r.problem * l().rows + r.row; }
  // Who holds it: T<lane>:r<register>[<element(s)>]; a run of a whole register names no element.
  [[nodiscard]] std::string slot_label(const Run& r) const {
    const int e = l().elems_per_reg;
    if (e == 1 || r.len == e) return fmt::format("T{}:r{}", r.at.lane, r.at.reg);
    return fmt::format("T{}:r{}[{}]", r.at.lane, r.at.reg, span(r.at.elem, r.len));
  }
  // What it holds: (row, col), a range along K for a run.
  [[nodiscard]] std::string coord_label(const Run& r) const {
    const std::string rows = span(r.row, k_down ? r.len : 1), cols = span(r.col, k_down ? 1 : r.len);
    return fmt::format("{}({},{})", l().problems > 1 ? fmt::format("p{}", r.problem) : "", rows, cols);
  }
  [[nodiscard]] std::string data(const Run& r, bool matrix_first) const {
    const std::string rc = fmt::format("data-row=\"{}\" data-col=\"{}\"", span(row(r), k_down ? r.len : 1),
                                       span(r.col, k_down ? 1 : r.len));
    const std::string who = fmt::format("data-lane=\"{}\" data-reg=\"{}\" data-elem=\"{}\"", r.at.lane, r.at.reg,
                                        span(r.at.elem, r.len));
    return matrix_first ? rc + " " + who : who + " " + rc;
  }
};

Fragment prepare(const SvgFragment& f) {
  const FragmentLayout& l = *f.layout;
  Fragment o{&f, f.op == "B", l.problems * l.rows, l.cols, 1, {}};
  const bool group = (f.op == "A" || f.op == "B") && l.elems_per_reg >= 8;
  for (int lane = 0; lane < l.lanes; ++lane)
    for (int reg = 0; reg < l.regs; ++reg)
      for (int e = 0; e < l.elems_per_reg;) {
        const FragmentCoord& first = l.coord(lane, reg, e);
        int len = 1;
        while (group && e + len < l.elems_per_reg) {
          const FragmentCoord& next = l.coord(lane, reg, e + len);
          if (next.problem != first.problem || next.row != first.row + (o.k_down ? len : 0) ||
              next.col != first.col + (o.k_down ? 0 : len))
            break;
          ++len;
        }
        o.runs.push_back({{lane, reg, e}, len, first.problem, first.row, first.col});
        e += len;
      }
  if (group) {
    o.group = l.elems_per_reg;
    for (const Run& r : o.runs) o.group = std::min(o.group, r.len);
  }
  return o;
}

// The widest label of a fragment's cells (matrix view: slot labels; lane view: coordinates).
template <class Label>
int widest(const Fragment& o, Label label) {
  int w = 0;
  for (const Run& r : o.runs) w = std::max(w, label_width(label(r)));
  return w;
}

std::string scale_label(int at) { return fmt::format("T{}:b{}", at / 4, at % 4); }

// The operands by their place in the arrangement; null where not drawn.
struct Roles {
  const Fragment *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;  // c: only where C and D differ
  explicit Roles(const std::vector<Fragment>& all) {
    for (const Fragment& o : all) {
      const std::string& op = o.f->op;
      (op == "A" ? a : op == "B" ? b : op == "C" ? c : d) = &o;
    }
  }
};

// What each part of the picture is: a line per operand, the scale factors' selectors, the labels.
void draw_captions(Canvas& c, const std::vector<Fragment>& all, const std::optional<ScaleSelection>& sc) {
  const Roles roles(all);
  const Fragment *a = roles.a, *b = roles.b, *cm = roles.c, *d = roles.d;
  const int V = sc ? sc->scale_vec : 0;
  const auto caption = [&](const Fragment* o, const char* where, const char* dims) {
    if (!o) return;
    const FragmentLayout& l = o->l();
    c.text(kMargin, c.y + 12,
           fmt::format("{} ({}): {} x {} {} ({}){}, layout {}{}", o->f->op, where, o->rows, o->cols, name(o->f->type),
                       dims, l.problems > 1 ? fmt::format(", {} problems stacked", l.problems) : "", l.name,
                       o->group > 1 ? fmt::format("; one cell per {} elements a register holds along K", o->group) : ""),
           12, "start");
    c.y += 16;
  };
  caption(a, "left", a && a->f->sparse ? "M x K/2: the stored elements, in K order" : "M x K");
  caption(b, "top", "K x N");
  caption(d, "middle", "M x N");
  caption(cm, "right of D", "M x N");
  std::vector<std::string> lines;
  if (sc && a)
    lines.push_back(fmt::format("SF_A (left of A): {} x {} {} scale factors in scale-a-data under byte-id-a {}, "
                                "thread-id-a {}",
                                sc->layout->a.count, V, name(sc->type), sc->byte_a, sc->tid_a));
  if (sc && b)
    lines.push_back(fmt::format("SF_B (above B): {} x {} {} scale factors in scale-b-data under byte-id-b {}, "
                                "thread-id-b {}",
                                V, sc->layout->b.count, name(sc->type), sc->byte_b, sc->tid_b));
  if (!lines.empty())
    lines.push_back(fmt::format(
        "   T<lane>:b<byte>: byte b (bits 8b+7..8b) of the lane's register; {}",
        V > 1 ? fmt::format("heavy lines part the {} K-blocks (.scale_vec::{}X) the scale factors multiply", V, V)
              : std::string("one K-block (.scale_vec::1X): a scale factor multiplies a whole row of A or column of B")));
  for (const auto& line : lines) {
    c.text(kMargin, c.y + 12, line, 12, "start");
    c.y += 16;
  }
  c.text(kMargin, c.y + 12,
         fmt::format("cells T<{0}>:r<register>[<element>] say who holds each element, coloured by {0}{1}",
                     all.front().l().lanes > 32 ? "thread" : "lane",
                     all.front().l().lanes > 32 ? " (each warp repeats lanes 0-31's colours)" : ""),
         12, "start");
  c.y += 16 + kGap / 2;
}

// The matrices in CuTe's arrangement.
void draw_arrangement(Canvas& c, const std::vector<Fragment>& all, const std::optional<ScaleSelection>& sc) {
  const Roles roles(all);
  const Fragment *a = roles.a, *b = roles.b, *cm = roles.c, *d = roles.d;
  const int V = sc ? sc->scale_vec : 0;
  const bool sfa = sc && a, sfb = sc && b;

  // Geometry: the M rows are kCellH high, D's and B's N columns cw_n wide; A's K columns kw_a wide
  // and B's K rows kh_b high (a run of a grouped operand spans group of them).
  const auto slot = [](const Fragment& o) { return widest(o, [&](const Run& r) { return o.slot_label(r); }); };
  const int cw_sf = label_width(scale_label(4 * 31 + 3));
  int cw_n = 0;
  if (d) cw_n = std::max(cw_n, slot(*d));
  if (b) cw_n = std::max(cw_n, slot(*b));
  if (sfb) cw_n = std::max(cw_n, cw_sf);
  const int kw_a = a ? ceil_div(slot(*a), a->group) : 0;
  const int kh_b = b ? (b->group > 1 ? ceil_div(kCellH, b->group) : kCellH) : 0;
  const int cw_c = cm ? slot(*cm) : 0;
  const int x_left = kMargin + kLabelCol;
  const int x_a = x_left + (sfa ? V * cw_sf + 8 : 0);
  const int x_d = a ? x_a + a->cols * kw_a + kGap : x_left;
  const int x_c = x_d + (d ? d->cols * cw_n + kGap : 0);
  const int y_top = c.y;
  const int y_sfb = y_top + kHead;
  const int y_b = y_sfb + (sfb ? V * kCellH + 8 : 0);
  const int y_d = b ? y_b + b->rows * kh_b + kGap : y_top + kHead;
  const int rows_m = d ? d->rows : a ? a->rows : 0;
  const auto draw = [&](const Fragment& o, int x0, int y0, int col_w, int row_h) {
    for (const Run& r : o.runs) {
      // A copy holds nothing new; of an element's several holders (Volta) the one the product reads.
      if (r.at.reg >= o.l().distinct() || !o.l().chosen(r.at.lane, r.at.reg, r.at.elem)) continue;
      const int w = o.k_down ? 1 : r.len, h = o.k_down ? r.len : 1;
      c.cell(x0 + r.col * col_w, y0 + o.row(r) * row_h, w * col_w, h * row_h, "cell matrix op-" + o.cls(), o.data(r, true),
             lane_colour(r.at.lane), o.slot_label(r));
    }
  };
  const auto corner = [&](int x, int y, const std::string& op) { c.text(x, y, op, 14, "end", true); };

  // Column numbers of N above the top of the stack (B, else D), row numbers of M left of A or D.
  if (b || d) {
    const int n = b ? b->cols : d->cols;
    const int y = b ? y_top : y_d - kHead;
    for (int col = 0; col < n; ++col) c.text(x_d + col * cw_n + cw_n / 2, y + 12, std::to_string(col));
  }
  for (int r = 0; r < rows_m; ++r) c.text(x_left - 6, y_d + r * kCellH + kCellH / 2 + 4, std::to_string(r), kFont, "end");
  if (a) {
    for (int k = 0; k < a->cols; k += a->group)
      c.text(x_a + k * kw_a + (a->group > 1 ? 2 : kw_a / 2), y_d - kHead + 12, std::to_string(k), kFont,
             a->group > 1 ? "start" : "middle");
    draw(*a, x_a, y_d, kw_a, kCellH);
    corner(x_left - 6, y_d - 4, "A");
  }
  if (b) {
    for (int k = 0; k < b->rows; k += b->group)
      c.text(x_d - 6, y_b + k * kh_b + (b->group > 1 ? 10 : kh_b / 2 + 4), std::to_string(k), kFont, "end");
    draw(*b, x_d, y_b, cw_n, kh_b);
    corner(x_d - 6, y_top + 12, "B");
  }
  if (d) {
    draw(*d, x_d, y_d, cw_n, kCellH);
    corner(x_d - 6, y_d - 4, d->f->op);
  }
  if (cm) {
    for (int col = 0; col < cm->cols; ++col) c.text(x_c + col * cw_c + cw_c / 2, y_d - kHead + 12, std::to_string(col));
    draw(*cm, x_c, y_d, cw_c, kCellH);
    corner(x_c - 6, y_d - 4, "C");
  }
  if (sfa) {
    for (int v = 0; v < V; ++v) c.text(x_left + v * cw_sf + cw_sf / 2, y_d - kHead + 12, fmt::format("v{}", v));
    for (int x = 0; x < sc->layout->a.count; ++x)
      for (int v = 0; v < V; ++v) {
        const int at = sc->source(true, x, v);
        c.cell(x_left + v * cw_sf, y_d + x * kCellH, cw_sf, kCellH, "cell scale op-SFA",
               fmt::format("data-row=\"{}\" data-block=\"{}\" data-lane=\"{}\" data-byte=\"{}\"", x, v, at / 4, at % 4),
               lane_colour(at / 4), scale_label(at));
      }
    for (int v = 1; v < V; ++v) {
      const int x = x_a + v * a->cols / V * kw_a;
      c.line(x, y_d - 4, x, y_d + a->rows * kCellH + 4, "kblock op-A");
    }
  }
  if (sfb) {
    for (int v = 0; v < V; ++v) c.text(x_d - 6, y_sfb + v * kCellH + kCellH / 2 + 4, fmt::format("v{}", v), kFont, "end");
    for (int x = 0; x < sc->layout->b.count; ++x)
      for (int v = 0; v < V; ++v) {
        const int at = sc->source(false, x, v);
        c.cell(x_d + x * cw_n, y_sfb + v * kCellH, cw_n, kCellH, "cell scale op-SFB",
               fmt::format("data-block=\"{}\" data-col=\"{}\" data-lane=\"{}\" data-byte=\"{}\"", v, x, at / 4, at % 4),
               lane_colour(at / 4), scale_label(at));
      }
    for (int v = 1; v < V; ++v) {
      const int y = y_b + v * b->rows / V * kh_b;
      c.line(x_d - 4, y, x_d + b->cols * cw_n + 4, y, "kblock op-B");
    }
  }
  // Dashed lines part the M rows where the problem (m8n8k4) or the warp of the warpgroup (wgmma)
  // that holds them changes, and B's K rows between problems.
  if (const Fragment* m = d ? d : a) {
    const FragmentLayout& l = m->l();
    const auto part = [&](int r) { return std::pair(r / l.rows, l.slot(r / l.rows, r % l.rows, 0).lane / 32); };
    const int left = sfa ? x_left : a ? x_a : x_d;
    const int right = cm ? x_c + cm->cols * cw_c : d ? x_d + d->cols * cw_n : x_a + a->cols * kw_a;
    for (int r = 1; r < m->rows; ++r)
      if (part(r) != part(r - 1)) c.line(left - 4, y_d + r * kCellH, right + 4, y_d + r * kCellH, "part", true);
  }
  if (b)
    for (int r = b->l().rows; r < b->rows; r += b->l().rows)
      c.line(x_d - 4, y_b + r * kh_b, x_d + b->cols * cw_n + 4, y_b + r * kh_b, "part op-B", true);
  c.y = (rows_m > 0 ? y_d + rows_m * kCellH : y_b + (b ? b->rows * kh_b : 0)) + kGap;
}

// The lane views side by side: a title, the register headers, the element headers, a row per lane.
void draw_lane_views(Canvas& c, const std::vector<Fragment>& all, const std::optional<ScaleSelection>& sc) {
  const Roles roles(all);
  const int V = sc ? sc->scale_vec : 0;
  const bool sfa = sc && roles.a, sfb = sc && roles.b;
  const int x_left = kMargin + kLabelCol;
  const int lanes = all.front().l().lanes;
  const char* unit = lanes > 32 ? "thread" : "lane";
  c.text(kMargin, c.y + 12, fmt::format("lane views: what each register element of each {} holds, (row,col) of its "
                                        "operand", unit),
         12, "start");
  c.y += 22;
  const int y_reg = c.y + kHead, y_elem = y_reg + kHead, y_cells = y_elem + kHead / 2 + 4;
  int x = x_left;
  for (const Fragment& o : all) {
    const FragmentLayout& l = o.l();
    const int eu = ceil_div(widest(o, [&](const Run& r) { return o.coord_label(r); }), o.group);
    c.text(x, c.y + 12, o.f->op, 12, "start", true);
    for (int reg = 0; reg < l.regs; ++reg) {
      const int rx = x + reg * l.elems_per_reg * eu;
      c.text(rx + l.elems_per_reg * eu / 2, y_reg + 12, fmt::format("r{}", reg));
      c.line(rx, y_reg, rx, y_elem + 4, "register");
      if (o.group == 1 && l.elems_per_reg > 1)
        for (int e = 0; e < l.elems_per_reg; ++e) c.text(rx + e * eu + eu / 2, y_elem + 8, fmt::format("[{}]", e));
    }
    for (const Run& r : o.runs)
      c.cell(x + (r.at.reg * l.elems_per_reg + r.at.elem) * eu, y_cells + r.at.lane * kCellH, r.len * eu, kCellH,
             "cell lane op-" + o.cls(), o.data(r, false), lane_colour(r.at.lane), o.coord_label(r));
    x += l.regs * l.elems_per_reg * eu + 16;
  }
  if (sc) {
    const auto scales = [&](bool is_a) {
      const int count = is_a ? sc->layout->a.count : sc->layout->b.count;
      const int w = label_width(fmt::format("({},{})", count - 1, count - 1));
      c.text(x, c.y + 12, is_a ? "scale-a-data" : "scale-b-data", 12, "start", true);
      for (int byte = 0; byte < 4; ++byte) c.text(x + byte * w + w / 2, y_reg + 12, fmt::format("b{}", byte));
      for (int i = 0; i < count; ++i)
        for (int v = 0; v < V; ++v) {
          const int at = sc->source(is_a, i, v);
          c.cell(x + at % 4 * w, y_cells + at / 4 * kCellH, w, kCellH, is_a ? "cell lane op-SFA" : "cell lane op-SFB",
                 fmt::format("data-lane=\"{}\" data-byte=\"{}\" data-{}=\"{}\" data-block=\"{}\"", at / 4, at % 4,
                             is_a ? "row" : "col", i, v),
                 lane_colour(at / 4), is_a ? fmt::format("({},{})", i, v) : fmt::format("({},{})", v, i));
        }
      x += 4 * w + 16;
    };
    if (sfa) scales(true);
    if (sfb) scales(false);
  }
  for (int lane = 0; lane < lanes; ++lane)
    c.text(x_left - 6, y_cells + lane * kCellH + kCellH / 2 + 4, fmt::format("T{}", lane), kFont, "end");
  c.y = y_cells + lanes * kCellH + kGap;
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
      c.cell(x0 + i * cw, c.y, cw, kCellH, fmt::format("cell chunk op-{}", d.op),
             fmt::format("data-address=\"{:#x}\" data-row=\"{}\" data-k=\"{}\"", chunk * 16, xs, ks),
             row_colour(ch.x_lo), fmt::format("{}{} k{}", d.op == 'A' ? "m" : "n", xs, ks));
    }
    c.y += kCellH;
  }
  c.y += kGap;
}

}  // namespace

std::string layout_svg(const std::string& title, const std::vector<SvgFragment>& fragments,
                       const std::vector<SvgDescriptor>& descriptors, const std::optional<ScaleSelection>& scales,
                       SvgViews views) {
  Canvas c;
  const auto newline = title.find('\n');
  c.text(kMargin, c.y + 14, title.substr(0, newline), 14, "start");
  c.y += 26;
  for (auto at = newline; at != std::string::npos;) {
    const auto next = title.find('\n', at + 1);
    c.text(kMargin, c.y + 12, title.substr(at + 1, next - at - 1), 12, "start");
    c.y += 16;
    at = next;
  }
  if (!fragments.empty()) {
    std::vector<Fragment> all;
    for (const auto& f : fragments) all.push_back(prepare(f));
    draw_captions(c, all, scales);
    if (views.matrix) draw_arrangement(c, all, scales);
    if (views.lanes) draw_lane_views(c, all, scales);
  }
  for (const auto& d : descriptors) draw_descriptor(c, d);
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "font-family=\"monospace\" font-size=\"{}\" text-anchor=\"middle\">\n"
      "<style>rect.cell {{ stroke: #666; stroke-width: 0.5 }}</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{}</svg>\n",
      c.width, c.y, c.width, c.y, kFont, c.body);
}

void write_svg(const std::string& path, const std::string& svg, const std::vector<SvgFragment>& fragments,
               const std::vector<SvgDescriptor>& descriptors) {
  write_output_file(path, svg);
  std::string what;
  for (const auto& fr : fragments)
    what += fmt::format("{}{} {} elements", what.empty() ? "" : ", ", fr.op,
                        fr.layout->problems * fr.layout->rows * fr.layout->cols);
  for (const auto& d : descriptors) {
    const auto [lo, hi] = d.at->footprint();
    what += fmt::format("{}{} shared bytes {:#x}..{:#x}", what.empty() ? "" : ", ", d.op, lo, hi);
  }
  std::cout << fmt::format("wrote {}: {}\n", path, what);
}

}  // namespace ptxmma::cli
