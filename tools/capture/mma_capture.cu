// mma_capture: run warp-level `mma.sync.aligned` instructions on a real GPU and write a golden set
// in the `ptxmma-golden-regs-v1` format (see docs/golden-format.md).
//
// No fragment layout and no arithmetic model is assumed. For each variant a PTX module is written at
// run time: every lane of a warp loads its raw A, B and C words from global memory, executes the one
// instruction, and stores its D words. The module is JIT-compiled by the driver for the device
// (cuModuleLoadDataEx); one launch runs every case of a variant, one warp per case.
//
// --sparse does the same for `mma.sp` and `mma.sp::ordered_metadata` (docs/hardware/mma-sp-format.md):
// one entry per (variant, selector); each lane also loads a metadata word E whose every nibble is
// defined, so that which lanes the hardware reads shows in D instead of being assumed.
//
//   mode 1  mma_capture --out DIR [--cases N] [--seed S] [--families f1,f2,...] [--sparse] (--all | VARIANT...)
//   mode 2  mma_capture --rerun IN_DIR --out DIR        (same A/B/C words, and E for sparse entries, this
//           GPU's D words; also a wgmma set: the same shared images, descriptors, A and C, this GPU's D)
//
// Dependencies: the CUDA driver API (-lcuda) and the C++17 standard library; nothing else. The host
// code needs no GPU to build; the kernels come from PTX text at run time.

#include <cuda.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <sys/types.h>

namespace {

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

struct Fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& msg) { throw Fatal(msg); }

std::string cu_error_text(CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  std::ostringstream o;
  o << (name ? name : "CUDA_ERROR_?") << " (" << static_cast<int>(r) << "): " << (text ? text : "unknown error");
  if (r == CUDA_ERROR_STUB_LIBRARY)
    o << " -- this process loaded the toolkit's stub libcuda.so, not a real driver";
  return o.str();
}

// Every driver call goes through CU(): on failure the message names the call, the place in this
// file, and what the program was doing (g_context).
std::string g_context = "startup";

void cu_check(CUresult r, const char* call, int line) {
  if (r == CUDA_SUCCESS) return;
  std::ostringstream o;
  o << "CUDA driver call failed while " << g_context << ":\n  " << call << "\n  -> " << cu_error_text(r)
    << "\n  (mma_capture.cu:" << line << ")";
  fail(o.str());
}
#define CU(call) cu_check((call), #call, __LINE__)

// ---------------------------------------------------------------------------------------------
// Small helpers: files, strings, hashing, random numbers
// ---------------------------------------------------------------------------------------------

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}

std::string join_path(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::string base_name(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const auto k = p.find_last_of('/');
  return k == std::string::npos ? p : p.substr(k + 1);
}

bool path_exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

void make_dirs(const std::string& path) {
  std::string cur;
  for (const auto& part : split(path, '/')) {
    cur += part;
    if (!cur.empty() && cur != "." && cur != "..") {
      if (::mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST)
        fail("cannot create directory '" + cur + "': " + std::strerror(errno));
      struct stat st;
      if (::stat(cur.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) fail("'" + cur + "' exists and is not a directory");
    }
    cur += "/";
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open '" + path + "'");
  std::ostringstream o;
  o << in.rdbuf();
  return o.str();
}

void write_bytes(const std::string& path, const void* data, std::size_t n) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail("cannot create '" + path + "'");
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  out.close();
  if (!out) fail("write error on '" + path + "'");
}

// Words are little-endian on disk whatever the host is.
std::vector<std::uint32_t> read_words(const std::string& path, std::size_t expected_words) {
  const std::string bytes = read_text(path);
  if (bytes.size() != expected_words * 4) {
    std::ostringstream o;
    o << path << ": " << bytes.size() << " bytes, the manifest needs " << expected_words * 4
      << (bytes.size() < expected_words * 4 ? " (truncated?)" : "");
    fail(o.str());
  }
  std::vector<std::uint32_t> w(expected_words);
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  for (std::size_t i = 0; i < expected_words; ++i)
    w[i] = b[4 * i] | (b[4 * i + 1] << 8) | (b[4 * i + 2] << 16) | (static_cast<std::uint32_t>(b[4 * i + 3]) << 24);
  return w;
}

void write_words(const std::string& path, const std::vector<std::uint32_t>& w) {
  std::vector<unsigned char> b(w.size() * 4);
  for (std::size_t i = 0; i < w.size(); ++i) {
    b[4 * i] = static_cast<unsigned char>(w[i]);
    b[4 * i + 1] = static_cast<unsigned char>(w[i] >> 8);
    b[4 * i + 2] = static_cast<unsigned char>(w[i] >> 16);
    b[4 * i + 3] = static_cast<unsigned char>(w[i] >> 24);
  }
  write_bytes(path, b.data(), b.size());
}

std::uint64_t fnv1a64(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// splitmix64; uniform integers by multiply-high (no std:: distributions: their output is not
// specified, and a golden set must come out the same from every standard library).
struct Rng {
  std::uint64_t s;
  std::uint64_t next() { return mix64(s += 0x9e3779b97f4a7c15ull); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(next() >> 32); }
  std::uint64_t below(std::uint64_t n) {  // [0, n)
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  std::int64_t range(std::int64_t lo, std::int64_t hi) {  // [lo, hi]
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }
  bool coin() { return (next() >> 63) != 0; }
};

// ---------------------------------------------------------------------------------------------
// Minimal JSON (ordered objects, numbers kept as their text) for reading and copying manifests
// ---------------------------------------------------------------------------------------------

struct JVal {
  enum Kind { Null, Bool, Num, Str, Arr, Obj } kind = Null;
  std::string text;                                   // Bool: "true"/"false"; Num: as written; Str: value
  std::vector<JVal> arr;
  std::vector<std::pair<std::string, JVal>> obj;

  static JVal str(const std::string& s) {
    JVal v;
    v.kind = Str;
    v.text = s;
    return v;
  }
  static JVal num(long long n) {
    JVal v;
    v.kind = Num;
    v.text = std::to_string(n);
    return v;
  }
  static JVal num_text(const std::string& t) {
    JVal v;
    v.kind = Num;
    v.text = t;
    return v;
  }
  static JVal boolean(bool b) {
    JVal v;
    v.kind = Bool;
    v.text = b ? "true" : "false";
    return v;
  }
  static JVal object() {
    JVal v;
    v.kind = Obj;
    return v;
  }
  static JVal array() {
    JVal v;
    v.kind = Arr;
    return v;
  }
  const JVal* find(const std::string& k) const {
    for (const auto& kv : obj)
      if (kv.first == k) return &kv.second;
    return nullptr;
  }
  void set(const std::string& k, JVal v) {  // replace in place, or append
    for (auto& kv : obj)
      if (kv.first == k) {
        kv.second = std::move(v);
        return;
      }
    obj.emplace_back(k, std::move(v));
  }
  void set_before(const std::string& k, JVal v, const std::string& before) {  // keep `before` (e.g. variants) last
    for (auto& kv : obj)
      if (kv.first == k) {
        kv.second = std::move(v);
        return;
      }
    for (std::size_t i = 0; i < obj.size(); ++i)
      if (obj[i].first == before) {
        obj.insert(obj.begin() + static_cast<std::ptrdiff_t>(i), {k, std::move(v)});
        return;
      }
    obj.emplace_back(k, std::move(v));
  }
};

class JParser {
 public:
  JParser(const std::string& text, std::string where) : t_(text), where_(std::move(where)) {}
  JVal parse() {
    JVal v = value();
    ws();
    if (p_ != t_.size()) error("trailing characters");
    return v;
  }

 private:
  const std::string& t_;
  std::string where_;
  std::size_t p_ = 0;

  [[noreturn]] void error(const std::string& what) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < p_ && i < t_.size(); ++i) line += t_[i] == '\n';
    fail(where_ + ": invalid JSON at line " + std::to_string(line) + ": " + what);
  }
  void ws() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\r' || t_[p_] == '\t')) ++p_;
  }
  bool lit(const char* s) {
    const std::size_t n = std::strlen(s);
    if (t_.compare(p_, n, s) == 0) {
      p_ += n;
      return true;
    }
    return false;
  }
  JVal value() {
    ws();
    if (p_ >= t_.size()) error("unexpected end");
    const char ch = t_[p_];
    if (ch == '{') return object();
    if (ch == '[') return array();
    if (ch == '"') return JVal::str(string());
    if (lit("true")) return JVal::boolean(true);
    if (lit("false")) return JVal::boolean(false);
    if (lit("null")) return JVal();
    if (ch == '-' || (ch >= '0' && ch <= '9')) return number();
    error(std::string("unexpected character '") + ch + "'");
  }
  JVal number() {
    const std::size_t s = p_;
    if (t_[p_] == '-') ++p_;
    while (p_ < t_.size() && std::strchr("0123456789.eE+-", t_[p_])) ++p_;
    const std::string txt = t_.substr(s, p_ - s);
    char* end = nullptr;
    std::strtod(txt.c_str(), &end);
    if (txt.empty() || *end != '\0') error("bad number '" + txt + "'");
    return JVal::num_text(txt);
  }
  static void utf8(std::string& o, unsigned cp) {
    if (cp < 0x80) {
      o += static_cast<char>(cp);
    } else if (cp < 0x800) {
      o += static_cast<char>(0xc0 | (cp >> 6));
      o += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      o += static_cast<char>(0xe0 | (cp >> 12));
      o += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      o += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      o += static_cast<char>(0xf0 | (cp >> 18));
      o += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      o += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      o += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  unsigned hex4() {
    if (p_ + 4 > t_.size()) error("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = t_[p_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
      else error("bad \\u escape");
    }
    return v;
  }
  std::string string() {
    ++p_;  // opening quote
    std::string o;
    while (true) {
      if (p_ >= t_.size()) error("unterminated string");
      const char c = t_[p_++];
      if (c == '"') return o;
      if (c != '\\') {
        o += c;
        continue;
      }
      if (p_ >= t_.size()) error("unterminated escape");
      const char e = t_[p_++];
      switch (e) {
        case '"': o += '"'; break;
        case '\\': o += '\\'; break;
        case '/': o += '/'; break;
        case 'b': o += '\b'; break;
        case 'f': o += '\f'; break;
        case 'n': o += '\n'; break;
        case 'r': o += '\r'; break;
        case 't': o += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xd800 && cp < 0xdc00 && t_.compare(p_, 2, "\\u") == 0) {
            p_ += 2;
            const unsigned lo = hex4();
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          }
          utf8(o, cp);
          break;
        }
        default: error(std::string("bad escape \\") + e);
      }
    }
  }
  JVal array() {
    ++p_;
    JVal v = JVal::array();
    ws();
    if (p_ < t_.size() && t_[p_] == ']') {
      ++p_;
      return v;
    }
    while (true) {
      v.arr.push_back(value());
      ws();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        continue;
      }
      if (p_ < t_.size() && t_[p_] == ']') {
        ++p_;
        return v;
      }
      error("expected ',' or ']'");
    }
  }
  JVal object() {
    ++p_;
    JVal v = JVal::object();
    ws();
    if (p_ < t_.size() && t_[p_] == '}') {
      ++p_;
      return v;
    }
    while (true) {
      ws();
      if (p_ >= t_.size() || t_[p_] != '"') error("expected a key");
      std::string k = string();
      ws();
      if (p_ >= t_.size() || t_[p_] != ':') error("expected ':'");
      ++p_;
      v.obj.emplace_back(std::move(k), value());
      ws();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        continue;
      }
      if (p_ < t_.size() && t_[p_] == '}') {
        ++p_;
        return v;
      }
      error("expected ',' or '}'");
    }
  }
};

std::string json_quote(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o + "\"";
}

std::string json_compact(const JVal& v) {  // {"k": v, ...} / [a, b] -- the style of the golden manifests
  switch (v.kind) {
    case JVal::Null: return "null";
    case JVal::Bool:
    case JVal::Num: return v.text;
    case JVal::Str: return json_quote(v.text);
    case JVal::Arr: {
      std::string o = "[";
      for (std::size_t i = 0; i < v.arr.size(); ++i) o += (i ? ", " : "") + json_compact(v.arr[i]);
      return o + "]";
    }
    case JVal::Obj: {
      std::string o = "{";
      for (std::size_t i = 0; i < v.obj.size(); ++i)
        o += (i ? ", " : "") + json_quote(v.obj[i].first) + ": " + json_compact(v.obj[i].second);
      return o + "}";
    }
  }
  return "null";
}

// Top level: one key per line; an array of objects (the variants) one object per line.
std::string json_manifest(const JVal& m) {
  std::string o = "{\n";
  for (std::size_t i = 0; i < m.obj.size(); ++i) {
    const auto& [k, v] = m.obj[i];
    o += "  " + json_quote(k) + ": ";
    const bool list_of_objects =
        v.kind == JVal::Arr && !v.arr.empty() &&
        std::all_of(v.arr.begin(), v.arr.end(), [](const JVal& e) { return e.kind == JVal::Obj; });
    if (list_of_objects) {
      o += "[\n";
      for (std::size_t j = 0; j < v.arr.size(); ++j)
        o += "    " + json_compact(v.arr[j]) + (j + 1 < v.arr.size() ? ",\n" : "\n");
      o += "  ]";
    } else {
      o += json_compact(v);
    }
    o += i + 1 < m.obj.size() ? ",\n" : "\n";
  }
  return o + "}\n";
}

// ---------------------------------------------------------------------------------------------
// Element types
// ---------------------------------------------------------------------------------------------

enum class Ty { f16, bf16, tf32, f32, f64, e4m3, e5m2, s8, u8, s4, u4, b1, s32 };

struct TyInfo {
  Ty ty;
  const char* name;
  int bits;      // element width in the register (tf32: 32)
  bool is_float;
  int ebits, mbits;  // floating point: exponent and fraction bits
  bool ieee;         // floating point: max exponent encodes Inf/NaN (false: e4m3, only S.1111.111 is NaN)
  int shift;         // tf32: the 19 significant bits sit at [31:13]
};

const TyInfo kTypes[] = {
    {Ty::f16, "f16", 16, true, 5, 10, true, 0},   {Ty::bf16, "bf16", 16, true, 8, 7, true, 0},
    {Ty::tf32, "tf32", 32, true, 8, 10, true, 13}, {Ty::f32, "f32", 32, true, 8, 23, true, 0},
    {Ty::f64, "f64", 64, true, 11, 52, true, 0},  {Ty::e4m3, "e4m3", 8, true, 4, 3, false, 0},
    {Ty::e5m2, "e5m2", 8, true, 5, 2, true, 0},   {Ty::s8, "s8", 8, false, 0, 0, false, 0},
    {Ty::u8, "u8", 8, false, 0, 0, false, 0},     {Ty::s4, "s4", 4, false, 0, 0, false, 0},
    {Ty::u4, "u4", 4, false, 0, 0, false, 0},     {Ty::b1, "b1", 1, false, 0, 0, false, 0},
    {Ty::s32, "s32", 32, false, 0, 0, false, 0},
};

const TyInfo& info(Ty t) {
  for (const auto& i : kTypes)
    if (i.ty == t) return i;
  fail("internal: unknown type");
}

std::optional<Ty> parse_ty(const std::string& s) {
  for (const auto& i : kTypes)
    if (s == i.name) return i.ty;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Variant table: the dense mma.sync.aligned variants that sm_90 assembles (docs/mma-catalogue.md §1)
// ---------------------------------------------------------------------------------------------

struct Words {
  int a = 0, b = 0, c = 0, d = 0;
  int e = 0;  // sparse: the metadata register, between C and D in a record
  int total() const { return a + b + c + e + d; }
  bool operator==(const Words& o) const { return a == o.a && b == o.b && c == o.c && d == o.d && e == o.e; }
};

struct Variant {
  std::string ptx;     // the instruction exactly as executed and recorded
  int m = 0, n = 0, k = 0;
  Ty ta{}, tb{}, tc{}, td{};
  Words w;
  int min_sm = 0;      // lowest compute capability (major*10+minor) the ISA allows
  int min_ptx = 0;     // lowest PTX ISA version, x10 (8.7 -> 87)
  bool known = true;   // false: taken from a manifest, not in the table
  int sel = -1;        // sparse (mma.sp, mma.sp::ordered_metadata): the sparsity selector
  bool ordered = false;
};

std::string file_name(const Variant& v) {
  if (v.sel >= 0) {  // sp.<shape...>.selS.bin, sp_ordered.<shape...>.selS.bin
    const std::string rest = v.ptx.substr(v.ptx.find(".aligned.") + 9);
    return (v.ordered ? "sp_ordered." : "sp.") + rest + ".sel" + std::to_string(v.sel) + ".bin";
  }
  const std::string prefix = "mma.sync.aligned.";
  return (starts_with(v.ptx, prefix) ? v.ptx.substr(prefix.size()) : v.ptx) + ".bin";
}

// Words per lane, from shape and types (docs/mma-catalogue.md §1): M*K/32, K*N/32, M*N/32 elements per lane,
// except m8n8k4 .f16, which is four independent quad-pair products (4 A, 4 B, 8 C/D elements).
Words words_for(int m, int n, int k, Ty ta, Ty tb, Ty tc, Ty td) {
  auto w = [](int elems, Ty t) { return elems * info(t).bits / 32; };
  if (m == 8 && n == 8 && k == 4 && ta == Ty::f16) return {w(4, ta), w(4, tb), w(8, tc), w(8, td)};
  return {w(m * k / 32, ta), w(k * n / 32, tb), w(m * n / 32, tc), w(m * n / 32, td)};
}

Variant make_variant(const std::string& ptx, int m, int n, int k, Ty ta, Ty tb, Ty tc, Ty td, int min_sm,
                     int min_ptx) {
  Variant v;
  v.ptx = ptx;
  v.m = m;
  v.n = n;
  v.k = k;
  v.ta = ta;
  v.tb = tb;
  v.tc = tc;
  v.td = td;
  v.w = words_for(m, n, k, ta, tb, tc, td);
  v.min_sm = min_sm;
  v.min_ptx = min_ptx;
  return v;
}

std::string shape_name(int m, int n, int k) {
  return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
}

// In the order of tests/data/mma-sm90-h200, plus .rz/.rm/.rp for the m16n8 f64 shapes
// (legal on sm_90, not in that set).
const std::vector<Variant>& variant_table() {
  static const std::vector<Variant> table = [] {
    std::vector<Variant> t;
    const std::string P = "mma.sync.aligned.";
    const char* rl[] = {"row", "col"};
    // 1. m8n8k4 f16, all layouts; (D, C) in (f16, f16), (f32, f16), (f32, f32)
    for (const char* al : rl)
      for (const char* bl : rl)
        for (auto [d, c] : {std::pair{Ty::f16, Ty::f16}, std::pair{Ty::f32, Ty::f16}, std::pair{Ty::f32, Ty::f32}})
          t.push_back(make_variant(P + "m8n8k4." + al + "." + bl + "." + info(d).name + ".f16.f16." + info(c).name, 8,
                                   8, 4, Ty::f16, Ty::f16, c, d, 70, 64));
    // 2. f64: m8n8k4 (sm_80, PTX 7.0), m16n8k4/k8/k16 (sm_90, PTX 7.8); default rounding then rz, rm, rp
    for (auto [mm, kk] : {std::pair{8, 4}, std::pair{16, 4}, std::pair{16, 8}, std::pair{16, 16}}) {
      for (const char* rnd : {"", "rz.", "rm.", "rp."})
        t.push_back(make_variant(P + shape_name(mm, 8, kk) + ".row.col." + rnd + "f64.f64.f64.f64", mm, 8, kk,
                                 Ty::f64, Ty::f64, Ty::f64, Ty::f64, mm == 8 ? 80 : 90, mm == 8 ? 70 : 78));
    }
    // 3. m16n8k8 f16 (sm_75, PTX 6.5), bf16 (sm_80, 7.0); m16n8k16 f16 / bf16 (sm_80, 7.0)
    t.push_back(make_variant(P + "m16n8k8.row.col.f16.f16.f16.f16", 16, 8, 8, Ty::f16, Ty::f16, Ty::f16, Ty::f16, 75, 65));
    t.push_back(make_variant(P + "m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, Ty::f16, Ty::f16, Ty::f32, Ty::f32, 75, 65));
    t.push_back(make_variant(P + "m16n8k8.row.col.f32.bf16.bf16.f32", 16, 8, 8, Ty::bf16, Ty::bf16, Ty::f32, Ty::f32, 80, 70));
    t.push_back(make_variant(P + "m16n8k16.row.col.f16.f16.f16.f16", 16, 8, 16, Ty::f16, Ty::f16, Ty::f16, Ty::f16, 80, 70));
    t.push_back(make_variant(P + "m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, Ty::f16, Ty::f16, Ty::f32, Ty::f32, 80, 70));
    t.push_back(make_variant(P + "m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, Ty::bf16, Ty::bf16, Ty::f32, Ty::f32, 80, 70));
    // 4. tf32
    t.push_back(make_variant(P + "m16n8k4.row.col.f32.tf32.tf32.f32", 16, 8, 4, Ty::tf32, Ty::tf32, Ty::f32, Ty::f32, 80, 70));
    t.push_back(make_variant(P + "m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, Ty::tf32, Ty::tf32, Ty::f32, Ty::f32, 80, 70));
    // 5. FP8 (sm_89): m16n8k16 (PTX 8.7), m16n8k32 (f32: 8.4, f16: 8.7)
    for (int kk : {16, 32})
      for (Ty a : {Ty::e4m3, Ty::e5m2})
        for (Ty b : {Ty::e4m3, Ty::e5m2})
          for (Ty d : {Ty::f32, Ty::f16})
            t.push_back(make_variant(P + shape_name(16, 8, kk) + ".row.col." + info(d).name + "." + info(a).name + "." +
                                         info(b).name + "." + info(d).name,
                                     16, 8, kk, a, b, d, d, 89, (kk == 32 && d == Ty::f32) ? 84 : 87));
    // 6. 8-bit and 4-bit integers, each with and without .satfinite
    struct IntShape {
      int m, k;
      bool four;
      int sm, ptx;
    };
    for (IntShape s : {IntShape{8, 16, false, 75, 65}, IntShape{16, 16, false, 80, 70}, IntShape{16, 32, false, 80, 70},
                       IntShape{8, 32, true, 75, 65}, IntShape{16, 32, true, 80, 70}, IntShape{16, 64, true, 80, 70}})
      for (Ty a : s.four ? std::vector<Ty>{Ty::s4, Ty::u4} : std::vector<Ty>{Ty::s8, Ty::u8})
        for (Ty b : s.four ? std::vector<Ty>{Ty::s4, Ty::u4} : std::vector<Ty>{Ty::s8, Ty::u8})
          for (const char* sat : {"", "satfinite."})
            t.push_back(make_variant(P + shape_name(s.m, 8, s.k) + ".row.col." + sat + "s32." + info(a).name + "." +
                                         info(b).name + ".s32",
                                     s.m, 8, s.k, a, b, Ty::s32, Ty::s32, s.sm, s.ptx));
    // 7. b1: .xor.popc then .and.popc
    for (auto [mm, kk] : {std::pair{8, 128}, std::pair{16, 128}, std::pair{16, 256}})
      for (const char* op : {"xor", "and"}) {
        const bool x = std::string(op) == "xor";
        t.push_back(make_variant(P + shape_name(mm, 8, kk) + ".row.col.s32.b1.b1.s32." + op + ".popc", mm, 8, kk, Ty::b1,
                                 Ty::b1, Ty::s32, Ty::s32, (x && mm == 8) ? 75 : 80, x ? 70 : 71));
      }
    return t;
  }();
  return table;
}

// The sparse variants sm_90 runs (docs/mma-catalogue.md §3.1), each spelling and legal selector one entry; A is
// the compressed M x K/2 operand, E one metadata word per lane.
const std::vector<Variant>& sparse_table() {
  static const std::vector<Variant> table = [] {
    std::vector<Variant> t;
    struct Row {
      int k;
      std::vector<Ty> ab;
      std::vector<Ty> dc;  // D = C
      bool sat;
      int selectors, min_sm, min_ptx;
    };
    const std::vector<Row> rows = {
        {16, {Ty::f16}, {Ty::f16, Ty::f32}, false, 4, 80, 71},  {32, {Ty::f16}, {Ty::f16, Ty::f32}, false, 2, 80, 71},
        {16, {Ty::bf16}, {Ty::f32}, false, 4, 80, 71},          {32, {Ty::bf16}, {Ty::f32}, false, 2, 80, 71},
        {8, {Ty::tf32}, {Ty::f32}, false, 4, 80, 71},           {16, {Ty::tf32}, {Ty::f32}, false, 2, 80, 71},
        {32, {Ty::s8, Ty::u8}, {Ty::s32}, true, 2, 80, 71},     {64, {Ty::s8, Ty::u8}, {Ty::s32}, true, 1, 80, 71},
        {64, {Ty::s4, Ty::u4}, {Ty::s32}, true, 2, 80, 71},     {128, {Ty::s4, Ty::u4}, {Ty::s32}, true, 1, 80, 71},
        {64, {Ty::e4m3, Ty::e5m2}, {Ty::f32}, false, 1, 89, 84},
    };
    for (bool ordered : {false, true})
      for (const Row& r : rows)
        for (Ty a : r.ab)
          for (Ty b : r.ab) {
            if (r.ab.size() == 1 && a != b) continue;
            for (Ty d : r.dc)
              for (const char* sat : r.sat ? std::vector<const char*>{"", "satfinite."} : std::vector<const char*>{""})
                for (int sel = 0; sel < r.selectors; ++sel) {
                  Variant v = make_variant(std::string(ordered ? "mma.sp::ordered_metadata" : "mma.sp") +
                                               ".sync.aligned." + shape_name(16, 8, r.k) + ".row.col." + sat +
                                               info(d).name + "." + info(a).name + "." + info(b).name + "." + info(d).name,
                                           16, 8, r.k, a, b, d, d, r.min_sm, ordered ? 85 : r.min_ptx);
                  v.w.a = 16 * (r.k / 2) / 32 * info(a).bits / 32;
                  v.w.e = 1;
                  v.sel = sel;
                  v.ordered = ordered;
                  t.push_back(v);
                }
          }
    return t;
  }();
  return table;
}

// The wmma.mma variants (PTX ISA, wmma.mma), fragment sizes per lane as the ISA gives them: f16's
// A and B fragments hold 16 elements where 8 would do (docs/hardware/wmma-sm90.md: the copies), the
// other types' hold each element once.
const std::vector<Variant>& wmma_table() {
  static const std::vector<Variant> table = [] {
    std::vector<Variant> t;
    const std::string P = "wmma.mma.sync.aligned.";
    const char* rl[] = {"row", "col"};
    auto add = [&](const std::string& ptx, int m, int n, int k, Ty ab, Ty c, Ty d, Words w, int min_sm, int min_ptx) {
      Variant v = make_variant(ptx, m, n, k, ab, ab, c, d, min_sm, min_ptx);
      v.w = w;
      t.push_back(v);
    };
    struct Shape {
      int m, n, k;
    };
    for (const char* al : rl)
      for (const char* bl : rl) {
        const std::string lay = std::string(al) + "." + bl + ".";
        for (Shape s : {Shape{16, 16, 16}, Shape{32, 8, 16}, Shape{8, 32, 16}}) {
          const std::string sh = shape_name(s.m, s.n, s.k) + ".";
          for (Ty d : {Ty::f16, Ty::f32})
            for (Ty c : {Ty::f16, Ty::f32})
              add(P + lay + sh + info(d).name + "." + info(c).name, s.m, s.n, s.k, Ty::f16, c, d,
                  {8, 8, c == Ty::f16 ? 4 : 8, d == Ty::f16 ? 4 : 8}, 70, 60);
          add(P + lay + sh + "f32.bf16.bf16.f32", s.m, s.n, s.k, Ty::bf16, Ty::f32, Ty::f32,
              {s.m * s.k / 64, s.k * s.n / 64, 8, 8}, 80, 70);
          for (Ty a : {Ty::s8, Ty::u8})
            for (const char* sat : {"", ".satfinite"})
              add(P + lay + sh + "s32." + info(a).name + "." + info(a).name + ".s32" + sat, s.m, s.n, s.k, a, Ty::s32,
                  Ty::s32, {s.m * s.k / 128, s.k * s.n / 128, 8, 8}, 72, 63);
        }
        add(P + lay + "m16n16k8.f32.tf32.tf32.f32", 16, 16, 8, Ty::tf32, Ty::f32, Ty::f32, {4, 4, 8, 8}, 80, 70);
        for (const char* rnd : {"", ".rn", ".rz", ".rm", ".rp"})
          add(P + lay + "m8n8k4" + rnd + ".f64.f64.f64.f64", 8, 8, 4, Ty::f64, Ty::f64, Ty::f64, {2, 2, 4, 4}, 80, 70);
      }
    for (Ty a : {Ty::s4, Ty::u4})
      for (const char* sat : {"", ".satfinite"})
        add(P + "row.col.m8n8k32.s32." + info(a).name + "." + info(a).name + ".s32" + sat, 8, 8, 32, a, Ty::s32, Ty::s32,
            {1, 1, 2, 2}, 75, 63);
    for (const char* op : {"xor", "and"})
      add(std::string("wmma.mma.") + op + ".popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", 8, 8, 128, Ty::b1,
          Ty::s32, Ty::s32, {1, 1, 2, 2}, std::string(op) == "xor" ? 75 : 80, std::string(op) == "xor" ? 63 : 71);
    return t;
  }();
  return table;
}

// Canonical spelling for table look-up: the f64 rounding token and .satfinite go right after the
// layouts (ptxas accepts them also as the last token); an explicit .rn is the default.
std::string canonical(const std::string& ptx) {
  const std::string P = "mma.sync.aligned.";
  if (!starts_with(ptx, P)) return ptx;
  auto tok = split(ptx.substr(P.size()), '.');
  std::string rnd, sat;
  std::vector<std::string> rest;
  for (const auto& x : tok) {
    if (x == "rn") continue;
    if (x == "rz" || x == "rm" || x == "rp") rnd = x;
    else if (x == "satfinite") sat = x;
    else rest.push_back(x);
  }
  if (rest.size() < 3) return ptx;
  std::string o = P + rest[0] + "." + rest[1] + "." + rest[2];
  if (!rnd.empty()) o += "." + rnd;
  if (!sat.empty()) o += "." + sat;
  for (std::size_t i = 3; i < rest.size(); ++i) o += "." + rest[i];
  return o;
}

std::optional<Variant> lookup(const std::string& ptx, int sel = -1) {
  if (starts_with(ptx, "wmma.")) {
    for (const auto& v : wmma_table())
      if (v.ptx == ptx) return v;
    return std::nullopt;
  }
  if (sel >= 0) {  // sparse: the spelling as the table has it
    for (const auto& v : sparse_table())
      if (v.ptx == ptx && v.sel == sel) return v;
    return std::nullopt;
  }
  const std::string c = canonical(ptx);
  for (const auto& v : variant_table())
    if (v.ptx == c) {
      Variant r = v;
      r.ptx = ptx;  // keep the user's spelling: that is what runs and what the manifest records
      return r;
    }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Input families: every element of A, B and C is drawn by its type alone (never by layout)
// ---------------------------------------------------------------------------------------------

const char* const kFamilies[] = {"bits",     "narrow",   "wide",  "special", "cancel", "intlike", "align",
                                 "bigsmall", "subnormal", "overflow", "cbig",  "ctiny",  "tf32junk"};
const std::vector<std::string> kDefaultFamilies = {"bits", "narrow", "wide", "special", "cancel", "intlike"};

bool known_family(const std::string& f) {
  for (const char* k : kFamilies)
    if (f == k) return true;
  return false;
}

enum class Role { AB, C };

struct Float {
  const TyInfo& t;
  int bias() const { return (1 << (t.ebits - 1)) - 1; }
  int emin() const { return 1 - bias(); }
  int emax() const { return (t.ieee ? (1 << t.ebits) - 2 : (1 << t.ebits) - 1) - bias(); }
  std::uint64_t mant_mask() const { return (1ull << t.mbits) - 1; }
  std::uint64_t expf_max() const { return (1ull << t.ebits) - 1; }
  std::uint64_t pack(bool sign, std::uint64_t expf, std::uint64_t mant) const {
    return ((static_cast<std::uint64_t>(sign) << (t.ebits + t.mbits)) | (expf << t.mbits) | (mant & mant_mask()))
           << t.shift;
  }
  // A finite value 1.mant * 2^e: e above the range is clamped to the largest binade, below the
  // normal range the value becomes subnormal (fraction bits shifted out, truncated) or zero.
  std::uint64_t finite(bool sign, int e, std::uint64_t mant) const {
    mant &= mant_mask();
    if (e > emax()) e = emax();
    if (e >= emin()) {
      const auto expf = static_cast<std::uint64_t>(e + bias());
      if (!t.ieee && expf == expf_max() && mant == mant_mask()) mant -= 1;  // e4m3: S.1111.111 is NaN
      return pack(sign, expf, mant);
    }
    const int sh = emin() - e;
    const std::uint64_t full = (1ull << t.mbits) | mant;
    return pack(sign, 0, sh > t.mbits ? 0 : (full >> sh));
  }
  std::uint64_t random_finite(Rng& r, int e) const { return finite(r.coin(), e, r.next()); }
  std::uint64_t zero(bool sign) const { return pack(sign, 0, 0); }
  std::uint64_t min_sub(bool sign) const { return pack(sign, 0, 1); }
  std::uint64_t random_sub(Rng& r) const {
    std::uint64_t m = r.next() & mant_mask();
    if (m == 0) m = 1;
    return pack(r.coin(), 0, m);
  }
  std::uint64_t min_normal(bool sign) const { return pack(sign, 1, 0); }
  std::uint64_t max_normal(bool sign) const {
    return t.ieee ? pack(sign, expf_max() - 1, mant_mask()) : pack(sign, expf_max(), mant_mask() - 1);
  }
  std::uint64_t nan(Rng& r) const {
    if (!t.ieee) return pack(r.coin(), expf_max(), mant_mask());
    std::uint64_t m = r.next() & mant_mask();
    if (m == 0) m = 1;
    return pack(r.coin(), expf_max(), m);  // quiet or signalling, any payload
  }
  std::uint64_t inf_or_nan(Rng& r) const {
    if (!t.ieee || r.below(4) == 0) return nan(r);
    return pack(r.coin(), expf_max(), 0);
  }
  std::uint64_t integer(int v) const {  // exact small integer |v| <= 7 (every type here has >= 2 fraction bits)
    if (v == 0) return zero(false);
    const bool s = v < 0;
    const unsigned a = static_cast<unsigned>(s ? -v : v);
    int e = 0;
    while ((a >> (e + 1)) != 0) ++e;
    const std::uint64_t mant = (static_cast<std::uint64_t>(a) - (1u << e)) << (t.mbits - e);
    return pack(s, static_cast<std::uint64_t>(e + bias()), mant);
  }
  std::uint64_t randbits(Rng& r) const {
    if (t.bits == 64) return r.next();
    std::uint64_t x = r.next() & ((1ull << t.bits) - 1);
    if (t.shift) x &= ~((1ull << t.shift) - 1);  // tf32: low 13 bits zero
    return x;
  }
};

int log2_ceil(int k) {
  int e = 0;
  while ((1 << e) < k) ++e;
  return e;
}

std::uint64_t gen_float(Rng& r, const std::string& fam, const TyInfo& t, Role role, int K) {
  const Float f{t};
  const bool C = role == Role::C;
  auto narrow = [&] {
    // A, B: exponent within +-3 of 1.0; C: the size of a K-term dot product of such values.
    const int shift = C ? (log2_ceil(K) + 1) / 2 : 0;
    return f.random_finite(r, static_cast<int>(r.range(-3, 3)) + shift);
  };
  if (fam == "bits") return f.randbits(r);
  if (fam == "narrow") return narrow();
  if (fam == "wide") return f.random_finite(r, static_cast<int>(r.range(f.emin(), f.emax())));
  if (fam == "special") {
    switch (r.below(12)) {
      case 0:
      case 1: return f.zero(r.coin());
      case 2: return f.min_sub(r.coin());
      case 3: return f.random_sub(r);
      case 4:
      case 5: return f.inf_or_nan(r);
      case 6: return f.max_normal(r.coin());
      case 7: return f.min_normal(r.coin());
      default: return narrow();
    }
  }
  if (fam == "cancel") {  // +-1.0 or +-1.5 times 2^{-1,0,1}
    const std::uint64_t mant = r.coin() ? (1ull << (t.mbits - 1)) : 0;
    return f.finite(r.coin(), static_cast<int>(r.range(-1, 1)), mant);
  }
  if (fam == "intlike") return f.integer(static_cast<int>(r.range(-7, 7)));
  if (fam == "align") {  // up to +-24 binades; narrow formats (FP8) over their whole range, no zeros
    const int lo = std::max(-24, f.emin() - t.mbits), hi = std::min(24, f.emax());
    return f.random_finite(r, static_cast<int>(r.range(lo, hi)));
  }
  if (fam == "bigsmall") {  // one element in eight large, the rest 2^-12 smaller (FP8: at most down to min normal)
    const int e = static_cast<int>(r.range(-1, 1));
    return f.random_finite(r, r.below(8) == 0 ? e : std::max(e - 12, f.emin()));
  }
  if (fam == "subnormal") {
    if (r.coin()) return f.random_sub(r);
    return f.random_finite(r, f.emin() + static_cast<int>(r.range(0, 3)));
  }
  if (fam == "overflow") return f.random_finite(r, f.emax() - static_cast<int>(r.range(0, 3)));
  if (fam == "cbig") {  // A, B narrow; C far above the products (clamped to the format's top)
    if (!C) return narrow();
    return f.random_finite(r, t.mbits + 1 + static_cast<int>(r.range(0, 11)));
  }
  if (fam == "ctiny") {  // A, B narrow; C far below the products (may be subnormal)
    if (!C) return narrow();
    return f.random_finite(r, -(t.mbits + 1) - static_cast<int>(r.range(0, 11)));
  }
  if (fam == "tf32junk") {  // narrow values; tf32 operands get random low 13 bits
    std::uint64_t x = narrow();
    if (t.ty == Ty::tf32) x |= r.next() & 0x1fffu;
    return x;
  }
  fail("internal: family '" + fam + "' has no floating-point rule");
}

std::uint64_t gen_int(Rng& r, const std::string& fam, const TyInfo& t, Role role) {
  const bool is_signed = t.ty == Ty::s8 || t.ty == Ty::s4 || t.ty == Ty::s32;
  const std::int64_t lo = is_signed ? -(std::int64_t{1} << (t.bits - 1)) : 0;
  const std::int64_t hi = is_signed ? (std::int64_t{1} << (t.bits - 1)) - 1 : (std::int64_t{1} << t.bits) - 1;
  const std::uint64_t mask = (1ull << t.bits) - 1;
  auto val = [&](std::int64_t v) { return static_cast<std::uint64_t>(std::clamp(v, lo, hi)) & mask; };
  auto small = [&](int a) { return val(r.range(is_signed ? -a : 0, a)); };
  const bool C = role == Role::C;
  if (fam == "narrow") return small(4);
  if (fam == "cancel") return small(2);
  if (fam == "intlike") return small(7);
  if (fam == "special") {
    const std::int64_t pick[] = {lo, hi, 0, 1, is_signed ? -1 : hi - 1};
    return val(pick[r.below(5)]);
  }
  if (fam == "overflow") return val(r.coin() ? lo + static_cast<std::int64_t>(r.below(4)) : hi - static_cast<std::int64_t>(r.below(4)));
  if (C && fam == "cbig") return val(hi - static_cast<std::int64_t>(r.below(256)));   // near INT32_MAX
  if (C && fam == "ctiny") return val(lo + static_cast<std::int64_t>(r.below(256)));  // near INT32_MIN
  return r.next() & mask;  // bits, wide, align, bigsmall, subnormal, tf32junk; A/B of cbig, ctiny
}

std::uint32_t gen_b1_word(Rng& r, const std::string& fam) {
  if (fam == "special" || fam == "overflow") return r.coin() ? 0xffffffffu : 0u;  // all ones or all zeros
  if (fam == "narrow" || fam == "cancel" || fam == "intlike") return r.u32() & r.u32();  // sparse: 1/4 ones
  return r.u32();
}

// Fill `words` 32-bit words of one operand of one lane.
void gen_operand(Rng& r, const std::string& fam, Ty ty, Role role, int K, int words, std::uint32_t* out) {
  const TyInfo& t = info(ty);
  if (ty == Ty::b1) {
    for (int i = 0; i < words; ++i) out[i] = gen_b1_word(r, fam);
    return;
  }
  auto one = [&]() -> std::uint64_t { return t.is_float ? gen_float(r, fam, t, role, K) : gen_int(r, fam, t, role); };
  if (t.bits == 64) {
    for (int i = 0; i + 1 < words; i += 2) {
      const std::uint64_t x = one();
      out[i] = static_cast<std::uint32_t>(x);  // low word first
      out[i + 1] = static_cast<std::uint32_t>(x >> 32);
    }
    return;
  }
  const int per = 32 / t.bits;
  for (int i = 0; i < words; ++i) {
    std::uint32_t w = 0;
    for (int e = 0; e < per; ++e) w |= static_cast<std::uint32_t>(one() & ((1ull << t.bits) - 1)) << (e * t.bits);
    out[i] = w;
  }
}

// A metadata word whose every nibble is defined for the variant (docs/mma-catalogue.md §3.3): tf32 0b0100 or
// 0b1110; else two different 2-bit indices, in increasing order for sp::ordered_metadata and in
// either order for plain .sp. Every lane gets one: which lanes the hardware reads is not assumed.
std::uint32_t gen_metadata(Rng& r, const Variant& v) {
  std::uint32_t w = 0;
  for (int q = 0; q < 8; ++q) {
    std::uint32_t nib;
    if (v.ta == Ty::tf32) {
      nib = r.below(2) ? 0xEu : 0x4u;
    } else {
      std::uint32_t i0 = static_cast<std::uint32_t>(r.below(4)), i1 = static_cast<std::uint32_t>(r.below(3));
      i1 += i1 >= i0;
      if (v.ordered && i0 > i1) std::swap(i0, i1);
      nib = i0 | (i1 << 2);
    }
    w |= nib << (4 * q);
  }
  return w;
}

// The case record layout of the .bin file: case, lane, then A, B, C, (sparse: E,) D words.
std::vector<std::uint32_t> generate_cases(const Variant& v, int cases, std::uint64_t seed,
                                          const std::vector<std::string>& fams) {
  const int rec = v.w.total();
  std::vector<std::uint32_t> buf(static_cast<std::size_t>(cases) * 32 * rec, 0u);
  const std::uint64_t vh = mix64(seed ^ mix64(fnv1a64(canonical(v.ptx))));
  for (int c = 0; c < cases; ++c) {
    const std::string& fam = fams[static_cast<std::size_t>(c) % fams.size()];
    Rng r{mix64(vh ^ (static_cast<std::uint64_t>(c) * 0xd1b54a32d192ed03ull))};
    for (int lane = 0; lane < 32; ++lane) {
      std::uint32_t* p = &buf[(static_cast<std::size_t>(c) * 32 + lane) * rec];
      gen_operand(r, fam, v.ta, Role::AB, v.k, v.w.a, p);
      gen_operand(r, fam, v.tb, Role::AB, v.k, v.w.b, p + v.w.a);
      gen_operand(r, fam, v.tc, Role::C, v.k, v.w.c, p + v.w.a + v.w.b);
      if (v.w.e) p[v.w.a + v.w.b + v.w.c] = gen_metadata(r, v);
    }
  }
  return buf;
}

// ---------------------------------------------------------------------------------------------
// PTX generation
// ---------------------------------------------------------------------------------------------

// Lowest PTX ISA version (x10) that knows a target.
int target_min_ptx(const std::string& target) {
  static const std::map<std::string, int> m = {
      {"sm_70", 60},   {"sm_72", 61},   {"sm_75", 63},   {"sm_80", 70},   {"sm_86", 71},   {"sm_87", 74},
      {"sm_88", 90},   {"sm_89", 78},   {"sm_90", 78},   {"sm_90a", 80},  {"sm_100", 86}, {"sm_100a", 86},
      {"sm_101", 86},  {"sm_101a", 86}, {"sm_103", 88},  {"sm_103a", 88}, {"sm_110", 90}, {"sm_110a", 90},
      {"sm_120", 87},  {"sm_120a", 87}, {"sm_121", 88},  {"sm_121a", 88},
  };
  const auto it = m.find(target);
  return it == m.end() ? 0 : it->second;
}

// Highest PTX ISA version (x10) the driver's JIT compiler accepts, from cuDriverGetVersion.
int driver_max_ptx(int driver_version) {
  const int major = driver_version / 1000, minor = (driver_version % 1000) / 10;
  if (major >= 13) return 90 + minor;  // CUDA 13.0 -> PTX 9.0
  if (major == 12) {
    static const int m12[] = {80, 81, 82, 83, 84, 85, 85, 85, 87, 88};  // 12.0 .. 12.9
    return minor < 10 ? m12[minor] : 88;
  }
  if (major == 11) return 70 + std::min(minor, 8);
  return 60;
}

std::string target_for_cc(int major, int minor) {
  std::string t = "sm_" + std::to_string(major * 10 + minor);
  if (major >= 9) t += "a";  // arch-specific features (sm_90a, sm_100a, sm_120a, ...)
  return t;
}

enum class RegKind { B32, F32, F64 };

RegKind reg_kind(Ty t, bool accumulator) {
  if (t == Ty::f64) return RegKind::F64;
  if (accumulator && t == Ty::f32) return RegKind::F32;
  return RegKind::B32;
}

struct Operand {
  const char* name;  // register name prefix
  RegKind kind;
  int words;
  int offset;  // in words, inside the lane's record
  int regs() const { return kind == RegKind::F64 ? words / 2 : words; }
};

std::string make_ptx(const Variant& v, const std::string& target, int ptx_version) {
  const int rec = v.w.total();
  const Operand ops[5] = {
      {"%ra", reg_kind(v.ta, false), v.w.a, 0},
      {"%rb", reg_kind(v.tb, false), v.w.b, v.w.a},
      {"%rc", reg_kind(v.tc, true), v.w.c, v.w.a + v.w.b},
      {"%rdd", reg_kind(v.td, true), v.w.d, v.w.a + v.w.b + v.w.c + v.w.e},
      {"%re", RegKind::B32, v.w.e, v.w.a + v.w.b + v.w.c},  // sparse metadata (0 words when dense)
  };
  for (const auto& o : ops)
    if (o.kind == RegKind::F64 && o.words % 2 != 0) fail(v.ptx + ": an f64 operand needs an even word count");

  std::ostringstream s;
  s << "// generated by mma_capture: one warp per case, each lane loads its A, B, C words, runs the\n"
    << "// instruction once and stores its D words. Record: " << rec << " words per lane (A " << v.w.a << ", B "
    << v.w.b << ", C " << v.w.c << (v.w.e ? ", E 1" : "") << ", D " << v.w.d << ").\n";
  s << ".version " << ptx_version / 10 << "." << ptx_version % 10 << "\n.target " << target << "\n.address_size 64\n\n";
  s << ".visible .entry mma_capture_kernel(\n    .param .u64 p_buf,\n    .param .u32 p_cases)\n{\n";
  s << "    .reg .pred %p<2>;\n    .reg .b32 %r<8>;\n    .reg .b64 %ad<4>;\n    .reg .b32 %t<2>;\n";
  for (const auto& o : ops) {
    if (!o.words) continue;
    const char* ty = o.kind == RegKind::F64 ? ".f64" : o.kind == RegKind::F32 ? ".f32" : ".b32";
    s << "    .reg " << ty << " " << o.name << "<" << o.regs() << ">;\n";
  }
  s << "\n    ld.param.u64 %ad0, [p_buf];\n    ld.param.u32 %r0, [p_cases];\n"
    << "    mov.u32 %r1, %ctaid.x;\n    mov.u32 %r2, %ntid.x;\n    mov.u32 %r3, %tid.x;\n"
    << "    mad.lo.u32 %r4, %r1, %r2, %r3;      // thread = case * 32 + lane\n"
    << "    shr.u32 %r5, %r4, 5;                // case (the whole warp takes the same branch)\n"
    << "    setp.ge.u32 %p0, %r5, %r0;\n    @%p0 bra DONE;\n"
    << "    cvta.to.global.u64 %ad1, %ad0;\n"
    << "    mul.wide.u32 %ad2, %r4, " << rec * 4 << ";\n    add.s64 %ad3, %ad1, %ad2;\n\n";

  // 64-bit accesses only where the address is 8-byte aligned (buffer aligned, even record, even offset).
  auto aligned64 = [&](int word) { return rec % 2 == 0 && word % 2 == 0; };
  for (int i : {0, 1, 2, 4}) {
    const auto& o = ops[i];
    for (int r = 0; r < o.regs(); ++r) {
      if (o.kind == RegKind::F64) {
        const int w = o.offset + 2 * r;
        if (aligned64(w)) {
          s << "    ld.global.f64 " << o.name << r << ", [%ad3+" << w * 4 << "];\n";
        } else {
          s << "    ld.global.b32 %t0, [%ad3+" << w * 4 << "];\n    ld.global.b32 %t1, [%ad3+" << w * 4 + 4
            << "];\n    mov.b64 " << o.name << r << ", {%t0, %t1};\n";
        }
      } else {
        s << "    ld.global." << (o.kind == RegKind::F32 ? "f32 " : "b32 ") << o.name << r << ", [%ad3+"
          << (o.offset + r) * 4 << "];\n";
      }
    }
  }
  auto list = [&](const Operand& o) {
    std::string l = "{";
    for (int r = 0; r < o.regs(); ++r) l += (r ? ", " : "") + std::string(o.name) + std::to_string(r);
    return l + "}";
  };
  s << "\n    " << v.ptx << "\n        " << list(ops[3]) << ",\n        " << list(ops[0]) << ",\n        "
    << list(ops[1]) << ",\n        " << list(ops[2])
    << (v.sel >= 0 ? ",\n        %re0, " + std::to_string(v.sel) : std::string()) << ";\n\n";
  const auto& d = ops[3];
  for (int r = 0; r < d.regs(); ++r) {
    if (d.kind == RegKind::F64) {
      const int w = d.offset + 2 * r;
      if (aligned64(w)) {
        s << "    st.global.f64 [%ad3+" << w * 4 << "], " << d.name << r << ";\n";
      } else {
        s << "    mov.b64 {%t0, %t1}, " << d.name << r << ";\n    st.global.b32 [%ad3+" << w * 4
          << "], %t0;\n    st.global.b32 [%ad3+" << w * 4 + 4 << "], %t1;\n";
      }
    } else {
      s << "    st.global." << (d.kind == RegKind::F32 ? "f32" : "b32") << " [%ad3+" << (d.offset + r) * 4 << "], "
        << d.name << r << ";\n";
    }
  }
  s << "DONE:\n    ret;\n}\n";
  return s.str();
}

// ---------------------------------------------------------------------------------------------
// The GPU
// ---------------------------------------------------------------------------------------------

struct Gpu {
  bool active = false;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  std::string name = "none";
  int cc_major = 0, cc_minor = 0;
  int driver_version = 0;
  std::string driver_string;  // kernel module version, e.g. 580.159.04, when /proc says it

  int cc() const { return cc_major * 10 + cc_minor; }
  std::string sm() const { return active ? "sm_" + std::to_string(cc()) : "none"; }

  void open(int ordinal) {
    g_context = "initialising the CUDA driver";
    CU(cuInit(0));
    CU(cuDriverGetVersion(&driver_version));
    int count = 0;
    CU(cuDeviceGetCount(&count));
    if (count == 0) fail("no CUDA device found");
    if (ordinal < 0 || ordinal >= count)
      fail("--device " + std::to_string(ordinal) + ": there are " + std::to_string(count) + " devices");
    CU(cuDeviceGet(&dev, ordinal));
    char buf[256] = {};
    CU(cuDeviceGetName(buf, sizeof buf, dev));
    name = buf;
    CU(cuDeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU(cuDeviceGetAttribute(&cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    active = true;
    std::ifstream in("/proc/driver/nvidia/version");
    std::string line;
    if (in && std::getline(in, line)) {
      std::istringstream ws(line);
      std::string tok;
      while (ws >> tok) {
        const bool ver = !tok.empty() && std::isdigit(static_cast<unsigned char>(tok[0])) &&
                         tok.find('.') != std::string::npos &&
                         tok.find_first_not_of("0123456789.") == std::string::npos;
        if (ver) {
          driver_string = tok;
          break;
        }
      }
    }
  }
  void close() {
    if (active) {
      cuDevicePrimaryCtxRelease(dev);
      active = false;
    }
  }
};

struct JitResult {
  bool ok = false;
  std::string log;
};

// Runs every case of one variant: `buf` holds the records (A, B, C filled); D is written in place.
JitResult run_variant(const Variant& v, const std::string& ptx_text, std::vector<std::uint32_t>& buf, int cases,
                      bool verbose) {
  g_context = "JIT-compiling " + v.ptx;
  std::vector<char> err(16384, 0), inf(16384, 0);
  CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                        CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* val[] = {err.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(err.size())), inf.data(),
                 reinterpret_cast<void*>(static_cast<std::uintptr_t>(inf.size()))};
  CUmodule mod = nullptr;
  const CUresult r = cuModuleLoadDataEx(&mod, ptx_text.c_str(), 4, opt, val);
  if (r != CUDA_SUCCESS) {
    JitResult j;
    j.log = cu_error_text(r) + "\n" + std::string(err.data());
    return j;
  }
  if (verbose && inf[0]) std::cerr << "  jit: " << inf.data() << "\n";
  g_context = "running " + v.ptx;
  CUfunction fn = nullptr;
  CU(cuModuleGetFunction(&fn, mod, "mma_capture_kernel"));
  const std::size_t bytes = buf.size() * 4;
  CUdeviceptr d = 0;
  CU(cuMemAlloc(&d, bytes));
  CU(cuMemcpyHtoD(d, buf.data(), bytes));
  unsigned ncases = static_cast<unsigned>(cases);
  void* params[] = {&d, &ncases};
  const unsigned warps_per_block = 4;
  const unsigned blocks = (ncases + warps_per_block - 1) / warps_per_block;
  CU(cuLaunchKernel(fn, blocks, 1, 1, 32 * warps_per_block, 1, 1, 0, nullptr, params, nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(buf.data(), d, bytes));
  CU(cuMemFree(d));
  CU(cuModuleUnload(mod));
  JitResult j;
  j.ok = true;
  return j;
}

// ---------------------------------------------------------------------------------------------
// wgmma: re-running a ptxmma-golden-wgmma-v1 set (golden README, "wgmma format")
// ---------------------------------------------------------------------------------------------

// One entry of the manifest. A case record: 8 header words, the shared image, then per thread
// (128) its A, C and D words.
struct WgmmaEntry {
  std::string ptx, file, a_source, ta, td;
  int cases = 0, smem_bytes = 0, wa = 0, wc = 0, wd = 0;
  int we = 0, sel = -1;  // wgmma.mma_async.sp: the sp-meta word after C, and sp-sel
  int scale_a = 1, scale_b = 1, trans_a = 0, trans_b = 0;
  int per_thread() const { return wa + wc + we + wd; }
  int record_words() const { return 8 + smem_bytes / 4 + 128 * per_thread(); }
  // Thread t's words start at threads_offset() + t * per_thread(): A, C, (E,) D.
  int threads_offset() const { return 8 + smem_bytes / 4; }
};

// The immediates the instruction takes after scale-d: float types scale A and B, f16/bf16
// also transpose (A only from a descriptor); integer and b1 take none.
std::string wgmma_immediates(const WgmmaEntry& e) {
  if (e.ta == "s8" || e.ta == "u8" || e.ta == "b1") return "";
  std::string s = ", " + std::to_string(e.scale_a) + ", " + std::to_string(e.scale_b);
  if (e.ta == "f16" || e.ta == "bf16") {
    if (e.a_source == "descriptor") s += ", " + std::to_string(e.trans_a);
    s += ", " + std::to_string(e.trans_b);
  }
  return s;
}

// PTX 8.4: mixed s8/u8 wgmma needs it. One block of 128 threads per case: zero the dynamic shared memory, copy the image to its
// absolute shared address (thread 0 reports the allocation's own address in header word 7, so
// the host can check the image fitted), load the descriptors, scale-d, A and C, run the one
// wgmma, store D.
std::string wgmma_ptx(const WgmmaEntry& e, const std::string& target, int alloc) {
  const bool f32 = e.td == "f32";
  const std::string dty = f32 ? "f32" : "b32", mem = f32 ? "f32" : "u32";
  const int stride = 4 * e.per_thread();
  std::ostringstream p;
  p << ".version 8.4\n.target " << target << "\n.address_size 64\n"
    << ".extern .shared .align 1024 .b8 smem[];\n"
    << ".visible .entry wgmma_capture_kernel(.param .u64 buf, .param .u32 rec_words)\n{\n"
    << "  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n  .reg .pred %p<4>;\n  .reg .b32 %a<4>;\n"
    << "  .reg ." << dty << " %d<" << e.wd << ">;\n"
    << "  ld.param.u64 %rd1, [buf];\n  ld.param.u32 %r1, [rec_words];\n  mov.u32 %r2, %ctaid.x;\n"
    << "  mul.wide.u32 %rd2, %r1, %r2;\n  shl.b64 %rd2, %rd2, 2;\n  cvta.to.global.u64 %rd1, %rd1;\n"
    << "  add.s64 %rd1, %rd1, %rd2;\n  mov.u32 %r3, %tid.x;\n  mov.u32 %r4, smem;\n"
    << "  shl.b32 %r5, %r3, 2;\nZERO:\n  setp.ge.u32 %p1, %r5, " << alloc << ";\n  @%p1 bra ZEROED;\n"
    << "  add.u32 %r6, %r4, %r5;\n  st.shared.u32 [%r6], 0;\n  add.u32 %r5, %r5, 512;\n  bra ZERO;\nZEROED:\n"
    << "  bar.sync 0;\n  ld.global.u32 %r7, [%rd1+20];\n  ld.global.u32 %r8, [%rd1+24];\n"
    << "  setp.eq.u32 %p2, %r3, 0;\n  @%p2 st.global.u32 [%rd1+28], %r4;\n"
    << "  setp.lt.u32 %p1, %r7, %r4;\n  sub.u32 %r9, %r7, %r4;\n  add.u32 %r10, %r9, %r8;\n"
    << "  setp.gt.u32 %p3, %r10, " << alloc << ";\n  or.pred %p3, %p3, %p1;\n  @%p3 bra DONE;\n"
    << "  shl.b32 %r5, %r3, 2;\nCOPY:\n  setp.ge.u32 %p1, %r5, %r8;\n  @%p1 bra COPIED;\n"
    << "  cvt.u64.u32 %rd3, %r5;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r6, [%rd4+32];\n"
    << "  add.u32 %r11, %r7, %r5;\n  st.shared.u32 [%r11], %r6;\n  add.u32 %r5, %r5, 512;\n  bra COPY;\nCOPIED:\n"
    << "  fence.proxy.async.shared::cta;\n  bar.sync 0;\n"
    << "  ld.global.u64 %rd5, [%rd1];\n  ld.global.u64 %rd6, [%rd1+8];\n  ld.global.u32 %r12, [%rd1+16];\n"
    << "  setp.ne.u32 %p1, %r12, 0;\n"
    << "  cvt.u64.u32 %rd7, %r8;\n  add.s64 %rd7, %rd7, %rd1;\n  mul.wide.u32 %rd8, %r3, " << stride << ";\n"
    << "  add.s64 %rd7, %rd7, %rd8;\n  add.s64 %rd7, %rd7, 32;\n";
  for (int i = 0; i < e.wa; ++i) p << "  ld.global.u32 %a" << i << ", [%rd7+" << 4 * i << "];\n";
  for (int i = 0; i < e.wd; ++i) p << "  ld.global." << mem << " %d" << i << ", [%rd7+" << 4 * (e.wa + i) << "];\n";
  if (e.we) p << "  ld.global.u32 %r13, [%rd7+" << 4 * (e.wa + e.wc) << "];\n";
  p << "  wgmma.fence.sync.aligned;\n  " << e.ptx << " {";
  for (int i = 0; i < e.wd; ++i) p << (i ? ", " : "") << "%d" << i;
  p << "}, " << (e.a_source == "registers" ? "{%a0, %a1, %a2, %a3}" : "%rd5") << ", %rd6"
    << (e.we ? ", %r13, " + std::to_string(e.sel) : std::string()) << ", %p1" << wgmma_immediates(e)
    << ";\n  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n";
  for (int i = 0; i < e.wd; ++i)
    p << "  st.global." << mem << " [%rd7+" << 4 * (e.wa + e.wc + e.we + i) << "], %d" << i << ";\n";
  p << "DONE:\n  ret;\n}\n";
  return p.str();
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------

const char* kHelp = R"(mma_capture: run warp-level mma.sync.aligned instructions on this GPU and write a golden set
in the ptxmma-golden-regs-v1 format (manifest.json + one .bin per variant).

Mode 1, generate inputs and capture:
  mma_capture --out DIR [--cases N] [--seed S] [--families f1,f2,...] [--set NAME] [--sparse] (--all | VARIANT...)
    VARIANT   a full instruction, e.g. mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
              (one of the dense variants that sm_90 assembles; see --list)
    --all     every variant of the table the device supports (min compute capability; a variant
              the driver's JIT rejects is skipped with a warning)
    --cases N cases per variant (default 64); case i uses families[i % len(families)]
    --seed S  (default 1); inputs depend only on seed, variant and case index (sparse: not on the
              selector, so the selectors of one variant run the same A, B, C and E words)
    --families  comma list (default bits,narrow,wide,special,cancel,intlike); known:
              bits narrow wide special cancel intlike align bigsmall subnormal overflow cbig ctiny tf32junk
    --set NAME  the manifest's "set" (default: the last component of DIR)
    --wmma    the wmma.mma variants instead (every shape, type and layout sm_90 runs), each lane's
              fragment registers loaded raw like mma's: VARIANT names one, e.g.
              wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
    --sparse  the sparse variants instead (mma.sp and mma.sp::ordered_metadata, docs/mma-catalogue.md §3.1): one entry
              per legal sparsity selector, a metadata word per lane after C whose every nibble is
              defined (docs/hardware/mma-sp-format.md); VARIANT then names a sparse instruction, e.g.
              mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 (all its selectors)

Mode 2, re-run an existing set's inputs:
  mma_capture --rerun IN_DIR --out DIR [--set NAME]
    runs exactly the A/B/C words (sparse entries: and E) of IN_DIR on this GPU and writes them with this
    GPU's D words; the manifest is copied, with this machine's device, sm and driver fields. Prints, per
    variant, how many D words differ from IN_DIR.

Common options:
  --device N        CUDA device ordinal (default 0)
  --target T        PTX .target (default from the compute capability: sm_80, sm_89, sm_90a, sm_100a, sm_120a ...)
  --ptx-version X.Y PTX .version (default: the lowest the variant and the target need)
  --dump-ptx DIR    write each generated PTX module to DIR/<variant>.ptx (before it is compiled)
  --no-gpu          do not touch CUDA: needs no device and no driver (default target sm_90a). With --out
                    it writes the set with every D word 0 and "device": "none" ("inputs_only": true):
                    inputs to run later with --rerun on a GPU. Use with --dump-ptx to check PTX offline.
  --force           write into DIR even if it already holds a manifest.json
  --verbose         print the JIT's info log
  --list            print the variant table (instruction, words a/b/c/d, types, min sm, min PTX) and exit;
                    with --sparse the sparse one (one line per selector), with --wmma the wmma one
  --help            this text

Build: nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o build-capture/mma_capture tools/capture/mma_capture.cu -lcuda
)";

struct Options {
  std::string out, rerun, set, target, dump_ptx;
  int ptx_version = 0;
  int cases = 64;
  std::uint64_t seed = 1;
  bool seed_given = false;
  std::vector<std::string> families = kDefaultFamilies;
  bool families_given = false;
  bool all = false, no_gpu = false, force = false, verbose = false, list = false, sparse = false, wmma = false;
  int device = 0;
  std::vector<std::string> variants;
};

long long parse_int(const std::string& opt, const std::string& s, long long lo, long long hi) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 0);
  if (s.empty() || *end != '\0' || errno != 0 || v < lo || v > hi)
    fail(opt + ": '" + s + "' is not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) fail(a + " needs a value (see --help)");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << kHelp;
      std::exit(0);
    } else if (a == "--out") {
      o.out = next();
    } else if (a == "--rerun") {
      o.rerun = next();
    } else if (a == "--set") {
      o.set = next();
    } else if (a == "--cases") {
      o.cases = static_cast<int>(parse_int(a, next(), 1, 1 << 20));
    } else if (a == "--seed") {
      const std::string s = next();
      char* end = nullptr;
      errno = 0;
      o.seed = std::strtoull(s.c_str(), &end, 0);
      if (s.empty() || *end != '\0' || errno != 0 || s[0] == '-') fail("--seed: '" + s + "' is not an unsigned integer");
      o.seed_given = true;
    } else if (a == "--families") {
      o.families = split(next(), ',');
      o.families_given = true;
      for (const auto& f : o.families)
        if (!known_family(f)) fail("--families: unknown family '" + f + "' (see --help)");
    } else if (a == "--all") {
      o.all = true;
    } else if (a == "--sparse") {
      o.sparse = true;
    } else if (a == "--wmma") {
      o.wmma = true;
    } else if (a == "--device") {
      o.device = static_cast<int>(parse_int(a, next(), 0, 1023));
    } else if (a == "--target") {
      o.target = next();
    } else if (a == "--ptx-version") {
      const std::string s = next();
      const auto p = split(s, '.');
      if (p.size() != 2 || p[0].empty() || p[1].size() != 1 || !std::isdigit(static_cast<unsigned char>(p[1][0])))
        fail("--ptx-version: '" + s + "' is not of the form X.Y");
      o.ptx_version = static_cast<int>(parse_int(a, p[0], 1, 99)) * 10 + (p[1][0] - '0');
    } else if (a == "--dump-ptx") {
      o.dump_ptx = next();
    } else if (a == "--no-gpu") {
      o.no_gpu = true;
    } else if (a == "--force") {
      o.force = true;
    } else if (a == "--verbose" || a == "-v") {
      o.verbose = true;
    } else if (a == "--list") {
      o.list = true;
    } else if (starts_with(a, "-")) {
      fail("unknown option '" + a + "' (see --help)");
    } else {
      o.variants.push_back(a);
    }
  }
  if (o.list) return o;
  if (!o.rerun.empty()) {
    if (o.all || !o.variants.empty()) fail("--rerun takes no variants and no --all: it runs the set's own");
    if (o.families_given || o.seed_given) fail("--rerun takes no --families or --seed: the inputs come from the set");
    if (o.sparse || o.wmma) fail("--rerun takes no --sparse or --wmma: the set's manifest says what each entry is");
  } else {
    if (o.all == !o.variants.empty()) fail("give either --all or one or more VARIANTs (see --help)");
  }
  if (o.out.empty() && !(o.no_gpu && !o.dump_ptx.empty()))
    fail("--out DIR is required (only --no-gpu --dump-ptx DIR may go without it)");
  if (o.families.empty()) fail("--families: empty list");
  if (o.sparse && o.wmma) fail("--sparse and --wmma are two tables: give one");
  return o;
}

std::string sm_label(int cc) { return "sm_" + std::to_string(cc); }

void prepare_out(const Options& o) {
  if (o.out.empty()) return;
  if (!o.rerun.empty()) {
    struct stat a, b;
    if (::stat(o.rerun.c_str(), &a) == 0 && ::stat(o.out.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
      fail("--out must not be the --rerun folder: the input set would be overwritten");
  }
  if (path_exists(join_path(o.out, "manifest.json")) && !o.force)
    fail(join_path(o.out, "manifest.json") + " exists: choose another --out, or give --force");
  make_dirs(o.out);
}

int choose_ptx_version(const Options& o, const Variant& v, const std::string& target, const Gpu& gpu) {
  if (o.ptx_version) return o.ptx_version;
  const int tmin = target_min_ptx(target);
  if (v.known) return std::max(tmin, v.min_ptx);
  // Not in the table: the newest version the driver takes (9.0 without a driver).
  return std::max(tmin, gpu.active ? driver_max_ptx(gpu.driver_version) : 90);
}

// Variant from a manifest entry; the table's knowledge is cross-checked when the variant is known.
Variant variant_from_manifest(const JVal& e, const std::string& where) {
  auto str = [&](const JVal& o, const char* k) -> std::string {
    const JVal* x = o.find(k);
    if (!x || x->kind != JVal::Str) fail(where + ": missing string '" + k + "'");
    return x->text;
  };
  auto num = [&](const JVal& o, const char* k, long long lo, long long hi) -> int {
    const JVal* x = o.find(k);
    if (!x || x->kind != JVal::Num) fail(where + ": missing number '" + k + "'");
    return static_cast<int>(parse_int(where + ": " + k, x->text, lo, hi));
  };
  const std::string ptx = str(e, "ptx");
  const JVal* sp = e.find("sparse");
  const int sel = sp && sp->kind == JVal::Obj ? num(*sp, "selector", 0, 3) : -1;
  if (sel < 0 && !starts_with(ptx, "mma.sync.") && !starts_with(ptx, "wmma.mma."))
    fail(where + ": '" + ptx + "' is not a warp-level mma.sync or wmma.mma instruction");
  if (ptx.find("block_scale") != std::string::npos)
    fail(where + ": '" + ptx + "': block-scaled mma takes extra operands; not supported here");
  const JVal* w = e.find("words");
  if (!w || w->kind != JVal::Obj) fail(where + ": missing object 'words'");
  Words words{num(*w, "a", 0, 64), num(*w, "b", 0, 64), num(*w, "c", 0, 64), num(*w, "d", 1, 64)};
  if (sel >= 0) words.e = num(*w, "e", 1, 1);
  std::optional<Variant> known = lookup(ptx, sel);
  if (sel >= 0 && !known) fail(where + ": '" + ptx + "' with selector " + std::to_string(sel) + " is not a sparse variant of the table");
  Variant v;
  if (known) {
    v = *known;
    if (!(v.w == words)) {
      std::ostringstream m;
      m << where << ": " << ptx << ": manifest words a/b/c/d = " << words.a << "/" << words.b << "/" << words.c << "/"
        << words.d << ", but the variant has " << v.w.a << "/" << v.w.b << "/" << v.w.c << "/" << v.w.d;
      fail(m.str());
    }
  } else {
    v.ptx = ptx;
    v.known = false;
    v.w = words;
  }
  if (const JVal* t = e.find("types"); t && t->kind == JVal::Obj) {
    Ty* dst[4] = {&v.ta, &v.tb, &v.tc, &v.td};
    const char* keys[4] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; ++i) {
      const std::string s = str(*t, keys[i]);
      const auto ty = parse_ty(s);
      if (!ty) {
        if (known) continue;  // the table knows the type; an unfamiliar spelling is harmless
        fail(where + ": types: unknown type '" + s + "' for " + keys[i]);
      }
      if (known && *ty != *dst[i])
        fail(where + ": " + ptx + ": manifest type of " + keys[i] + " is " + s + ", the variant's is " + info(*dst[i]).name);
      *dst[i] = *ty;
    }
  } else if (!known) {
    fail(where + ": " + ptx + " is not in the table and has no 'types': cannot tell f32/f64 registers");
  }
  if (!known) {
    std::cerr << "note: " << ptx << " is not in the sm_90 table; using the manifest's words and types\n";
    const auto sh = split(ptx, '.');
    for (const auto& x : sh)
      if (x.size() > 1 && x[0] == 'm' && std::sscanf(x.c_str(), "m%dn%dk%d", &v.m, &v.n, &v.k) == 3) break;
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// The two modes
// ---------------------------------------------------------------------------------------------

struct Runner {
  Options o;
  Gpu gpu;
  std::string target;

  void start() {
    if (!o.no_gpu) gpu.open(o.device);
    target = !o.target.empty() ? o.target : o.no_gpu ? "sm_90a" : target_for_cc(gpu.cc_major, gpu.cc_minor);
    if (!o.dump_ptx.empty()) make_dirs(o.dump_ptx);
    if (gpu.active)
      std::cerr << "device " << o.device << ": " << gpu.name << " (" << gpu.sm() << "), driver API " << gpu.driver_version
                << (gpu.driver_string.empty() ? "" : ", driver " + gpu.driver_string) << ", PTX target " << target
                << "\n";
    else
      std::cerr << "no GPU (--no-gpu): PTX target " << target << ", D words are written as 0\n";
  }

  // Returns false when the JIT rejected the variant (and skip_unsupported allows going on).
  bool capture(const Variant& v, std::vector<std::uint32_t>& buf, int cases, bool skip_unsupported) {
    const int ver = choose_ptx_version(o, v, target, gpu);
    const std::string text = make_ptx(v, target, ver);
    if (!o.dump_ptx.empty()) {
      const std::string f = file_name(v);
      const std::string path = join_path(o.dump_ptx, f.substr(0, f.size() - 4) + ".ptx");
      write_bytes(path, text.data(), text.size());
    }
    if (!gpu.active) return true;
    const JitResult j = run_variant(v, text, buf, cases, o.verbose);
    if (j.ok) return true;
    std::string msg = "the driver's JIT rejected " + v.ptx + " (.target " + target + ", .version " +
                      std::to_string(ver / 10) + "." + std::to_string(ver % 10) + "):\n" + j.log;
    if (o.dump_ptx.empty()) msg += "\n(give --dump-ptx DIR to keep the PTX text)";
    if (!skip_unsupported) fail(msg);
    std::cerr << "warning: skipped: " << msg << "\n";
    return false;
  }

  void header(JVal& m) {
    m.set_before("device", JVal::str(gpu.active ? gpu.name : "none"), "variants");
    m.set_before("sm", JVal::str(gpu.sm()), "variants");
    m.set_before("driver_version", JVal::num(gpu.driver_version), "variants");
    m.set_before("runtime_version", JVal::num(CUDA_VERSION), "variants");
  }
  void extras(JVal& m) {
    if (!gpu.driver_string.empty()) m.set_before("driver", JVal::str(gpu.driver_string), "variants");
    else if (const JVal* d = m.find("driver"); d) m.set_before("driver", JVal::str("unknown"), "variants");
    m.set_before("ptx_target", JVal::str(target), "variants");
    m.set_before("tool", JVal::str("tools/capture/mma_capture (PTX JIT-compiled by the driver)"), "variants");
    if (!gpu.active) m.set_before("inputs_only", JVal::boolean(true), "variants");
    else if (m.find("inputs_only")) m.set_before("inputs_only", JVal::boolean(false), "variants");
  }

  static JVal entry(const Variant& v, int cases) {
    JVal e = JVal::object();
    e.set("ptx", JVal::str(v.ptx));
    e.set("file", JVal::str(file_name(v)));
    e.set("cases", JVal::num(cases));
    JVal w = JVal::object();
    w.set("a", JVal::num(v.w.a));
    w.set("b", JVal::num(v.w.b));
    w.set("c", JVal::num(v.w.c));
    if (v.w.e) w.set("e", JVal::num(v.w.e));
    w.set("d", JVal::num(v.w.d));
    e.set("words", w);
    JVal t = JVal::object();
    t.set("a", JVal::str(info(v.ta).name));
    t.set("b", JVal::str(info(v.tb).name));
    t.set("c", JVal::str(info(v.tc).name));
    if (v.w.e) t.set("e", JVal::str("b32"));
    t.set("d", JVal::str(info(v.td).name));
    e.set("types", t);
    if (v.sel >= 0) {
      JVal sp = JVal::object();
      sp.set("selector", JVal::num(v.sel));
      e.set("sparse", sp);
    }
    return e;
  }

  int mode1() {
    std::vector<Variant> vars;
    if (o.all) {
      for (const auto& v : o.sparse ? sparse_table() : o.wmma ? wmma_table() : variant_table()) {
        if (gpu.active && gpu.cc() < v.min_sm) {
          std::cerr << "skip " << v.ptx << ": needs " << sm_label(v.min_sm) << "\n";
          continue;
        }
        vars.push_back(v);
      }
    } else {
      std::set<std::string> seen;
      for (const auto& s : o.variants) {
        std::vector<Variant> found;
        if (o.sparse) {  // every selector of the sparse variant
          for (int sel = 0; sel < 4; ++sel)
            if (auto v = lookup(s, sel)) found.push_back(*v);
        } else if (auto v = lookup(s)) {
          found.push_back(*v);
        }
        if (found.empty())
          fail("unknown variant '" + s + "': not a" + (o.sparse ? " sparse" : " dense mma.sync.aligned") +
               " variant of sm_90 (see --list" + (o.sparse ? " --sparse)" : ")") +
               (!o.sparse && starts_with(s, "mma.sp") ? "; a sparse variant needs --sparse" : ""));
        for (const Variant& v : found) {
          if (gpu.active && gpu.cc() < v.min_sm) fail(s + " needs " + sm_label(v.min_sm) + "; this device is " + gpu.sm());
          if (!seen.insert(file_name(v)).second) fail("variant given twice: " + s);
          vars.push_back(v);
        }
      }
    }
    prepare_out(o);
    JVal m = JVal::object();
    m.set("format", JVal::str("ptxmma-golden-regs-v1"));
    m.set("set", JVal::str(!o.set.empty() ? o.set : base_name(o.out)));
    m.set("device", JVal());
    m.set("sm", JVal());
    m.set("driver_version", JVal());
    m.set("runtime_version", JVal());
    m.set("seed", JVal::num_text(std::to_string(o.seed)));
    JVal fams = JVal::array();
    for (const auto& f : o.families) fams.arr.push_back(JVal::str(f));
    m.set("families", fams);
    m.set("variants", JVal::array());
    header(m);
    extras(m);
    JVal entries = JVal::array();
    int done = 0;
    for (const auto& v : vars) {
      std::vector<std::uint32_t> buf = generate_cases(v, o.cases, o.seed, o.families);
      if (!capture(v, buf, o.cases, o.all)) continue;
      if (!o.out.empty()) write_words(join_path(o.out, file_name(v)), buf);
      entries.arr.push_back(entry(v, o.cases));
      ++done;
      std::cerr << "  " << v.ptx << ": " << o.cases << " cases\n";
    }
    m.set("variants", entries);
    if (!o.out.empty()) {
      const std::string text = json_manifest(m);
      write_bytes(join_path(o.out, "manifest.json"), text.data(), text.size());
      std::cerr << "wrote " << done << " variants to " << o.out << "\n";
    } else {
      std::cerr << "generated PTX for " << done << " variants in " << o.dump_ptx << "\n";
    }
    return 0;
  }

  // A re-run's manifest: the input set's, named rerun_of, with this machine's device fields.
  void rerun_manifest(JVal& m) {
    const JVal* old_set = m.find("set");
    if (old_set && old_set->kind == JVal::Str) m.set_before("rerun_of", JVal::str(old_set->text), "variants");
    if (!o.set.empty()) m.set("set", JVal::str(o.set));
    else if (!o.out.empty()) m.set("set", JVal::str(base_name(o.out)));
    header(m);
    extras(m);
  }
  void finish_rerun(const JVal& m, std::size_t n, const char* what, bool compared, long long diff, long long words) {
    if (!o.out.empty()) {
      const std::string text = json_manifest(m);
      write_bytes(join_path(o.out, "manifest.json"), text.data(), text.size());
      std::cerr << "wrote " << n << " " << what << " to " << o.out << "\n";
    }
    if (compared) std::cerr << "in all " << diff << " of " << words << " D words differ from " << o.rerun << "\n";
  }

  // --rerun of a wgmma set: every entry's cases on this GPU, the same records with this GPU's D.
  int rerun_wgmma(JVal& m, const std::string& mpath) {
    const JVal* al = m.find("smem_alloc_bytes");
    const int alloc = al && al->kind == JVal::Num ? static_cast<int>(parse_int(mpath + ": smem_alloc_bytes", al->text, 1024, 227 * 1024)) : 0;
    if (!alloc) fail(mpath + ": missing number 'smem_alloc_bytes'");
    const JVal* vl = m.find("variants");
    if (!vl || vl->kind != JVal::Arr) fail(mpath + ": missing list 'variants'");
    struct Item {
      WgmmaEntry e;
      std::vector<std::uint32_t> in;
    };
    std::vector<Item> items;
    std::set<std::string> files;
    for (std::size_t i = 0; i < vl->arr.size(); ++i) {
      const JVal& v = vl->arr[i];
      const std::string where = mpath + ": variants[" + std::to_string(i) + "]";
      const auto str = [&](const JVal& o, const char* k) {
        const JVal* x = o.find(k);
        if (!x || x->kind != JVal::Str) fail(where + ": missing string '" + k + "'");
        return x->text;
      };
      const auto num = [&](const JVal& o, const char* k, long long lo, long long hi) {
        const JVal* x = o.find(k);
        if (!x || x->kind != JVal::Num) fail(where + ": missing number '" + k + "'");
        return static_cast<int>(parse_int(where + ": " + k, x->text, lo, hi));
      };
      if (v.kind != JVal::Obj) fail(where + ": not an object");
      Item it;
      WgmmaEntry& e = it.e;
      e.ptx = str(v, "ptx");
      if (!starts_with(e.ptx, "wgmma.mma_async.sync.aligned.m64n") && !starts_with(e.ptx, "wgmma.mma_async.sp.sync.aligned.m64n"))
        fail(where + ": '" + e.ptx + "' is not a wgmma.mma_async");
      e.file = str(v, "file");
      if (e.file.empty() || e.file.find('/') != std::string::npos || !files.insert(e.file).second)
        fail(where + ": 'file' must be a plain file name, listed once");
      e.a_source = str(v, "a_source");
      if (e.a_source != "descriptor" && e.a_source != "registers") fail(where + ": a_source is descriptor or registers");
      e.cases = num(v, "cases", 1, 1 << 16);
      e.smem_bytes = num(v, "smem_bytes", 4, alloc);
      if (e.smem_bytes % 4) fail(where + ": smem_bytes is not a multiple of 4");
      e.scale_a = num(v, "imm_scale_a", -1, 1);
      e.scale_b = num(v, "imm_scale_b", -1, 1);
      e.trans_a = num(v, "imm_trans_a", 0, 1);
      e.trans_b = num(v, "imm_trans_b", 0, 1);
      const JVal* w = v.find("words");
      const JVal* t = v.find("types");
      if (!w || w->kind != JVal::Obj || !t || t->kind != JVal::Obj) fail(where + ": missing 'words' or 'types'");
      e.wa = num(*w, "a", 0, 4);
      e.wc = num(*w, "c", 1, 128);
      e.wd = num(*w, "d", 1, 128);
      if (e.wc != e.wd) fail(where + ": C and D words differ");
      if (const JVal* sp = v.find("sparse"); sp && sp->kind == JVal::Obj) {
        e.sel = num(*sp, "selector", 0, 1);
        e.we = num(*w, "e", 1, 1);
      }
      if ((e.sel >= 0) != starts_with(e.ptx, "wgmma.mma_async.sp."))
        fail(where + ": a sparse entry is wgmma.mma_async.sp with \"sparse\": {\"selector\": S}, and only it");
      e.ta = str(*t, "a");
      e.td = str(*t, "d");
      it.in = read_words(join_path(o.rerun, e.file), static_cast<std::size_t>(e.cases) * e.record_words());
      for (int c = 0; c < e.cases; ++c)
        if (it.in[static_cast<std::size_t>(c) * e.record_words() + 6] != static_cast<std::uint32_t>(e.smem_bytes))
          fail(where + ": case " + std::to_string(c) + ": its header's image size is not the manifest's smem_bytes");
      items.push_back(std::move(it));
    }
    std::cerr << "read " << items.size() << " wgmma entries from " << o.rerun << "\n";
    prepare_out(o);
    rerun_manifest(m);
    long long total_diff = 0, total_words = 0;
    for (auto& it : items) {
      const WgmmaEntry& e = it.e;
      const int rec = e.record_words(), per = e.per_thread(), d_at = e.wa + e.wc + e.we;
      std::vector<std::uint32_t> buf = it.in;
      for (int c = 0; c < e.cases; ++c)
        for (int t = 0; t < 128; ++t)
          for (int j = 0; j < e.wd; ++j) buf[static_cast<std::size_t>(c * rec + e.threads_offset() + t * per + d_at + j)] = 0;
      const std::string text = wgmma_ptx(e, target, alloc);
      if (!o.dump_ptx.empty()) write_bytes(join_path(o.dump_ptx, e.file.substr(0, e.file.size() - 4) + ".ptx"), text.data(), text.size());
      if (gpu.active) {
        g_context = "running " + e.ptx;
        CUmodule mod = nullptr;
        std::vector<char> log(16384, 0);
        CUjit_option jo[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void* jv[] = {log.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(log.size()))};
        const CUresult r = cuModuleLoadDataEx(&mod, text.c_str(), 2, jo, jv);
        if (r != CUDA_SUCCESS) fail("the driver's JIT rejected " + e.ptx + ":\n" + cu_error_text(r) + "\n" + log.data());
        CUfunction fn = nullptr;
        CU(cuModuleGetFunction(&fn, mod, "wgmma_capture_kernel"));
        CU(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, alloc));
        CUdeviceptr d = 0;
        CU(cuMemAlloc(&d, buf.size() * 4));
        CU(cuMemcpyHtoD(d, buf.data(), buf.size() * 4));
        unsigned rw = static_cast<unsigned>(rec);
        void* params[] = {&d, &rw};
        CU(cuLaunchKernel(fn, static_cast<unsigned>(e.cases), 1, 1, 128, 1, 1, static_cast<unsigned>(alloc), nullptr,
                          params, nullptr));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(buf.data(), d, buf.size() * 4));
        CU(cuMemFree(d));
        CU(cuModuleUnload(mod));
        // Header word 7 came back as this kernel's shared base: the image must have fitted.
        for (int c = 0; c < e.cases; ++c) {
          const std::size_t h = static_cast<std::size_t>(c) * rec;
          const std::uint32_t base = buf[h + 7], want = buf[h + 5];
          if (want < base || want - base + static_cast<std::uint32_t>(e.smem_bytes) > static_cast<std::uint32_t>(alloc))
            fail(e.file + ": case " + std::to_string(c) + ": the image at shared address " + std::to_string(want) +
                 " does not fit this kernel's allocation at " + std::to_string(base));
          buf[h + 7] = 0;
        }
        long long diff = 0, n = 0;
        for (int c = 0; c < e.cases; ++c)
          for (int t = 0; t < 128; ++t)
            for (int j = 0; j < e.wd; ++j, ++n) {
              const std::size_t at = static_cast<std::size_t>(c * rec + e.threads_offset() + t * per + d_at + j);
              diff += buf[at] != it.in[at];
            }
        total_diff += diff;
        total_words += n;
        std::cerr << "  " << e.ptx << (e.a_source == "registers" ? " (A in registers)" : "") << ": " << e.cases
                  << " cases, " << diff << " of " << n << " D words differ from " << o.rerun << "\n";
      }
      if (!o.out.empty()) write_words(join_path(o.out, e.file), buf);
    }
    finish_rerun(m, items.size(), "entries", gpu.active, total_diff, total_words);
    return 0;
  }

  int mode2() {
    const std::string mpath = join_path(o.rerun, "manifest.json");
    JVal m = JParser(read_text(mpath), mpath).parse();
    if (m.kind != JVal::Obj) fail(mpath + ": not a JSON object");
    const JVal* fmt = m.find("format");
    if (fmt && fmt->kind == JVal::Str && fmt->text == "ptxmma-golden-wgmma-v1") return rerun_wgmma(m, mpath);
    if (!fmt || fmt->kind != JVal::Str || fmt->text != "ptxmma-golden-regs-v1")
      fail(mpath + ": format is neither ptxmma-golden-regs-v1 nor ptxmma-golden-wgmma-v1");
    const JVal* vl = m.find("variants");
    if (!vl || vl->kind != JVal::Arr) fail(mpath + ": missing list 'variants'");
    // Read and check everything before the GPU runs anything.
    struct Item {
      Variant v;
      int cases;
      std::string file;
      std::vector<std::uint32_t> in;
    };
    std::vector<Item> items;
    std::set<std::string> files;
    for (std::size_t i = 0; i < vl->arr.size(); ++i) {
      const JVal& e = vl->arr[i];
      const std::string where = mpath + ": variants[" + std::to_string(i) + "]";
      if (e.kind != JVal::Obj) fail(where + ": not an object");
      Item it;
      it.v = variant_from_manifest(e, where);
      const JVal* c = e.find("cases");
      if (!c || c->kind != JVal::Num) fail(where + ": missing number 'cases'");
      it.cases = static_cast<int>(parse_int(where + ": cases", c->text, 1, 1 << 20));
      const JVal* f = e.find("file");
      if (!f || f->kind != JVal::Str || f->text.empty() || f->text.find('/') != std::string::npos ||
          f->text.find("..") != std::string::npos)
        fail(where + ": 'file' must be a plain file name");
      it.file = f->text;
      if (!files.insert(it.file).second) fail(where + ": file '" + it.file + "' is listed twice");
      it.in = read_words(join_path(o.rerun, it.file), static_cast<std::size_t>(it.cases) * 32 * it.v.w.total());
      if (gpu.active && it.v.known && gpu.cc() < it.v.min_sm)
        fail(where + ": " + it.v.ptx + " needs " + sm_label(it.v.min_sm) + "; this device is " + gpu.sm());
      items.push_back(std::move(it));
    }
    std::cerr << "read " << items.size() << " variants from " << o.rerun << "\n";
    const JVal* io = m.find("inputs_only");
    const bool compare = !(io && io->kind == JVal::Bool && io->text == "true");  // has D words to compare with
    prepare_out(o);
    rerun_manifest(m);
    long long total_diff = 0, total_words = 0;
    for (auto& it : items) {
      const int rec = it.v.w.total();
      const int doff = it.v.w.a + it.v.w.b + it.v.w.c + it.v.w.e;
      std::vector<std::uint32_t> buf = it.in;
      for (std::size_t l = 0; l < buf.size() / rec; ++l)  // D is output only: do not pass the old D in
        for (int j = 0; j < it.v.w.d; ++j) buf[l * rec + doff + j] = 0;
      capture(it.v, buf, it.cases, false);
      if (!o.out.empty()) write_words(join_path(o.out, it.file), buf);
      if (gpu.active && !compare) {
        std::cerr << "  " << it.v.ptx << ": " << it.cases << " cases\n";
      } else if (gpu.active) {
        long long diff = 0, n = 0;
        for (std::size_t l = 0; l < buf.size() / rec; ++l)
          for (int j = 0; j < it.v.w.d; ++j, ++n) diff += buf[l * rec + doff + j] != it.in[l * rec + doff + j];
        total_diff += diff;
        total_words += n;
        std::cerr << "  " << it.v.ptx << ": " << it.cases << " cases, " << diff << " of " << n
                  << " D words differ from " << o.rerun << "\n";
      }
    }
    finish_rerun(m, items.size(), "variants", gpu.active && compare, total_diff, total_words);
    return 0;
  }
};

void print_list(bool sparse, bool wmma) {
  for (const auto& v : sparse ? sparse_table() : wmma ? wmma_table() : variant_table()) {
    std::printf("%-64s a/b/c/d %2d/%2d/%2d/%2d  %s.%s.%s.%s  min %s, PTX %d.%d", v.ptx.c_str(), v.w.a, v.w.b, v.w.c,
                v.w.d, info(v.ta).name, info(v.tb).name, info(v.tc).name, info(v.td).name, sm_label(v.min_sm).c_str(),
                v.min_ptx / 10, v.min_ptx % 10);
    if (v.sel >= 0) std::printf("  selector %d", v.sel);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  Runner run;
  try {
    run.o = parse_args(argc, argv);
    if (run.o.list) {
      print_list(run.o.sparse, run.o.wmma);
      return 0;
    }
    run.start();
    const int rc = run.o.rerun.empty() ? run.mode1() : run.mode2();
    run.gpu.close();
    return rc;
  } catch (const Fatal& e) {
    std::cerr << "mma_capture: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "mma_capture: error: " << e.what() << "\n";
    return 1;
  }
}
