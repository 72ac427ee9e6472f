#include "tools/vectors/ptx_state.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <filesystem>
#include <set>

#include "sim/error.hpp"
#include "sim/exec/tensor_map.hpp"
#include "sim/numeric/exact.hpp"
#include "sim/util/budget.hpp"
#include "sim/util/input_file.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma {
namespace {

constexpr std::uint64_t kMaxSharedBytes = 256 * 1024;  // the interpreter's limit (18-bit shared addresses)

std::uint32_t parse_lanes(const YamlFile& f, const YAML::Node& n) {
  const std::string s = n.IsScalar() ? n.Scalar() : std::string();
  std::string compact = s;  // white space is allowed anywhere in a YAML lane list
  std::erase_if(compact, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  const auto mask = lane_mask(compact);
  if (!mask) f.fail(n, fmt::format("bad lane list '{}' (e.g. 0-3,8)", s));
  return *mask;
}

std::uint64_t value_of(const YamlFile& f, const YAML::Node& n, int width, ptx::PtxType type, int lane, ExactWork& work) {
  if (!n.IsScalar()) f.fail(n, "expected a value");
  if (n.Scalar() == "lane") return static_cast<std::uint64_t>(lane);
  work.charge(f, n, decimal_units(n.Scalar()));
  try {
    return parse_value_text(n.Scalar(), width, type);
  } catch (const Error& e) {
    f.fail(n, e.what());
  }
}

std::uint64_t integer_of(const YamlFile& f, const YAML::Node& n, const char* what) {
  try {
    return parse_value_text(n.Scalar(), 64, ptx::PtxType::u64);
  } catch (const Error& e) {
    f.fail(n, fmt::format("{}: {}", what, e.what()));
  }
}

// A tensor map declared by its parameters (docs/state-format.md, "Tensor maps"): the 128 bytes
// cuTensorMapEncodeTiled writes for them, or with the pixel box's corners cuTensorMapEncodeIm2col
// (sim/exec/tensor_map.hpp).
std::vector<std::uint8_t> tensor_map_bytes(const YamlFile& f, const YAML::Node& n) {
  if (!n.IsMap()) f.fail(n, "'tensor_map' is a map {type: ..., address: ..., dims: [...], ...}");
  f.check_keys(n, {"type", "address", "dims", "strides", "box", "element_strides", "swizzle", "interleave",
                   "l2_promotion", "oob_fill", "lower_corner", "upper_corner", "channels_per_pixel",
                   "pixels_per_column"},
               "'tensor_map'");
  TensorMapParams p;
  p.im2col = n["lower_corner"] || n["upper_corner"] || n["channels_per_pixel"] || n["pixels_per_column"];
  for (const char* k : {"type", "address", "dims"})
    if (!n[k]) f.fail(n, fmt::format("a tensor map needs '{}'", k));
  const std::initializer_list<const char*> im2col_keys = {"lower_corner", "upper_corner", "channels_per_pixel",
                                                          "pixels_per_column"};
  if (p.im2col) {
    for (const char* k : im2col_keys)
      if (!n[k]) f.fail(n, fmt::format("an im2col tensor map needs '{}' (its keys: lower_corner, upper_corner, "
                                       "channels_per_pixel, pixels_per_column)", k));
    if (n["box"]) f.fail(n["box"], "an im2col tensor map has no 'box' (channels_per_pixel x pixels_per_column)");
  } else if (!n["box"]) {
    f.fail(n, "a tensor map needs 'box' (or, for an im2col map, the pixel box's corners)");
  }
  const auto t = parse_tensor_map_type(n["type"].Scalar());
  if (!t)
    f.fail(n["type"], fmt::format("tensor map type '{}' is not one of u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 "
                                  "f32_ftz tf32 tf32_ftz",
                                  n["type"].Scalar()));
  p.type = *t;
  p.address = integer_of(f, n["address"], "the tensor map's address");
  const auto list = [&](const char* key, std::size_t lo, std::size_t hi) {
    const YAML::Node l = n[key];
    if (!l.IsSequence() || l.size() < lo || l.size() > hi)
      f.fail(l, fmt::format("'{}' is a list of {} to {} numbers (innermost dimension first)", key, lo, hi));
    std::vector<std::uint64_t> v;
    for (const auto& e : l) v.push_back(integer_of(f, e, key));
    return v;
  };
  const std::vector<std::uint64_t> dims = list("dims", 1, 5);
  p.rank = static_cast<int>(dims.size());
  const auto r = static_cast<std::size_t>(p.rank);
  for (std::size_t i = 0; i < r; ++i) p.dims[i] = dims[i];
  const auto fixed = [&](const char* key, std::size_t size) {
    const std::vector<std::uint64_t> v = list(key, size, size);
    for (const std::uint64_t x : v)
      if (x > 0xffffffffULL) f.fail(n[key], fmt::format("'{}' values fit 32 bits", key));
    return v;
  };
  if (p.im2col) {
    if (r < 3) f.fail(n["dims"], "an im2col tensor map has 3 to 5 dimensions");
    for (const char* key : {"lower_corner", "upper_corner"}) {
      const YAML::Node l = n[key];
      if (!l.IsSequence() || l.size() != r - 2)
        f.fail(l, fmt::format("'{}' is a list of {} signed numbers (W{}{})", key, r - 2, r > 3 ? ", H" : "",
                              r > 4 ? ", D" : ""));
      for (std::size_t i = 0; i < r - 2; ++i) {
        std::int64_t v = 0;
        try {
          v = static_cast<std::int64_t>(parse_value_text(l[i].Scalar(), 64, ptx::PtxType::s64));
        } catch (const Error& e) {
          f.fail(l[i], fmt::format("{}: {}", key, e.what()));
        }
        if (v < -32768 || v > 32767) f.fail(l[i], fmt::format("'{}' values are 16-bit signed numbers", key));
        (key[0] == 'l' ? p.lower : p.upper)[i] = static_cast<int>(v);
      }
    }
    const auto count = [&](const char* key) {
      const std::uint64_t v = integer_of(f, n[key], key);
      if (v > 0xffffffffULL) f.fail(n[key], fmt::format("'{}' fits 32 bits", key));
      return static_cast<std::uint32_t>(v);
    };
    p.channels = count("channels_per_pixel");
    p.pixels = count("pixels_per_column");
  } else {
    const std::vector<std::uint64_t> box = fixed("box", r);
    for (std::size_t i = 0; i < r; ++i) p.box[i] = static_cast<std::uint32_t>(box[i]);
  }
  if (n["element_strides"]) {
    const std::vector<std::uint64_t> e = fixed("element_strides", r);
    for (std::size_t i = 0; i < r; ++i) p.element_strides[i] = static_cast<std::uint32_t>(e[i]);
  }
  if (p.rank > 1) {
    if (!n["strides"]) f.fail(n, fmt::format("a tensor map of rank {} needs 'strides' (bytes, of dimensions 1..{})",
                                             p.rank, p.rank - 1));
    const std::vector<std::uint64_t> s = list("strides", r - 1, r - 1);
    for (std::size_t i = 0; i + 1 < r; ++i) p.strides[i] = s[i];
  } else if (n["strides"]) {
    f.fail(n["strides"], "a tensor map of rank 1 has no strides");
  }
  const auto choice = [&](const char* key, std::initializer_list<std::string_view> names) {
    if (!n[key]) return 0;
    int i = 0;
    for (const std::string_view s : names) {
      if (n[key].Scalar() == s) return i;
      ++i;
    }
    f.fail(n[key], fmt::format("'{}' is one of {}", key, fmt::join(names, ", ")));
  };
  p.swizzle = choice("swizzle", {"none", "32B", "64B", "128B"});
  p.interleave = choice("interleave", {"none", "16B", "32B"});
  p.l2_promotion = choice("l2_promotion", {"none", "64B", "128B", "256B"});
  p.oob_nan = choice("oob_fill", {"zero", "nan"}) == 1;
  try {
    const TensorMapBytes b = encode_tensor_map(p);
    return {b.begin(), b.end()};
  } catch (const Error& e) {
    f.fail(n, e.what());
  }
}

std::vector<std::uint8_t> hex_bytes(const YamlFile& f, const YAML::Node& n) {
  std::vector<std::uint8_t> out;
  std::string digits;
  for (const char c : n.Scalar()) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '_' || c == ',') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) f.fail(n, fmt::format("'bytes' takes hex digits, found '{}'", c));
    digits += c;
  }
  if (digits.size() % 2) f.fail(n, "'bytes' has an odd number of hex digits");
  for (std::size_t i = 0; i < digits.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoul(digits.substr(i, 2), nullptr, 16)));
  return out;
}

// The bytes of a binary file named by a block's `file:`, relative to the YAML file's folder; no
// more than global memory may hold (--max-memory-pages).
std::vector<std::uint8_t> file_bytes(const YamlFile& f, const YAML::Node& n) {
  if (!n.IsScalar() || n.Scalar().empty()) f.fail(n, "'file' takes the path of a binary file");
  std::filesystem::path path(n.Scalar());
  if (path.is_relative()) path = std::filesystem::path(f.path).parent_path() / path;
  const std::uint64_t limit = budget().memory_pages * 4096;
  std::error_code ec;
  if (const std::uintmax_t size = std::filesystem::file_size(path, ec); !ec && size > limit)
    f.fail(n, fmt::format("{}: {} bytes, more than global memory holds ({} pages of 4 KiB: raise it with "
                          "--max-memory-pages)", path.string(), size, budget().memory_pages));
  try {
    const std::string bytes = read_input_file(path.string(), limit);
    return {bytes.begin(), bytes.end()};
  } catch (const Error& e) {
    f.fail(n, e.what());
  }
}

// The bytes of a memory block: bytes: "hex" | file: PATH | type + values: [...] | type + ramp:
// {start, step, count}.
std::vector<std::uint8_t> block_bytes(const YamlFile& f, const YAML::Node& b, ExactWork& work) {
  for (const char* raw : {"bytes", "file"})
    if (b[raw]) {
      for (const char* k : {"bytes", "file", "type", "values", "ramp"})
        if (b[k] && std::string_view(k) != raw)
          f.fail(b[k], fmt::format("'{}' does not go with '{}' (a block has 'bytes', 'file', or 'type' with "
                                   "'values' or 'ramp')", k, raw));
      return std::string_view(raw) == "bytes" ? hex_bytes(f, b["bytes"]) : file_bytes(f, b["file"]);
    }
  if (b["values"] && b["ramp"]) f.fail(b["ramp"], "'ramp' does not go with 'values' (give one of them)");
  if (!b["type"]) f.fail(b, "a memory block needs 'bytes', 'file', or 'type' with 'values' or 'ramp'");
  const auto t = ptx::parse_ptx_type(b["type"].Scalar());
  if (!t || !ptx::declarable(*t) || *t == ptx::PtxType::pred)
    f.fail(b["type"], fmt::format("'{}' is not a memory element type (b8..b64, u/s8..64, f16, f16x2, bf16, bf16x2, f32, f64)",
                                  b["type"].Scalar()));
  const int w = ptx::bits(*t);
  std::vector<std::uint8_t> out;
  const auto put = [&](std::uint64_t v) {
    for (int i = 0; i < w / 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  if (const YAML::Node vs = b["values"]) {
    if (vs.IsSequence()) {
      for (const auto& v : vs) put(value_of(f, v, w, *t, 0, work));
    } else {
      f.fail(vs, "'values' takes a list");
    }
    return out;
  }
  if (const YAML::Node r = b["ramp"]) {
    f.check_keys(r, {"start", "step", "count"}, "'ramp'");
    // A number, or (integer element types) the bits in hex.
    const auto number = [&](const char* key, const char* dflt) -> std::optional<ExactValue> {
      const YAML::Node n = r[key];
      if (n && n.IsScalar() && n.Scalar().starts_with("0x")) {
        ExactValue e;
        e.value = Rational(integer_of(f, n, key));
        e.cls = e.value == 0 ? FpClass::zero : FpClass::normal;
        return e;
      }
      return parse_decimal(n ? n.Scalar() : dflt);
    };
    const auto start = number("start", "0");
    const auto step = number("step", "1");
    if (!start || !step || start->cls == FpClass::nan || step->cls == FpClass::nan ||
        start->cls == FpClass::infinity || step->cls == FpClass::infinity)
      f.fail(r, "'ramp' takes finite decimal start and step");
    // Past 1e+-400 every memory type overflows or underflows.
    static const Rational kHuge(boost::multiprecision::pow(BigInt(10), 400));
    for (const ExactValue* x : {&*start, &*step})
      if (x->value != 0 && (abs(x->value) > kHuge || abs(x->value) * kHuge < 1))
        f.fail(r, "'ramp' start and step must be 0 or between 1e-400 and 1e400 in magnitude");
    if (!r["count"]) f.fail(r, "'ramp' needs 'count'");
    const std::uint64_t count = integer_of(f, r["count"], "count");
    const auto words = [](const BigInt& v) -> std::uint64_t { return v == 0 ? 1 : msb(abs(v)) / 64 + 1; };
    std::uint64_t w = 0;
    for (const ExactValue* x : {&*start, &*step}) w += words(numerator(x->value)) + words(denominator(x->value));
    const std::uint64_t cost = w * w;
    if (count > work.left / cost)
      f.fail(r["count"], fmt::format("'count' {} is too large: the file's numbers have room for {} more elements with "
                                      "this start and step ({} words of exact arithmetic, {} units an element; a budget "
                                      "of {} units in all: raise it with --max-exact-work)",
                                      count, work.left / cost, w, cost, budget().exact_units));
    work.left -= count * cost;
    // Integer elements must fit their type, as a value in 'values' must.
    const ptx::TypeClass tc = ptx::type_class(*t);
    const int bits = ptx::bits(*t);
    const BigInt lo = tc == ptx::TypeClass::unsigned_int ? BigInt(0) : -(BigInt(1) << (bits - 1));
    const BigInt hi = tc == ptx::TypeClass::signed_int ? (BigInt(1) << (bits - 1)) - 1 : (BigInt(1) << bits) - 1;
    for (std::uint64_t i = 0; i < count; ++i) {
      const Rational x = start->value + step->value * static_cast<long long>(i);
      ExactValue e;
      e.cls = x == 0 ? FpClass::zero : FpClass::normal;
      e.negative = x < 0;
      e.value = x;
      const auto elem = ptx::element_format(*t);
      if (elem && ptx::lanes_of(*t) == 1) {
        try {
          put(round_in_range(*elem, e, to_decimal(x)));
        } catch (const Error& err) {
          f.fail(r, fmt::format("ramp element {}: {}", i, err.what()));
        }
      } else {
        if (denominator(x) != 1) f.fail(r, fmt::format("ramp value {} is not an integer, as {} needs", to_decimal(x), ptx::name(*t)));
        if (x < lo || x > hi) f.fail(r, fmt::format("ramp value {} is out of range for {}", to_decimal(x), ptx::name(*t)));
        const BigInt n = numerator(x);
        put(static_cast<std::uint64_t>(n < 0 ? n + (BigInt(1) << 64) : n));
      }
    }
    return out;
  }
  f.fail(b, "a typed memory block needs 'values' or 'ramp'");
}

void load_memory(const YamlFile& f, const YAML::Node& list, Memory& mem, ExactWork& work) {
  for (const MemoryBlock& b : memory_blocks(f, list, work)) {
    try {
      mem.write(b.address, b.bytes.data(), b.bytes.size());
    } catch (const Error& e) {
      f.fail(b.node, e.what());
    }
  }
}

}  // namespace

void ExactWork::charge(const YamlFile& f, const YAML::Node& at, std::uint64_t units) {
  if (units > left)
    f.fail(at, over_budget(budget().exact_units - left + units, "units of exact decimal arithmetic in the file",
                           budget().exact_units, "--max-exact-work"));
  left -= units;
}

std::uint64_t decimal_units(std::string_view text) {
  // A word per 19 decimal digits of the numerator (digits and a positive exponent) and of the
  // denominator (a negative exponent), at least one each.
  std::uint64_t words = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (text.substr(i, 2) == "0x" || text.substr(i, 2) == "0X") {  // hex bits: no arithmetic
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::uint64_t digits = 0, exponent = 0;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
      digits += text[i++] != '.';
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      ++i;
      if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
      for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
        exponent = std::min<std::uint64_t>(exponent * 10 + static_cast<std::uint64_t>(text[i] - '0'), 1U << 20);
    }
    words += (digits + exponent) / 19 + 2;
  }
  return words * words;
}

std::vector<MemoryBlock> memory_blocks(const YamlFile& f, const YAML::Node& list, ExactWork& work) {
  if (!list.IsSequence()) f.fail(list, "expected a list of blocks (- {address: ..., bytes: ...})");
  std::vector<MemoryBlock> out;
  for (const auto& b : list) {
    if (!b.IsMap()) f.fail(b, "expected a block {address: ..., bytes: ... | file: ... | type: ..., values: [...]}");
    f.check_keys(b, {"address", "bytes", "file", "type", "values", "ramp"});
    if (!b["address"]) f.fail(b, "a block needs 'address'");
    MemoryBlock m;
    m.address = integer_of(f, b["address"], "address");
    m.bytes = block_bytes(f, b, work);
    m.width = b["type"] ? std::max(1, ptx::bits(*ptx::parse_ptx_type(b["type"].Scalar())) / 8) : 1;
    m.node = static_cast<const YAML::Node&>(b);  // the Node, not the iterator_value (clang)
    out.push_back(std::move(m));
  }
  return out;
}

PtxState PtxState::load(const std::string& path) {
  const YamlFile f = YamlFile::load(path);
  f.check_unique_keys();
  return from_node(f.path, f.root);
}

PtxState PtxState::from_node(const std::string& path, const YAML::Node& root) {
  PtxState s;
  s.file_ = YamlFile{path, root};
  s.empty_ = false;
  const YAML::Node& r = s.file_.root;
  if (!r || r.IsNull()) {
    s.empty_ = true;
    return s;
  }
  if (!r.IsMap()) s.file_.fail(r, "the state is a map (registers, shared, global, const, params, ntid, ...)");
  s.file_.check_keys(r,
             {"registers", "shared", "global", "const", "params", "ntid", "warpid", "ctaid", "nctaid", "cluster",
              "cluster_non_portable", "shared_size", "dynamic_shared"});
  return s;
}

void PtxState::configure(InterpreterOptions& o) const {
  if (empty_) return;
  file_.located([&] {
    const YamlFile& f = file_;
    const YAML::Node& r = f.root;
    // ntid and nctaid count from 1 (0 would mean "unset" to the interpreter); ctaid from 0.
    const auto triple = [&](const char* key, Dim3& out, std::uint64_t lo, std::uint64_t hi) {
      const YAML::Node n = r[key];
      if (!n) return;
      if (!n.IsSequence() || n.size() < 1 || n.size() > 3) f.fail(n, fmt::format("'{}' takes [x, y, z]", key));
      for (std::size_t i = 0; i < n.size(); ++i) {
        const std::uint64_t v = integer_of(f, n[i], key);
        if (v < lo || v > hi) f.fail(n[i], fmt::format("'{}' value {} is out of range [{}, {}]", key, v, lo, hi));
        out[i] = static_cast<int>(v);
      }
    };
    triple("ntid", o.ntid, 1, 1024);
    triple("nctaid", o.nctaid, 1, 65535);
    triple("cluster", o.cluster, 1, 16);
    o.explicit_cluster = o.explicit_cluster || r["cluster"];
    if (const YAML::Node n = r["cluster_non_portable"]) {
      if (!n.IsScalar() || (n.Scalar() != "true" && n.Scalar() != "false"))
        f.fail(n, "'cluster_non_portable' is true or false");
      o.non_portable_cluster = n.Scalar() == "true";
    }
    // ctaid: run that CTA of the grid alone.
    Dim3 ctaid = {0, 0, 0};
    triple("ctaid", ctaid, 0, 65534);
    for (std::size_t k = 0; k < 3; ++k)
      if (ctaid[k] >= o.nctaid[k])
        f.fail(r["ctaid"] ? r["ctaid"] : r["nctaid"],
               fmt::format("'ctaid' {} = {} is outside the grid: 'nctaid' {} = {}", "xyz"[k], ctaid[k], "xyz"[k],
                           o.nctaid[k]));
    if (r["ctaid"]) {
      GridShape g;
      g.nctaid = o.nctaid;
      o.ctas = {{g.rank(ctaid), g.rank(ctaid)}};
    }
    // Bounded here, where the YAML node can be named, before the interpreter sizes anything.
    const auto bounded = [&](const char* key, std::uint64_t hi) {
      const std::uint64_t v = integer_of(f, r[key], key);
      if (v > hi) f.fail(r[key], fmt::format("'{}' value {} is out of range [0, {}]", key, v, hi));
      return v;
    };
    if (r["warpid"]) o.warpid = static_cast<int>(bounded("warpid", 31));
    if (r["shared_size"]) o.shared_bytes = bounded("shared_size", kMaxSharedBytes);
    if (r["dynamic_shared"]) o.dynamic_shared = bounded("dynamic_shared", kMaxSharedBytes);
  });
}

Machine PtxState::machine(const ptx::Program& p, const InterpreterOptions& o) const {
  try {
    return Machine(p, o);
  } catch (const GridError& e) {
    if (empty_) throw;
    if (e.about_cluster())
      if (const YAML::Node n = file_.root["cluster"]) file_.fail(n, e.what());
    for (const char* key : {"ctaid", "nctaid", "cluster"})
      if (const YAML::Node n = file_.root[key]) file_.fail(n, e.what());
    throw;
  }
}

void PtxState::apply(Machine& m) const {
  if (empty_) return;
  file_.located([&] {
    const YamlFile& f = file_;
    const YAML::Node& r = f.root;
    const ptx::Program& p = m.program();
    ExactWork work;
    if (const YAML::Node regs = r["registers"]) {
      if (!regs.IsMap()) f.fail(regs, "'registers' is a map from register name to value");
      for (const auto& kv : regs) {
        const std::string name = kv.first.Scalar();
        const int idx = p.find_register(name);
        if (idx < 0) f.fail(kv.first, fmt::format("register {} is not declared in {}", name, p.file));
        const ptx::PtxType t = p.registers[static_cast<std::size_t>(idx)].type;
        const int w = ptx::bits(t);
        const YAML::Node& v = kv.second;
        // A lane's value goes to that lane of every warp that runs, in every CTA; a thread's to
        // that thread of every CTA (the registers each CTA starts with).
        const auto set_thread = [&](int th, std::uint64_t x) { m.initial_cta().regs.set(th, idx, x); };
        const auto set = [&](int lane, std::uint64_t x) {
          for (int warp = 0; warp < m.warps(); ++warp) set_thread(warp * 32 + lane, x);
        };
        if (v.IsScalar()) {
          for (int lane = 0; lane < 32; ++lane) set(lane, value_of(f, v, w, t, lane, work));
        } else if (v.IsSequence() && v.size() > 0 && v[0].IsMap()) {
          for (const auto& part : v) {
            f.check_keys(part, {"lanes", "value"});
            if (!part["lanes"] || !part["value"]) f.fail(part, "expected {lanes: ..., value: ...}");
            const std::uint32_t lanes = parse_lanes(f, part["lanes"]);
            for (int lane = 0; lane < 32; ++lane)
              if ((lanes >> lane) & 1U) set(lane, value_of(f, part["value"], w, t, lane, work));
          }
        } else if (v.IsSequence() && m.threads() > 32 && v.size() == static_cast<std::size_t>(m.threads())) {
          for (int th = 0; th < m.threads(); ++th)
            set_thread(th, value_of(f, v[static_cast<std::size_t>(th)], w, t, th % 32, work));
        } else if (v.IsSequence()) {
          if (v.size() != 32)
            f.fail(v, fmt::format("a list of values per lane needs 32 entries{}, found {}",
                                  m.threads() > 32 ? fmt::format(" (or {}, one per thread)", m.threads()) : "", v.size()));
          for (int lane = 0; lane < 32; ++lane) set(lane, value_of(f, v[static_cast<std::size_t>(lane)], w, t, lane, work));
        } else if (v.IsMap()) {
          f.check_keys(v, {"lanes", "value"});
          if (!v["lanes"] || !v["value"]) f.fail(v, "expected {lanes: ..., value: ...}");
          const std::uint32_t lanes = parse_lanes(f, v["lanes"]);
          for (int lane = 0; lane < 32; ++lane)
            if ((lanes >> lane) & 1U) set(lane, value_of(f, v["value"], w, t, lane, work));
        } else {
          f.fail(v, "expected a value, a list of 32 values, or {lanes: ..., value: ...}");
        }
      }
    }
    if (const YAML::Node n = r["shared"]) load_memory(f, n, m.initial_cta().shared, work);  // every CTA's
    if (const YAML::Node n = r["global"]) load_memory(f, n, m.global(), work);
    if (const YAML::Node n = r["const"]) load_memory(f, n, m.constant(), work);
    if (const YAML::Node ps = r["params"]) {
      const auto set_param = [&](const ptx::Variable& v, const YAML::Node& val) {
        std::vector<std::uint8_t> bytes;
        if (val.IsMap() && val["tensor_map"]) {
          f.check_keys(val, {"tensor_map"});
          bytes = tensor_map_bytes(f, val["tensor_map"]);
        } else if (val.IsMap()) {
          f.check_keys(val, {"bytes", "file", "type", "values", "ramp", "tensor_map"});
          bytes = block_bytes(f, val, work);
        } else {
          const int w = ptx::bits(v.type);
          if (v.size * 8 != static_cast<std::uint64_t>(w))
            f.fail(val, fmt::format("parameter {} is an array of {} bytes: give {{bytes: ...}} or {{type: ..., values: [...]}}",
                                    v.name, v.size));
          const std::uint64_t x = value_of(f, val, w, v.type, 0, work);
          for (int i = 0; i < w / 8; ++i) bytes.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
        }
        if (bytes.size() > v.size)
          f.fail(val, fmt::format("{} bytes for parameter {} of {} bytes", bytes.size(), v.name, v.size));
        m.param().write(v.address, bytes.data(), bytes.size());
      };
      if (ps.IsMap()) {
        for (const auto& kv : ps) {
          const ptx::Variable* v = p.find_param(kv.first.Scalar());
          if (!v) f.fail(kv.first, fmt::format("'{}' is not a parameter of {}", kv.first.Scalar(), p.entry.empty() ? "the snippet" : p.entry));
          set_param(*v, kv.second);
        }
      } else if (ps.IsSequence()) {
        if (ps.size() > p.params.size())
          f.fail(ps, fmt::format("{} values for {} parameters", ps.size(), p.params.size()));
        for (std::size_t i = 0; i < ps.size(); ++i) set_param(p.params[i], ps[i]);
      } else {
        f.fail(ps, "'params' is a map (name: value) or a list in parameter order");
      }
    }
  });
}

}  // namespace ptxmma
