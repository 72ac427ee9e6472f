#include "tools/vectors/parallel.hpp"
#include "tools/vectors/matlab_tc.hpp"

#include <fmt/format.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "isa/mma_instruction.hpp"
#include "sim/error.hpp"
#include "sim/model/dot.hpp"
#include "sim/model/model.hpp"
#include "sim/model/term.hpp"
#include "sim/numeric/fields.hpp"
#include "sim/util/config_dir.hpp"
#include "tools/vectors/explanation.hpp"
#include "tools/vectors/output_file.hpp"
#include "tools/vectors/word_format.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;

constexpr const char* kManifest = "manifest.csv";
constexpr const char* kCaseHeader = "row,a,b,c_src_f32,c,d";
constexpr const char* kScaledCaseHeader = "row,a,b,scale_a,scale_b,c_src_f32,c,d";

// The manifest's format names (README "How each input format is encoded").
std::optional<Type> format_type(const std::string& s) {
  static const std::map<std::string, Type> kFormats = {{"fp16", Type::f16}, {"bf16", Type::bf16},
                                                       {"tf32", Type::tf32}, {"e4m3", Type::e4m3},
                                                       {"e5m2", Type::e5m2}, {"e2m1", Type::e2m1},
                                                       {"fp32", Type::f32}};
  const auto it = kFormats.find(s);
  if (it == kFormats.end()) return std::nullopt;
  return it->second;
}

std::optional<Type> scale_type(const std::string& s) {
  if (s == "ue8m0") return Type::ue8m0;
  if (s == "ue4m3") return Type::ue4m3;
  return std::nullopt;
}

// The manifest's arch (the compute capability) to the model file of that architecture: the
// arch-specific targets (sm_90a, sm_100a, sm_120a) where the plain one has no model file.
std::string model_arch(const std::string& sm) {
  if (fs::exists(fs::path(config_dir()) / "models" / (sm + ".yaml"))) return sm;
  return sm + "a";
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (const char ch : s) {
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

std::string trim_cr(std::string s) {
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

// A bit pattern of exactly `digits` lower- or upper-case hex digits.
std::optional<std::uint64_t> parse_hex(const std::string& s, int digits) {
  if (static_cast<int>(s.size()) != digits) return std::nullopt;
  std::uint64_t v = 0;
  for (const char ch : s) {
    int x;
    if (ch >= '0' && ch <= '9') x = ch - '0';
    else if (ch >= 'a' && ch <= 'f') x = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F') x = ch - 'A' + 10;
    else return std::nullopt;
    v = (v << 4) | static_cast<std::uint64_t>(x);
  }
  return v;
}

int hex_digits(Type t) { return (info(t).bits + info(t).shift + 3) / 4; }

std::optional<long> parse_long(const std::string& s) {
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stol(s);
}

// The folder holding manifest.csv for `path`: itself, or the folder above (per-GPU folder, file).
std::optional<fs::path> find_root(const fs::path& path) {
  fs::path dir = fs::is_directory(path) ? path : path.parent_path();
  if (dir.empty()) dir = ".";
  for (int up = 0; up < 3 && !dir.empty(); ++up) {
    if (fs::is_regular_file(dir / kManifest)) return dir;
    if (fs::is_regular_file(dir / "manifest.json")) return std::nullopt;  // a register-level set
    const fs::path parent = fs::absolute(dir).lexically_normal().parent_path();
    if (parent == fs::absolute(dir).lexically_normal()) break;
    dir = parent;
  }
  return std::nullopt;
}

std::string hexcode(Type t, std::uint64_t code) {
  return fmt::format("{:0{}x}", container_of(info(t), code), hex_digits(t));
}

std::string codes_text(Type t, const std::vector<std::uint64_t>& codes) {
  std::string out;
  for (const auto c : codes) {
    if (!out.empty()) out += ' ';
    out += hexcode(t, c);
  }
  return out;
}

MatlabTcFileReplay replay_file(const MatlabTcFile& f, const std::string& arch_override) {
  MatlabTcFileReplay r;
  r.name = f.name;
  r.arch = arch_override.empty() ? f.arch : arch_override;
  r.cases = f.rows;
  const Model* model = nullptr;
  try {
    r.family = matlab_tc_family(f, r.arch);
    model = &models_for(r.arch).select(r.family, f.in, f.acc);
  } catch (const Error& e) {
    r.supported = false;
    r.error = e.what();
    r.failed = r.cases;
    return r;
  }
  r.model = model->name;
  const std::vector<MatlabTcCase> cases = read_matlab_tc_cases(f);
  r.cases = static_cast<int>(cases.size());
  // The case sits in row 0 / column 0 of the instruction; the other k of its K are zero (a scaled
  // file's k is its instruction's K).
  const int k = std::max(f.k, f.k_instr);
  std::vector<Term> a(static_cast<std::size_t>(k)), b(a.size()), sa, sb;
  for (const MatlabTcCase& c : cases) {
    for (int i = 0; i < k; ++i) {
      a[i] = make_term(f.in, i < f.k ? c.a[i] : 0);
      b[i] = make_term(f.b, i < f.k ? c.b[i] : 0);
    }
    const Term ct = make_term(f.acc, c.c);
    DotOperands q{f.in, f.b, f.acc, f.acc, a.data(), b.data(), k, &ct};
    if (f.scale) {
      sa.clear();
      sb.clear();
      for (const auto s : c.scale_a) sa.push_back(make_term(*f.scale, s));
      for (const auto s : c.scale_b) sb.push_back(make_term(*f.scale, s));
      q.a_scales = sa.data();
      q.b_scales = sb.data();
      q.scale_k = f.scale_k;
    }
    const std::uint64_t got = dot(*model, q);
    if (got == c.d) continue;
    if (r.failed++ == 0) {
      DotTrace trace;
      dot(*model, q, &trace);
      std::string steps;
      for (const auto& l : explanation_lines(explanation_json(*model, trace))) steps += "    " + l + "\n";
      r.first_failure = fmt::format(
          "first failure: {} line {} (row {}), model {}, K = {}\n  a = {}\n  b = {}\n{}  c = {}\n  d expected {} ({}), "
          "got {} ({})\n{}",
          f.name, c.line, c.row, model->name, k, codes_text(f.in, c.a), codes_text(f.b, c.b),
          f.scale ? fmt::format("  scale_a = {}\n  scale_b = {}\n", codes_text(*f.scale, c.scale_a),
                                codes_text(*f.scale, c.scale_b))
                  : "",
          hexcode(f.acc, c.c), hexcode(f.acc, c.d), format_value(f.acc, c.d), hexcode(f.acc, got),
          format_value(f.acc, got), steps);
    }
  }
  return r;
}

}  // namespace

bool is_matlab_tc_path(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return p.extension() == ".csv" && p.filename() != kManifest;
  if (!fs::is_directory(p, ec) || fs::exists(p / "manifest.json", ec)) return false;
  return find_root(p).has_value();
}

MatlabTcSet read_matlab_tc(const std::string& path) {
  const fs::path p(path);
  if (!fs::exists(p)) throw Error(fmt::format("{}: no such file or folder", path));
  const auto root = find_root(p);
  if (!root) throw Error(fmt::format("{}: no {} here or in the folder above", path, kManifest));
  MatlabTcSet set;
  set.root = root->string();
  set.manifest = (*root / kManifest).string();
  std::ifstream in(set.manifest);
  if (!in) throw Error(fmt::format("{}: cannot open", set.manifest));
  const auto fail = [&](int line, const std::string& what) -> Error {
    return Error(fmt::format("{}:{}: {}", set.manifest, line, what));
  };
  std::string text;
  if (!std::getline(in, text)) throw fail(1, "empty (expected a header line)");
  const std::vector<std::string> header = split(trim_cr(text), ',');
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* need : {"file", "gpu", "arch", "in_fmt", "acc_fmt", "k", "path", "ptx", "k_instr", "rows"})
    if (!col.count(need)) throw fail(1, fmt::format("the header has no column '{}'", need));

  // Which manifest entries the path selects: all (the root), those under a folder, or one file.
  const fs::path root_abs = fs::weakly_canonical(*root);
  const fs::path want = fs::weakly_canonical(p);
  const bool all = want == root_abs, folder = fs::is_directory(p);
  std::vector<fs::path> listed;
  int line = 1;
  while (std::getline(in, text)) {
    ++line;
    text = trim_cr(text);
    if (text.empty()) continue;
    const std::vector<std::string> v = split(text, ',');
    if (v.size() != header.size())
      throw fail(line, fmt::format("{} fields, the header has {}", v.size(), header.size()));
    const auto at = [&](const char* key) -> const std::string& { return v[col[key]]; };
    MatlabTcFile f;
    f.line = line;
    f.name = at("file");
    if (f.name.empty() || f.name.find("..") != std::string::npos || f.name.front() == '/')
      throw fail(line, fmt::format("file '{}' must be a relative path inside the folder", f.name));
    f.path = (*root / f.name).string();
    f.gpu = at("gpu");
    f.sm = at("arch");
    if (f.sm.rfind("sm_", 0) != 0) throw fail(line, fmt::format("arch '{}' is not sm_<number>", f.sm));
    f.arch = model_arch(f.sm);
    const auto in_t = format_type(at("in_fmt")), acc_t = format_type(at("acc_fmt"));
    if (!in_t || *in_t == Type::f32) throw fail(line, fmt::format("unknown in_fmt '{}'", at("in_fmt")));
    if (!acc_t || (*acc_t != Type::f32 && *acc_t != Type::f16))
      throw fail(line, fmt::format("acc_fmt '{}' is not fp32 or fp16", at("acc_fmt")));
    f.in = *in_t;
    f.b = f.in;
    f.acc = *acc_t;
    if (col.count("b_fmt") && !at("b_fmt").empty()) {
      const auto b_t = format_type(at("b_fmt"));
      if (!b_t || *b_t == Type::f32) throw fail(line, fmt::format("unknown b_fmt '{}'", at("b_fmt")));
      f.b = *b_t;
    }
    const auto k = parse_long(at("k"));
    if (!k || *k < 1 || *k > kMaxK) throw fail(line, fmt::format("k '{}' is not 1..{}", at("k"), kMaxK));
    f.k = static_cast<int>(*k);
    if (const auto ki = parse_long(at("k_instr"))) {
      if (*ki < f.k || *ki > kMaxK) throw fail(line, fmt::format("k_instr {} is below k {} or above {}", *ki, f.k, kMaxK));
      f.k_instr = static_cast<int>(*ki);
    } else if (at("k_instr") != "unknown") {
      throw fail(line, fmt::format("k_instr '{}' is not a number or 'unknown'", at("k_instr")));
    }
    f.machine = at("path");
    if (f.machine != "wmma" && f.machine != "mma.sync" && f.machine != "wgmma" && f.machine != "tcgen05.mma")
      throw fail(line, fmt::format("path '{}' is not wmma, mma.sync, wgmma or tcgen05.mma", f.machine));
    if (col.count("scale_fmt") && !at("scale_fmt").empty()) {
      f.scale = scale_type(at("scale_fmt"));
      if (!f.scale) throw fail(line, fmt::format("scale_fmt '{}' is not ue8m0 or ue4m3", at("scale_fmt")));
      const auto sk = col.count("scale_k") ? parse_long(at("scale_k")) : std::nullopt;
      if (!sk || *sk < 1 || f.k % *sk != 0 || f.k_instr != f.k)
        throw fail(line, fmt::format("a scaled file needs scale_k dividing k = {} and k_instr = k", f.k));
      f.scale_k = static_cast<int>(*sk);
    }
    f.ptx = at("ptx");
    const auto rows = parse_long(at("rows"));
    if (!rows || *rows < 1) throw fail(line, fmt::format("rows '{}' is not a positive number", at("rows")));
    f.rows = static_cast<int>(*rows);
    const fs::path file_abs = fs::weakly_canonical(*root / f.name);
    listed.push_back(file_abs);
    const auto rel = file_abs.lexically_relative(want);
    const bool under = !rel.empty() && rel.native().rfind("..", 0) != 0;
    if (all || (folder && under) || (!folder && file_abs == want)) {
      if (!fs::is_regular_file(file_abs)) throw fail(line, fmt::format("{}: no such file", f.path));
      set.files.push_back(std::move(f));
    }
  }
  // Every CSV file of the selection must be described by the manifest.
  if (folder) {
    for (const auto& e : fs::recursive_directory_iterator(want))
      if (e.is_regular_file() && e.path().extension() == ".csv" && e.path().filename() != kManifest &&
          std::find(listed.begin(), listed.end(), fs::weakly_canonical(e.path())) == listed.end())
        throw Error(fmt::format("{}: not listed in {}", e.path().string(), set.manifest));
  } else if (set.files.empty()) {
    throw Error(fmt::format("{}: not listed in {}", path, set.manifest));
  }
  if (set.files.empty()) throw Error(fmt::format("{}: the manifest lists no file here", path));
  return set;
}

std::vector<MatlabTcCase> read_matlab_tc_cases(const MatlabTcFile& f) {
  std::ifstream in(f.path);
  if (!in) throw Error(fmt::format("{}: cannot open", f.path));
  const auto fail = [&](int line, const std::string& what) -> Error {
    return Error(fmt::format("{}:{}: {}", f.path, line, what));
  };
  std::string text;
  const char* header = f.scale ? kScaledCaseHeader : kCaseHeader;
  if (!std::getline(in, text) || trim_cr(text) != header) throw fail(1, fmt::format("the header is not '{}'", header));
  const std::size_t fields = f.scale ? 8 : 6;
  std::vector<MatlabTcCase> cases;
  int line = 1;
  while (std::getline(in, text)) {
    ++line;
    text = trim_cr(text);
    if (text.empty()) continue;
    const std::vector<std::string> v = split(text, ',');
    if (v.size() != fields) throw fail(line, fmt::format("{} fields, expected {} ({})", v.size(), fields, header));
    MatlabTcCase c;
    c.line = line;
    const auto row = parse_long(v[0]);
    if (!row) throw fail(line, fmt::format("row '{}' is not a number", v[0]));
    c.row = *row;
    const auto operand = [&](const std::string& s, const char* what, Type t, int count, const char* count_name,
                             std::vector<std::uint64_t>& out) {
      for (const std::string& w : split(s, ' ')) {
        const auto x = parse_hex(w, hex_digits(t));
        if (!x) throw fail(line, fmt::format("{}: '{}' is not {} hex digits of {}", what, w, hex_digits(t), name(t)));
        if (code_of(info(t), *x) << info(t).shift != *x)
          throw fail(line, fmt::format("{}: '{}' has bits outside the {} encoding", what, w, name(t)));
        out.push_back(code_of(info(t), *x));
      }
      if (static_cast<int>(out.size()) != count)
        throw fail(line, fmt::format("{} has {} values, the manifest's {} is {}", what, out.size(), count_name, count));
    };
    operand(v[1], "a", f.in, f.k, "k", c.a);
    operand(v[2], "b", f.b, f.k, "k", c.b);
    if (f.scale) {
      operand(v[3], "scale_a", *f.scale, f.k / f.scale_k, "k / scale_k", c.scale_a);
      operand(v[4], "scale_b", *f.scale, f.k / f.scale_k, "k / scale_k", c.scale_b);
    }
    const std::size_t acc_at = fields - 3;  // c_src_f32, c, d
    const auto acc = [&](const std::string& s, const char* what) {
      const auto x = parse_hex(s, hex_digits(f.acc));
      if (!x) throw fail(line, fmt::format("{}: '{}' is not {} hex digits of {}", what, s, hex_digits(f.acc), name(f.acc)));
      return code_of(info(f.acc), *x);
    };
    if (!parse_hex(v[acc_at], 8)) throw fail(line, fmt::format("c_src_f32: '{}' is not 8 hex digits", v[acc_at]));
    c.c = acc(v[acc_at + 1], "c");
    c.d = acc(v[acc_at + 2], "d");
    cases.push_back(std::move(c));
  }
  if (static_cast<int>(cases.size()) != f.rows)
    throw Error(fmt::format("{}: {} cases, the manifest ({}) says {}", f.path, cases.size(), f.name, f.rows));
  return cases;
}

std::string matlab_tc_family(const MatlabTcFile& f, const std::string& arch) {
  if (f.machine == "wmma") return "hmma";
  if (f.machine == "tcgen05.mma") {
    const auto at = f.ptx.find(".kind::");
    if (f.ptx.rfind("tcgen05.mma", 0) != 0 || at == std::string::npos)
      throw Error(fmt::format("{}: '{}' is no tcgen05.mma instruction with a .kind", f.name, f.ptx));
    const std::string kind = f.ptx.substr(at + 7, f.ptx.find('.', at + 7) - (at + 7));
    return "tcgen05_" + kind;
  }
  if (f.machine == "wgmma") return f.in == Type::e4m3 || f.in == Type::e5m2 ? "qgmma" : "hgmma";
  return parse_mma(f.ptx, arch).variant->family;
}

bool MatlabTcReport::ok() const {
  return failed == 0 && std::all_of(files.begin(), files.end(), [](const auto& f) { return f.supported; });
}

MatlabTcReport replay_matlab_tc(const MatlabTcSet& set, const std::string& arch, int jobs) {
  MatlabTcReport r;
  r.root = set.root;
  r.files.resize(set.files.size());
  parallel_for(set.files.size(), jobs, [&](std::size_t i) { r.files[i] = replay_file(set.files[i], arch); });
  for (const auto& f : r.files) {
    r.failed += f.failed;
    r.passed += f.cases - f.failed;
  }
  return r;
}

void print(const MatlabTcReport& r, std::ostream& os) {
  os << fmt::format("replay {} (recorded dot products, one case = one D element) through each file's model\n", r.root);
  std::size_t width = 0, mwidth = 0;
  for (const auto& f : r.files) {
    width = std::max(width, f.name.size());
    mwidth = std::max(mwidth, f.model.size());
  }
  for (const auto& f : r.files) {
    os << fmt::format("  {:<{}}  {:<{}}  cases {:4}  failed {:4}", f.name, width, f.supported ? f.model : f.arch, mwidth,
                      f.cases, f.failed);
    if (!f.supported) os << "  UNSUPPORTED: " << f.error;
    os << "\n";
  }
  for (const auto& f : r.files)
    if (!f.first_failure.empty()) {
      os << f.first_failure;
      break;
    }
  os << fmt::format("replay: {} passed, {} failed\n", r.passed, r.failed);
}

void write_json(const MatlabTcReport& r, const std::string& path) {
  nlohmann::json j;
  j["set"] = r.root;
  j["format"] = "matlab-tc";
  j["passed"] = r.passed;
  j["failed"] = r.failed;
  j["files"] = nlohmann::json::array();
  for (const auto& f : r.files)
    j["files"].push_back({{"file", f.name},
                          {"arch", f.arch},
                          {"family", f.family},
                          {"model", f.model},
                          {"cases", f.cases},
                          {"failed", f.failed},
                          {"supported", f.supported},
                          {"error", f.error}});
  write_output_file(path, j.dump(2) + "\n");
}

}  // namespace ptxmma
