#include "sim/model/fma_tile.hpp"

#include <bit>
#include <cmath>
#include <cstring>

#include "sim/model/host_rounding.hpp"
#include "sim/model/simd.hpp"

namespace ptxmma {
namespace {

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

namespace {

constexpr std::uint64_t kExpAll = 0x7ffULL << 52;  // NaN and Inf: every exponent bit set

// Whether any of n f64 codes is NaN or Inf.
bool any_special(const std::uint64_t* codes, std::size_t n) {
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < n; ++i) seen |= static_cast<std::uint64_t>((codes[i] & kExpAll) == kExpAll);
  return seen != 0;
}

// B into bt (k-major, np per row) and C into acc (np per row); whether A, B or C holds a NaN or
// Inf. One pass with no branch per code, in vector code where the CPU has AVX2.
PTXMMA_MULTIVERSION
bool prepare(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, double* bt, double* acc, int m,
             int n, int k, int np) {
  std::uint64_t seen = 0;
  for (int x = 0; x < m * k; ++x) seen |= static_cast<std::uint64_t>((a[x] & kExpAll) == kExpAll);
  for (int j = 0; j < n; ++j)
    for (int kk = 0; kk < k; ++kk) {
      const std::uint64_t code = b[j * k + kk];
      seen |= static_cast<std::uint64_t>((code & kExpAll) == kExpAll);
      bt[kk * np + j] = std::bit_cast<double>(code);
    }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const std::uint64_t code = c[i * n + j];
      seen |= static_cast<std::uint64_t>((code & kExpAll) == kExpAll);
      acc[i * np + j] = std::bit_cast<double>(code);
    }
  return seen != 0;
}

}  // namespace

bool FmaTile::run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  const int M = s_.m, N = s_.n, K = s_.k;
  const auto np = static_cast<std::size_t>(np_);
  // Most tiles hold no NaN or Inf: the rows, columns and C elements that do are found only then.
  const bool any = prepare(a, b, c, bt_.data(), acc_.data(), M, N, K, np_);
  if (any) {
    for (int i = 0; i < M; ++i)
      a_special_[static_cast<std::size_t>(i)] = any_special(a + static_cast<std::size_t>(i * K), static_cast<std::size_t>(K));
    for (int j = 0; j < N; ++j)
      b_special_[static_cast<std::size_t>(j)] = any_special(b + static_cast<std::size_t>(j * K), static_cast<std::size_t>(K));
    for (std::size_t q = 0; q < static_cast<std::size_t>(M * N); ++q) c_special_[q] = any_special(c + q, 1);
  }
  {
    const HostRounding mode(s_.rounding);
    fma_tile(a, bt_.data(), acc_.data(), M, K, np_);
  }
  for (int i = 0; i < M; ++i)
    std::memcpy(d + static_cast<std::size_t>(i * N), acc_.data() + static_cast<std::size_t>(i) * np,
                static_cast<std::size_t>(N) * sizeof(double));
  return any;
}

}  // namespace ptxmma
