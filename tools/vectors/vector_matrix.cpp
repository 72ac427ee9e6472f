#include "tools/vectors/vector_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <utility>

#include "sim/error.hpp"
#include "tools/vectors/element_mismatch.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma {

namespace {

constexpr int kMaxReported = 64;

std::uint64_t cell_value(const YamlFile& f, const YAML::Node& at, const std::string& tok, const MatrixSpec& oi,
                         const std::string& where, ExactWork& work) {
  work.charge(f, at, decimal_units(tok));
  try {
    return parse_value_text(std::string(name(oi.t)) + " " + tok, oi.bits, ptx::PtxType::b32);
  } catch (const Error& e) {
    f.fail(at, fmt::format("{}: {}", where, e.what()));
  }
}

std::vector<std::string> split_ws(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) {
    if (!w.empty() && w.back() == ',') w.pop_back();
    if (!w.empty()) out.push_back(w);
  }
  return out;
}

}  // namespace

std::vector<std::uint64_t> parse_matrix(const YamlFile& f, const YAML::Node& n, const MatrixSpec& oi, ExactWork& work) {
  const std::string& op = oi.op;
  const std::string shape = fmt::format("{}x{} matrix of {}", oi.rows, oi.cols, name(oi.t));
  const auto cols = static_cast<std::size_t>(oi.cols);
  std::vector<std::uint64_t> m(static_cast<std::size_t>(oi.rows) * cols);
  if (n.IsScalar()) {
    std::fill(m.begin(), m.end(), cell_value(f, n, n.Scalar(), oi, op, work));
    return m;
  }
  if (!n.IsSequence())
    f.fail(n, fmt::format("{}: expected a list of {} rows (a {}) or a single value", op, oi.rows, shape));
  if (n.size() != static_cast<std::size_t>(oi.rows))
    f.fail(n, fmt::format("{}: expected {} rows (a {}), found {}", op, oi.rows, shape, n.size()));
  for (int r = 0; r < oi.rows; ++r) {
    const YAML::Node row = n[static_cast<std::size_t>(r)];
    std::vector<std::pair<std::string, YAML::Node>> toks;
    if (row.IsScalar()) {
      for (const auto& w : split_ws(row.Scalar())) {
        if (oi.t == Type::b1 && w.size() > 1 && w.find_first_not_of("01_") == std::string::npos) {
          for (const char ch : w)
            if (ch != '_') toks.emplace_back(std::string(1, ch), row);
        } else {
          toks.emplace_back(w, row);
        }
      }
    } else if (row.IsSequence()) {
      for (const auto& x : row) {
        if (!x.IsScalar()) f.fail(x, fmt::format("{} row {}: expected a value", op, r));
        toks.emplace_back(x.Scalar(), x);
      }
    } else {
      f.fail(row, fmt::format("{} row {}: expected a list of values or a string of values", op, r));
    }
    if (toks.size() != cols)
      f.fail(row, fmt::format("{} row {}: expected {} values (a {}), found {}", op, r, oi.cols, shape, toks.size()));
    for (std::size_t c = 0; c < cols; ++c) {
      const auto& [tok, at] = toks[c];
      m[static_cast<std::size_t>(r) * cols + c] = cell_value(f, at, tok, oi, fmt::format("{}[{}][{}]", op, r, c), work);
    }
  }
  return m;
}

std::string matrix_differences(const RegisterCodec& d, std::span<const std::uint64_t> expected,
                               std::span<const std::uint32_t> got, const std::string& instruction) {
  const std::vector<ElementMismatch> bad = element_mismatches_of_cells(d, expected, got);
  if (bad.empty()) return "";
  std::string out = fmt::format("  {} of {} D elements differ ({})\n", bad.size(), d.rows() * d.cols(), instruction);
  for (std::size_t i = 0; i < std::min(bad.size(), static_cast<std::size_t>(kMaxReported)); ++i)
    out += "  " + mismatch_text(d, bad[i]) + "\n";
  if (bad.size() > static_cast<std::size_t>(kMaxReported)) out += fmt::format("  ... and {} more\n", bad.size() - kMaxReported);
  return out;
}

}  // namespace ptxmma
