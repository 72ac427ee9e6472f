#include "sim/model/fma_tile.hpp"

#include <bit>
#include <cmath>
#include <cstring>

#include "sim/model/host_rounding.hpp"
#include "sim/model/simd.hpp"

namespace ptxmma {
namespace {

bool special_code(std::uint64_t code) { return (code >> 52 & 0x7ff) == 0x7ff; }

typedef double Doubles __attribute__((vector_size(32)));  // 4 columns

// acc = fma(s, y, acc) lane by lane: one vector FMA where the target has FMA.
[[gnu::always_inline]] inline void fma_lanes(Doubles& acc, const Doubles& s, const Doubles& y) {
  for (int l = 0; l < 4; ++l) acc[l] = std::fma(s[l], y[l], acc[l]);
}

// R rows of A over every column, 8 columns at a time: 2R independent vector chains in registers.
template <int R>
[[gnu::always_inline]] inline void fma_rows(const std::uint64_t* a, const double* bt, double* acc, int k, int np) {
  for (int j0 = 0; j0 < np; j0 += 8) {
    Doubles lo[R], hi[R];
    for (int r = 0; r < R; ++r) {
      std::memcpy(&lo[r], acc + r * np + j0, sizeof(Doubles));
      std::memcpy(&hi[r], acc + r * np + j0 + 4, sizeof(Doubles));
    }
    for (int kk = 0; kk < k; ++kk) {
      Doubles y_lo, y_hi;
      std::memcpy(&y_lo, bt + kk * np + j0, sizeof(Doubles));
      std::memcpy(&y_hi, bt + kk * np + j0 + 4, sizeof(Doubles));
      for (int r = 0; r < R; ++r) {
        const auto x = std::bit_cast<double>(a[r * k + kk]);
        const Doubles s = {x, x, x, x};  // not Doubles{} + x: +0 + -0 is +0
        fma_lanes(lo[r], s, y_lo);
        fma_lanes(hi[r], s, y_hi);
      }
    }
    for (int r = 0; r < R; ++r) {
      std::memcpy(acc + r * np + j0, &lo[r], sizeof(Doubles));
      std::memcpy(acc + r * np + j0 + 4, &hi[r], sizeof(Doubles));
    }
  }
}

// Not inlined into the caller: the rounding mode is set around a call, so no floating-point
// operation can be moved across the change.
PTXMMA_FMA_MULTIVERSION [[gnu::noinline]]
void fma_tile(const std::uint64_t* a, const double* bt, double* acc, int m, int k, int np) {
  int i = 0;
  for (; i + 4 <= m; i += 4) fma_rows<4>(a + i * k, bt, acc + i * np, k, np);
  for (; i < m; ++i) fma_rows<1>(a + i * k, bt, acc + i * np, k, np);
}

}  // namespace

std::unique_ptr<FmaTile> FmaTile::make(const Model& m, const TileSpec& s) {
  if (m.engine != Engine::fma_chain) return nullptr;
  if (s.a != Type::f64 || s.b != Type::f64 || s.c != Type::f64 || s.d != Type::f64) return nullptr;
  if (s.rounding == Rounding::rna) return nullptr;  // no IEEE mode of the host
  return std::make_unique<FmaTile>(s);
}

FmaTile::FmaTile(const TileSpec& s)
    : s_(s),
      np_((s.n + kLanes - 1) / kLanes * kLanes),
      bt_(static_cast<std::size_t>(s.k) * static_cast<std::size_t>(np_)),
      acc_(static_cast<std::size_t>(s.m) * static_cast<std::size_t>(np_)),
      a_special_(static_cast<std::size_t>(s.m)),
      b_special_(static_cast<std::size_t>(s.n)),
      c_special_(static_cast<std::size_t>(s.m) * static_cast<std::size_t>(s.n)) {}

bool FmaTile::run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  const int M = s_.m, N = s_.n, K = s_.k;
  const auto np = static_cast<std::size_t>(np_);
  bool any = false;
  for (int i = 0; i < M; ++i) {
    bool s = false;
    for (int k = 0; k < K; ++k) s |= special_code(a[i * K + k]);
    a_special_[static_cast<std::size_t>(i)] = s;
    any |= s;
  }
  for (int j = 0; j < N; ++j) {
    bool s = false;
    for (int k = 0; k < K; ++k) {
      const std::uint64_t code = b[j * K + k];
      s |= special_code(code);
      bt_[static_cast<std::size_t>(k) * np + static_cast<std::size_t>(j)] = std::bit_cast<double>(code);
    }
    b_special_[static_cast<std::size_t>(j)] = s;
    any |= s;
  }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const std::uint64_t code = c[i * N + j];
      const bool s = special_code(code);
      c_special_[static_cast<std::size_t>(i * N + j)] = s;
      any |= s;
      acc_[static_cast<std::size_t>(i) * np + static_cast<std::size_t>(j)] = std::bit_cast<double>(code);
    }
  {
    const HostRounding mode(s_.rounding);
    fma_tile(a, bt_.data(), acc_.data(), M, K, np_);
  }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      d[i * N + j] = std::bit_cast<std::uint64_t>(acc_[static_cast<std::size_t>(i) * np + static_cast<std::size_t>(j)]);
  return any;
}

}  // namespace ptxmma
