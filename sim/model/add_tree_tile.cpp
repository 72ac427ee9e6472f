#include "sim/model/add_tree_tile.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "sim/model/host_rounding.hpp"
#include "sim/model/simd.hpp"
#include "sim/numeric/f32_bits.hpp"
#include "sim/numeric/rounding_lanes.hpp"

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
      b_(static_cast<std::size_t>(s.n * s.k)),
      bt_(static_cast<std::size_t>(s.k * s.n)),
      c_(static_cast<std::size_t>(s.m * s.n)),
      a_special_(static_cast<std::size_t>(s.m)),
      b_special_(static_cast<std::size_t>(s.n)),
      c_special_(static_cast<std::size_t>(s.m * s.n)) {
  int depth = 0, most = 0;
  for (const int op : t.postfix) most = std::max(most, depth += op == AddTree::kAdd ? -1 : 1);
  stack_.resize(static_cast<std::size_t>(most * s.m * s.n));
}

namespace {

// n codes of type t (f16 or f32) into binary32 values, 8 at a time; whether any was NaN or Inf
// (its value is then meaningless: the caller finds which by value()).
PTXMMA_MULTIVERSION
bool values(Type t, const std::uint64_t* codes, std::size_t n, float* out) {
  typedef std::uint64_t ULongs4 __attribute__((vector_size(32)));
  typedef std::uint32_t UInts4 __attribute__((vector_size(16)));
  const bool half = t == Type::f16;
  const std::uint32_t exp_all = half ? 0x7c00U : 0x7f800000U;
  Ints8 special{};
  std::size_t q = 0;
  for (; q + 8 <= n; q += 8) {
    ULongs4 lo, hi;
    std::memcpy(&lo, codes + q, sizeof lo);
    std::memcpy(&hi, codes + q + 4, sizeof hi);
    const auto u = reinterpret_cast<UInts8>(__builtin_shufflevector(__builtin_convertvector(lo, UInts4),
                                                                     __builtin_convertvector(hi, UInts4), 0, 1, 2, 3, 4, 5, 6, 7));
    Floats8 f;
    if (half) f32_of_f16_lanes(u, f);
    else f = reinterpret_cast<Floats8>(u);
    std::memcpy(out + q, &f, sizeof f);
    special |= (u & exp_all) == exp_all;
  }
  bool any = false;
  for (int l = 0; l < 8; ++l) any |= special[l] != 0;
  for (; q < n; ++q) any |= !value(t, codes[q], out[q]);
  return any;
}

// The order's postfix over M x N outputs at once (mn floats an entry of the stack). Not inlined
// into the caller: the rounding mode is set around a call, so no floating-point operation can be
// moved across the change.
PTXMMA_MULTIVERSION [[gnu::noinline]]
void apply(const std::vector<int>& postfix, const float* a, const float* bt, const float* c, float* stack, int m, int n,
           int k) {
  const auto mn = static_cast<std::size_t>(m * n);
  float* top = stack;  // one past the top entry
  if (n % 8 == 0) {  // whole vectors of 8 columns (m8n8k4): no overlap checks, no tails
    for (const int op : postfix) {
      if (op == AddTree::kAdd) {
        float* const x = top - 2 * mn;
        const float* const y = top - mn;
        for (std::size_t q = 0; q < mn; q += 8) {
          Floats8 u, v;
          std::memcpy(&u, x + q, sizeof u);
          std::memcpy(&v, y + q, sizeof v);
          u += v;
          std::memcpy(x + q, &u, sizeof u);
        }
        top -= mn;
        continue;
      }
      if (op == AddTree::kZero) {
        std::fill(top, top + mn, 0.0F);
      } else if (op == AddTree::kC) {
        std::memcpy(top, c, mn * sizeof(float));
      } else {
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; j += 8) {
            Floats8 y;
            std::memcpy(&y, bt + op * n + j, sizeof y);
            const float x = a[i * k + op];
            y = Floats8{x, x, x, x, x, x, x, x} * y;
            std::memcpy(top + i * n + j, &y, sizeof y);
          }
      }
      top += mn;
    }
    return;
  }
  for (const int op : postfix) {
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
      std::copy(c, c + mn, top);
    } else {
      for (int i = 0; i < m; ++i) {
        const float x = a[i * k + op];
        for (int j = 0; j < n; ++j) top[i * n + j] = x * bt[op * n + j];
      }
    }
    top += mn;
  }
}

// The sums into D's codes: binary32 bits, or rounded to f16 8 at a time.
PTXMMA_MULTIVERSION
void store(Type d, const float* sum, std::size_t n, std::uint64_t* out) {
  std::size_t q = 0;
  if (d == Type::f16)
    for (; q + 8 <= n; q += 8) {
      UInts8 u, h;
      std::memcpy(&u, sum + q, sizeof u);
      f16_of_f32_rn_lanes(u, h);
      for (int l = 0; l < 8; ++l) out[q + static_cast<std::size_t>(l)] = h[l];
    }
  for (; q < n; ++q) {
    const auto bits = std::bit_cast<std::uint32_t>(sum[q]);
    out[q] = d == Type::f32 ? bits : f16_of_f32_rn(bits);
  }
}

}  // namespace

bool AddTreeTile::run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  const int M = s_.m, N = s_.n, K = s_.k;
  const auto mn = static_cast<std::size_t>(M * N);
  bool any = values(Type::f16, a, a_.size(), a_.data());
  any |= values(Type::f16, b, b_.size(), b_.data());
  any |= values(s_.c, c, mn, c_.data());
  for (int j = 0; j < N; ++j)  // B k-major
    for (int k = 0; k < K; ++k) bt_[static_cast<std::size_t>(k * N + j)] = b_[static_cast<std::size_t>(j * K + k)];
  if (any) {  // which rows, columns and C are NaN or Inf
    float x;
    for (int i = 0; i < M; ++i) {
      bool s = false;
      for (int k = 0; k < K; ++k) s |= !f16_value(a[i * K + k], x);
      a_special_[static_cast<std::size_t>(i)] = s;
    }
    for (int j = 0; j < N; ++j) {
      bool s = false;
      for (int k = 0; k < K; ++k) s |= !f16_value(b[j * K + k], x);
      b_special_[static_cast<std::size_t>(j)] = s;
    }
    for (std::size_t q = 0; q < mn; ++q) c_special_[q] = !value(s_.c, c[q], x);
  }
  {
    const HostRounding rn(Rounding::rn);  // and no flushing of subnormals
    apply(tree_.postfix, a_.data(), bt_.data(), c_.data(), stack_.data(), M, N, K);
  }
  store(s_.d, stack_.data(), mn, d);
  return any;
}

}  // namespace ptxmma
