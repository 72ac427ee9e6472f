#include "sim/model/add_tree_tile.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "sim/model/host_rounding.hpp"
#include "sim/numeric/f32_bits.hpp"

namespace ptxmma {
namespace {

// An f16 code as the binary32 of the same value (exact); false for NaN and Inf.
bool f16_value(std::uint64_t code, float& out) {
  const auto sign = static_cast<std::uint32_t>(code & 0x8000U) << 16;
  const auto e = static_cast<std::uint32_t>(code >> 10 & 0x1fU), m = static_cast<std::uint32_t>(code & 0x3ffU);
  if (e == 31) return false;
  if (e == 0) {  // subnormal or zero: m x 2^-24, exact in binary32
    const float v = static_cast<float>(m) * 0x1p-24F;
    out = sign ? -v : v;
  } else {
    out = std::bit_cast<float>(sign | (e + 112) << 23 | m << 13);
  }
  return true;
}

// A C or D code of type t (f16 or f32) as binary32; false for NaN and Inf.
bool value(Type t, std::uint64_t code, float& out) {
  if (t == Type::f16) return f16_value(code, out);
  out = std::bit_cast<float>(static_cast<std::uint32_t>(code));
  return std::isfinite(out);
}

}  // namespace

std::unique_ptr<AddTreeTile> AddTreeTile::make(const Model& m, const TileSpec& s) {
  const AddTree& t = m.tree;
  const bool cd = (s.c == Type::f16 || s.c == Type::f32) && (s.d == Type::f16 || s.d == Type::f32);
  if (m.engine != Engine::add_tree || t.format != Type::f32 || t.round != Rounding::rn || s.a != Type::f16 ||
      s.b != Type::f16 || !cd || s.sparse || s.scale_vec != 0)
    return nullptr;
  // An order dot() rejects (not K products, or one past K) is dot()'s error to report.
  if (std::ranges::count_if(t.postfix, [](int op) { return op >= 0; }) != s.k ||
      std::ranges::any_of(t.postfix, [&](int op) { return op >= s.k; }))
    return nullptr;
  return std::make_unique<AddTreeTile>(t, s);
}

AddTreeTile::AddTreeTile(const AddTree& t, const TileSpec& s)
    : tree_(t),
      s_(s),
      a_(static_cast<std::size_t>(s.m * s.k)),
      bt_(static_cast<std::size_t>(s.k * s.n)),
      c_(static_cast<std::size_t>(s.m * s.n)),
      a_special_(static_cast<std::size_t>(s.m)),
      b_special_(static_cast<std::size_t>(s.n)),
      c_special_(static_cast<std::size_t>(s.m * s.n)) {
  int depth = 0, most = 0;
  for (const int op : t.postfix) most = std::max(most, depth += op == AddTree::kAdd ? -1 : 1);
  stack_.resize(static_cast<std::size_t>(most * s.m * s.n));
}

bool AddTreeTile::run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  const int M = s_.m, N = s_.n, K = s_.k;
  const auto mn = static_cast<std::size_t>(M * N);
  bool any = false;
  std::ranges::fill(a_special_, 0);
  std::ranges::fill(b_special_, 0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      if (!f16_value(a[i * K + k], a_[static_cast<std::size_t>(i * K + k)])) {
        a_special_[static_cast<std::size_t>(i)] = 1;
        any = true;
      }
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k)
      if (!f16_value(b[j * K + k], bt_[static_cast<std::size_t>(k * N + j)])) {
        b_special_[static_cast<std::size_t>(j)] = 1;
        any = true;
      }
  for (std::size_t q = 0; q < mn; ++q) {
    c_special_[q] = !value(s_.c, c[q], c_[q]);
    any |= c_special_[q] != 0;
  }
  {
    const HostRounding rn(Rounding::rn);  // and no flushing of subnormals
    float* top = stack_.data();  // one past the top entry
    for (const int op : tree_.postfix) {
      if (op == AddTree::kAdd) {
        float* const x = top - 2 * mn;
        const float* const y = top - mn;
        for (std::size_t q = 0; q < mn; ++q) x[q] = x[q] + y[q];
        top -= mn;
        continue;
      }
      if (op == AddTree::kZero) {
        std::fill(top, top + mn, 0.0F);
      } else if (op == AddTree::kC) {
        std::copy(c_.begin(), c_.end(), top);
      } else {
        for (int i = 0; i < M; ++i) {
          const float x = a_[static_cast<std::size_t>(i * K + op)];
          for (int j = 0; j < N; ++j) top[i * N + j] = x * bt_[static_cast<std::size_t>(op * N + j)];
        }
      }
      top += mn;
    }
  }
  for (std::size_t q = 0; q < mn; ++q) {
    const auto bits = std::bit_cast<std::uint32_t>(stack_[q]);
    d[q] = s_.d == Type::f32 ? bits : f16_of_f32_rn(bits);
  }
  return any;
}

}  // namespace ptxmma
