#include "sim/exec/wgmma.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/error.hpp"
#include "sim/model/term.hpp"
#include "sim/numeric/fields.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma {

namespace {

// imm-scale -1: the element with its sign flipped.
std::uint64_t scaled(Type t, std::uint64_t code, int scale) { return scale == -1 ? code ^ info(t).sign_bit() : code; }

void check_words(std::span<const std::uint32_t> w, int per_thread, const char* what) {
  const std::size_t want = static_cast<std::size_t>(Warpgroup::kThreads) * static_cast<std::size_t>(per_thread);
  if (w.size() != want)
    throw Error(fmt::format("wgmma: {} has {} words; 128 threads x {} registers need {}", what, w.size(), per_thread, want));
}

}  // namespace

WgmmaExecutor::WgmmaExecutor(const MatrixVariant& v, const Model& m, WgmmaOperands o)
    : v_(v),
      m_(m),
      o_(o),
      kernel_(m, TileSpec{v.a, v.b, v.d, v.d, v.ld->rows, v.ld->cols, v.a_cols(), Rounding::rn, v.satfinite, v.bitop,
                          v.is_sparse()}) {
  check_wgmma_operands(v, o);
  const RegisterCodec cd = v.codec(Operand::d);
  for (int row = 0; row < cd.rows(); ++row)
    for (int col = 0; col < cd.cols(); ++col) {
      const RegisterCodec::Place p = cd.place(0, row, col);
      d_word_.push_back(p.word);
      d_shift_.push_back(p.shift);
    }
  c_codes_.resize(d_word_.size());
  d_codes_.resize(d_word_.size());
  if (v.is_sparse()) columns_.resize(static_cast<std::size_t>(v.ld->rows * v.a_cols()));
}

OperandAddressing WgmmaExecutor::a_addressing(std::uint64_t desc) const {
  return OperandAddressing(MatrixDescriptor::decode(desc), o_.imm_trans_a ? Major::mn : Major::k, v_.a, v_.shape.m,
                           v_.a_cols());
}

OperandAddressing WgmmaExecutor::b_addressing(std::uint64_t desc) const {
  return OperandAddressing(MatrixDescriptor::decode(desc), o_.imm_trans_b ? Major::mn : Major::k, v_.b, v_.shape.n,
                           v_.shape.k);
}

namespace {

// The codes of an x-by-K operand read through its descriptor: out[x * K + k].
void read_shared(std::span<const std::uint8_t> smem, const OperandAddressing& at, Type t, int scale, char op,
                 std::vector<std::uint64_t>& out) {
  const int bits = at.element_bits();
  const int bytes = bits < 8 ? 1 : bits / 8;
  const TypeInfo& ti = info(t);
  out.resize(static_cast<std::size_t>(at.rows()) * static_cast<std::size_t>(at.k()));
  for (int x = 0; x < at.rows(); ++x)
    for (int k = 0; k < at.k(); ++k) {
      const SmemSlot s = at.slot(x, k);
      if (s.address + static_cast<std::uint64_t>(bytes) > smem.size())
        check_shared(smem.size(), s.address, static_cast<std::uint64_t>(bytes), "read",
                     fmt::format("{} element ({}, {}) through descriptor {:#018x}: {}", op, op == 'A' ? x : k,
                                 op == 'A' ? k : x, at.descriptor().raw, at.descriptor().text()));
      std::uint64_t raw = 0;
      for (int i = bytes - 1; i >= 0; --i) raw = (raw << 8) | smem[s.address + static_cast<std::uint64_t>(i)];
      if (bits == 1) raw = (raw >> s.bit) & 1;
      out[static_cast<std::size_t>(x) * static_cast<std::size_t>(at.k()) + static_cast<std::size_t>(k)] =
          scaled(t, code_of(ti, raw), scale);
    }
}

}  // namespace

// The element addresses come from OperandAddressing once per descriptor; the footprint is
// checked once (an element outside shared memory is reported by read_shared, element by element),
// and the elements are read in place.
void WgmmaExecutor::read_operand(std::span<const std::uint8_t> smem, std::uint64_t desc, bool is_a, Addresses& at,
                                 std::vector<std::uint64_t>& out) const {
  const Type t = is_a ? v_.a : v_.b;
  const int scale = is_a ? o_.imm_scale_a : o_.imm_scale_b;
  if (at.desc != desc) {
    const OperandAddressing addressing = is_a ? a_addressing(desc) : b_addressing(desc);
    const int bytes = std::max(addressing.element_bits() / 8, 1);
    at.address.clear();
    at.bit.clear();
    at.lo = ~0ULL;
    at.hi = 0;
    for (int x = 0; x < addressing.rows(); ++x)
      for (int k = 0; k < addressing.k(); ++k) {
        const SmemSlot s = addressing.slot(x, k);
        at.address.push_back(s.address);
        at.bit.push_back(static_cast<std::uint8_t>(s.bit));
        at.lo = std::min(at.lo, s.address);
        at.hi = std::max(at.hi, s.address + static_cast<std::uint64_t>(bytes));
      }
    at.desc = desc;
  }
  if (at.hi > smem.size()) {  // some element is outside: the element-by-element read names it
    read_shared(smem, is_a ? a_addressing(desc) : b_addressing(desc), t, scale, is_a ? 'A' : 'B', out);
    return;
  }
  const TypeInfo& ti = info(t);
  const int bits = element_bits(t);
  const std::uint64_t flip = scale == -1 ? ti.sign_bit() : 0;
  out.resize(at.address.size());
  for (std::size_t i = 0; i < at.address.size(); ++i) {
    const std::uint8_t* p = smem.data() + at.address[i];
    std::uint64_t raw;
    switch (bits) {
      case 1: raw = (p[0] >> at.bit[i]) & 1; break;
      case 8: raw = p[0]; break;
      case 16: raw = p[0] | (static_cast<std::uint64_t>(p[1]) << 8); break;
      default:
        raw = p[0] | (static_cast<std::uint64_t>(p[1]) << 8) | (static_cast<std::uint64_t>(p[2]) << 16) |
              (static_cast<std::uint64_t>(p[3]) << 24);
    }
    out[i] = code_of(ti, raw) ^ flip;
  }
}

void WgmmaExecutor::fetch_into(const WgmmaInputs& in, Operands& ops) const {
  const int k = v_.a_cols();
  if (o_.a_source == ASource::registers) {
    check_words(in.a, v_.regs(Operand::a), "the A register words");
    const RegisterCodec ca = v_.codec(Operand::a);
    ops.a.resize(static_cast<std::size_t>(64 * k));
    for (int m = 0; m < 64; ++m)
      for (int kk = 0; kk < k; ++kk)
        ops.a[static_cast<std::size_t>(m * k + kk)] = scaled(v_.a, ca.code(in.a, m, kk), o_.imm_scale_a);
  } else {
    if (in.shared.empty()) throw Error("wgmma: A comes from a descriptor, but no shared memory was given");
    read_operand(in.shared, in.desc_a, true, a_at_, ops.a);
  }
  if (in.shared.empty()) throw Error("wgmma: B comes from a descriptor, but no shared memory was given");
  read_operand(in.shared, in.desc_b, false, b_at_, ops.b);
}

WgmmaExecutor::Operands WgmmaExecutor::fetch(const WgmmaInputs& in) const {
  Operands ops;
  fetch_into(in, ops);
  return ops;
}

void WgmmaExecutor::sparse_columns(const WgmmaInputs& in, int row, int* cols) const {
  if (in.meta.size() != static_cast<std::size_t>(Warpgroup::kThreads))
    throw Error(fmt::format("{}: needs the 128 threads' sp-meta words, given {}", v_.ptx, in.meta.size()));
  if (in.selector < 0 || in.selector >= v_.metadata->selectors)
    throw Error(fmt::format("{}: sp-sel {} is out of range (0..{})", v_.ptx, in.selector, v_.metadata->selectors - 1));
  const int warp = row / 16;  // warp w holds rows 16w..16w+15 and reads its own lanes' metadata
  try {
    v_.metadata->row_columns(v_.pattern, false, in.meta.subspan(static_cast<std::size_t>(32 * warp), 32),
                             in.selector, row % 16, cols);
  } catch (const Error& e) {
    throw Error(fmt::format("warp {} of the warpgroup, row {}: {}", warp, row, e.what()));
  }
}

DotRequest WgmmaExecutor::request(const Operands& ops, const WgmmaInputs& in, int row, int col,
                                  std::uint64_t* b_row) const {
  const int k = v_.a_cols();
  DotRequest r;
  r.a = v_.a;
  r.b = v_.b;
  r.c = v_.d;
  r.d = v_.d;
  r.a_codes = ops.a.data() + static_cast<std::size_t>(row) * static_cast<std::size_t>(k);
  r.b_codes = ops.b.data() + static_cast<std::size_t>(col) * static_cast<std::size_t>(k);
  if (v_.is_sparse()) {  // the B rows this row's metadata selects
    std::vector<int> cols(static_cast<std::size_t>(k));
    sparse_columns(in, row, cols.data());
    for (int s = 0; s < k; ++s)
      b_row[s] = ops.b[static_cast<std::size_t>(col) * static_cast<std::size_t>(v_.shape.k) +
                       static_cast<std::size_t>(cols[static_cast<std::size_t>(s)])];
    r.b_codes = b_row;
  }
  r.k = k;
  r.c_code = 0;  // scale-d false: D = A*B, as a +0 accumulator
  if (in.scale_d) r.c_code = v_.codec(Operand::d).code(in.c, row, col);
  r.rounding = Rounding::rn;
  r.satfinite = v_.satfinite;
  r.bitop = v_.bitop;
  return r;
}

void WgmmaExecutor::run(const WgmmaInputs& in, std::span<std::uint32_t> d) const {
  const FragmentLayout& ld = *v_.ld;
  if (in.scale_d) check_words(in.c, ld.regs, "C");
  check_words(d, ld.regs, "D");
  fetch_into(in, ops_);
  const int bits = element_bits(v_.d);
  const TypeInfo& di = info(v_.d);
  const std::uint32_t mask = bits == 32 ? ~0U : (1U << bits) - 1;
  if (!in.scale_d)  // D = A*B, as a +0 accumulator
    std::fill(c_codes_.begin(), c_codes_.end(), 0);
  else if (bits == 32)
    for (std::size_t i = 0; i < c_codes_.size(); ++i) c_codes_[i] = in.c[d_word_[i]];
  else
    for (std::size_t i = 0; i < c_codes_.size(); ++i) c_codes_[i] = code_of(di, (in.c[d_word_[i]] >> d_shift_[i]) & mask);
  if (v_.is_sparse()) {
    for (int row = 0; row < v_.ld->rows; ++row)
      sparse_columns(in, row, &columns_[static_cast<std::size_t>(row * v_.a_cols())]);
    kernel_.run_sparse(ops_.a.data(), ops_.b.data(), columns_.data(), c_codes_.data(), d_codes_.data());
  } else {
    kernel_.run(ops_.a.data(), ops_.b.data(), c_codes_.data(), d_codes_.data());
  }
  if (bits == 32) {
    for (std::size_t i = 0; i < d_codes_.size(); ++i) d[d_word_[i]] = static_cast<std::uint32_t>(d_codes_[i]);
    return;
  }
  for (std::size_t i = 0; i < d_codes_.size(); ++i) {
    std::uint32_t& word = d[d_word_[i]];
    word = (word & ~(mask << d_shift_[i])) | ((static_cast<std::uint32_t>(container_of(di, d_codes_[i])) & mask) << d_shift_[i]);
  }
}

std::uint64_t WgmmaExecutor::explain(const WgmmaInputs& in, int row, int col, DotTrace& trace) const {
  const FragmentLayout& ld = *v_.ld;
  if (row < 0 || row >= ld.rows || col < 0 || col >= ld.cols)
    throw Error(fmt::format("D is {}x{}: element ({}, {}) is outside", ld.rows, ld.cols, row, col));
  if (in.scale_d) check_words(in.c, ld.regs, "C");
  const Operands ops = fetch(in);
  std::vector<std::uint64_t> b_row(static_cast<std::size_t>(v_.a_cols()));
  return dot(m_, request(ops, in, row, col, b_row.data()), &trace);
}

namespace {

void check_kind(const Warpgroup& wg, const std::string& reg, RegKind want, const char* op) {
  if (wg.kind(reg) != want)
    throw Error(fmt::format("operand {}: register {} is .{}, the instruction needs a .{} register", op, reg,
                            name(wg.kind(reg)), name(want)));
}

// The value of a register that must be the same in all 128 threads.
std::uint64_t uniform(const Warpgroup& wg, const std::string& reg, const char* what) {
  const std::uint64_t v = wg.get(0, reg);
  for (int t = 1; t < Warpgroup::kThreads; ++t)
    if (wg.get(t, reg) != v)
      throw Error(fmt::format("{} ({}) differs between threads 0 and {} ({:#x} and {:#x}): it must be the same in "
                              "the whole warpgroup",
                              what, reg, t, v, wg.get(t, reg)));
  return v;
}

std::vector<std::uint32_t> gather(const Warpgroup& wg, const std::vector<std::string>& regs) {
  std::vector<std::uint32_t> words;
  words.reserve(regs.size() * Warpgroup::kThreads);
  for (int t = 0; t < Warpgroup::kThreads; ++t)
    for (const auto& r : regs) words.push_back(static_cast<std::uint32_t>(wg.get(t, r)));
  return words;
}

}  // namespace

void execute_wgmma(Warpgroup& wg, const WgmmaExecutor& x, const WgmmaRegisters& regs) {
  if (!wg.all_active()) throw Error("wgmma.mma_async.sync.aligned needs all 128 threads of the warpgroup active");
  const MatrixVariant& v = x.variant();
  if (static_cast<int>(regs.d.size()) != v.regs(Operand::d))
    throw Error(fmt::format("operand d: {} needs {} registers, the instruction names {}", v.ptx, v.regs(Operand::d), regs.d.size()));
  for (const auto& r : regs.d) check_kind(wg, r, RegKind::b32, "d");
  WgmmaInputs in;
  in.shared = wg.shared().bytes();
  std::vector<std::uint32_t> a;
  if (x.operands().a_source == ASource::registers) {
    if (static_cast<int>(regs.a.size()) != v.regs(Operand::a))
      throw Error(fmt::format("operand a: the register form needs {} registers, the instruction names {}", v.regs(Operand::a),
                              regs.a.size()));
    for (const auto& r : regs.a) check_kind(wg, r, RegKind::b32, "a");
    a = gather(wg, regs.a);
    in.a = a;
  } else {
    check_kind(wg, regs.a_desc, RegKind::b64, "a-desc");
    in.desc_a = uniform(wg, regs.a_desc, "the A descriptor");
  }
  check_kind(wg, regs.b_desc, RegKind::b64, "b-desc");
  in.desc_b = uniform(wg, regs.b_desc, "the B descriptor");
  in.scale_d = regs.scale_d_value;
  if (!regs.scale_d.empty()) {
    check_kind(wg, regs.scale_d, RegKind::pred, "scale-d");
    in.scale_d = uniform(wg, regs.scale_d, "the scale-d predicate") != 0;
  }
  const std::vector<std::uint32_t> c = gather(wg, regs.d);
  in.c = c;
  std::vector<std::uint32_t> meta;
  if (v.is_sparse()) {
    if (regs.sp_meta.empty()) throw Error(fmt::format("{} needs sp-meta and sp-sel", v.ptx));
    check_kind(wg, regs.sp_meta, RegKind::b32, "sp-meta");
    meta = gather(wg, {regs.sp_meta});
    in.meta = meta;
    in.selector = regs.sp_sel;
  }
  std::vector<std::uint32_t> d(c.size(), 0);
  x.run(in, d);
  const std::size_t n = regs.d.size();
  for (int t = 0; t < Warpgroup::kThreads; ++t)
    for (std::size_t r = 0; r < n; ++r) wg.set(t, regs.d[r], d[static_cast<std::size_t>(t) * n + r]);
}

}  // namespace ptxmma
