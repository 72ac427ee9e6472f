// special_check: the GPU's approximate special functions against ptxmma's models, exhaustively.
//   special_check OUTDIR [FAMILY...]     (families: half rcp rsqrt sqrt ex2 lg2 f64 div rsqrt64 tanh sin cos; default all)
// For each family it runs the instruction that fills the table (the .ftz form) over all 2^32 f32
// inputs, builds the table through the model's own key (sim/numeric), then evaluates the model on
// all 2^32 inputs of every instruction of the family on the host's cores and prints inputs checked,
// mismatches and the first mismatches. Where a family has several candidate table sizes (ex2: how
// many fraction bits MUFU reads), the first with no mismatch is kept. Writes OUTDIR/NAME.table (encode_special_table: compress with xz to get
// configs/special/NAME.xz) and OUTDIR/edges.txt (edge-value test vectors: PTX input output).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/catalog/special_tables.hpp"
#include "sim/numeric/division.hpp"
#include "sim/numeric/exp2.hpp"
#include "sim/numeric/f32_bits.hpp"
#include "sim/numeric/log2.hpp"
#include "sim/numeric/sine_cosine.hpp"
#include "sim/numeric/half_special.hpp"
#include "sim/numeric/hyperbolic_tangent.hpp"
#include "sim/numeric/reciprocal.hpp"
#include "sim/numeric/special_table.hpp"
#include "sim/numeric/square_root.hpp"
#include "tools/capture/special_kernels.hpp"

using namespace ptxmma;

namespace {

constexpr std::uint64_t kAll = 1ull << 32;
std::uint32_t* g_out = nullptr;  // 2^32 results, pinned
std::string g_dir;
std::ofstream g_edges;
const unsigned kThreads = std::max(1u, std::thread::hardware_concurrency());

std::string fmt_hex(std::uint32_t x, int digits = 8) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%0*x", digits, x);
  return b;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F>
void parallel(std::uint64_t n, F f) {
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < kThreads; ++t) ts.emplace_back([&, t] { f(n * t / kThreads, n * (t + 1) / kThreads); });
  for (auto& t : ts) t.join();
}

// splitmix64: the next word of the sequence seeded by z.
std::uint64_t next_random(std::uint64_t& z) {
  z += 0x9e3779b97f4a7c15ull;
  std::uint64_t w = z;
  w = (w ^ (w >> 30)) * 0xbf58476d1ce4e5b9ull;
  w = (w ^ (w >> 27)) * 0x94d049bb133111ebull;
  return w ^ (w >> 31);
}

// Stops the program when a GPU call returns an error message.
void on_gpu(const char* err) {
  if (!err) return;
  std::fprintf(stderr, "GPU: %s\n", err);
  std::exit(1);
}

void gpu(int op, std::uint64_t n = kAll) {
  on_gpu(special_gpu_eval(op, 0, nullptr, n, g_out));
}

// Edge inputs of every f32 instruction: zeros, subnormals, normals' ends, infinities, NaN payloads,
// ex2's overflow and underflow thresholds, large arguments; then pseudo-random ones.
std::vector<std::uint32_t> edge_inputs() {
  std::vector<std::uint32_t> v = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000002, 0x00200000, 0x00200001, 0x00400000,
      0x807fffff, 0x007fffff, 0x00800000, 0x80800000, 0x00800001, 0x3f800000, 0xbf800000, 0x3f800001,
      0x3f7fffff, 0x40000000, 0x40400000, 0x7e800000, 0x7e800001, 0x7effffff, 0x7f000000, 0x7f7fffff,
      0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff,
      0x7fc12345, 0xffbfffff, 0x42fe0000, 0x42fffffe, 0x42ffffff, 0x43000000, 0x43000001, 0xc2fc0000,
      0xc2fbffff, 0xc2fc0001, 0xc2fe0000, 0xc3000000, 0xc3150000, 0xc315fffe, 0xc3160000, 0xc3160001,
      0xc3170000, 0x43800000, 0xc3800000, 0x33800000, 0xb3800000, 0x34000000, 0xb4000000, 0x2f800000,
      0x3e800000, 0x3f000000, 0xbf000000, 0x40490fdb, 0xc0490fdb, 0x40c90fdb, 0x3fc90fdb, 0x49742400,
      0x4b000000, 0x4b800000, 0x4b7fffff, 0x501502f9, 0x5f000000, 0x71800000, 0x4cbebc20, 0x3dcccccd,
      0x40a00000, 0xc0a00000, 0x41200000, 0xc1200000, 0x3a83126f, 0xba83126f};
  std::uint32_t s = 0x9e3779b9u;
  for (int i = 0; i < 48; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    v.push_back(s);
  }
  for (int i = 0; i < 16; ++i) {  // around 1, where most arguments of softmax and activations lie
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    v.push_back((0x3e000000u + s % 0x02000000u) | (i & 1u) << 31);
  }
  return v;
}

void write_edges(const char* ptx) {
  for (std::uint32_t x : edge_inputs()) g_edges << ptx << " " << fmt_hex(x) << " " << fmt_hex(g_out[x]) << "\n";
}


using Key = SpecialKey (*)(std::uint32_t, unsigned);
using Model = std::uint32_t (*)(const SpecialTable&, std::uint32_t);

SpecialTable build(const char* name, unsigned bits, Key key, ExponentField field = kF32Exponent) {
  std::vector<std::atomic<std::uint32_t>> tab(std::size_t{1} << bits);
  for (auto& t : tab) t.store(0xffffffffu, std::memory_order_relaxed);
  parallel(kAll, [&](std::uint64_t a, std::uint64_t b) {
    for (std::uint64_t x = a; x < b; ++x) {
      std::uint32_t e;
      const SpecialKey k = key(static_cast<std::uint32_t>(x), bits);
      if (!entry_for(k, g_out[x], e, field)) continue;
      if (tab[k.index].load(std::memory_order_relaxed) == 0xffffffffu) tab[k.index].store(e, std::memory_order_relaxed);
    }
  });
  SpecialTable t{name, bits, std::vector<std::uint32_t>(tab.size())};
  std::uint64_t unread = 0;
  for (std::size_t i = 0; i < tab.size(); ++i) {
    const std::uint32_t e = tab[i].load();
    // No input reads an unset entry; repeating the previous one keeps the stored differences small.
    if (e == 0xffffffffu) ++unread;
    t.entries[i] = e != 0xffffffffu ? e : i ? t.entries[i - 1] : 0;
  }
  std::printf("  table %s: 2^%u entries, %llu read by no input\n", name, bits, static_cast<unsigned long long>(unread));
  return t;
}

// Compares the model with the GPU on every input; prints the count, the first mismatches and, per
// sign and input exponent, where the mismatches lie. With `dump`, writes up to 2^18 mismatches
// (input, GPU, model; little-endian words) to OUTDIR/PTX.mismatches for study.
std::uint64_t check(const char* ptx, const SpecialTable& t, Model model, bool dump) {
  std::mutex mu;
  std::vector<std::uint32_t> found;
  std::vector<std::uint64_t> by_exp(512, 0);
  const double t0 = now();
  parallel(kAll, [&](std::uint64_t a, std::uint64_t b) {
    std::vector<std::uint32_t> mine;
    std::vector<std::uint64_t> hist(512, 0);
    for (std::uint64_t x = a; x < b; ++x) {
      if (model(t, static_cast<std::uint32_t>(x)) == g_out[x]) continue;
      ++hist[x >> 23];
      if (mine.size() < (1u << 18) / kThreads) mine.push_back(static_cast<std::uint32_t>(x));
    }
    std::lock_guard<std::mutex> g(mu);
    found.insert(found.end(), mine.begin(), mine.end());
    for (std::size_t i = 0; i < hist.size(); ++i) by_exp[i] += hist[i];
  });
  std::sort(found.begin(), found.end());
  std::uint64_t bad = 0;
  for (auto n : by_exp) bad += n;
  std::printf("%s: %llu inputs checked, %llu mismatches (%.1f s)", ptx, static_cast<unsigned long long>(kAll),
              static_cast<unsigned long long>(bad), now() - t0);
  for (std::size_t i = 0; i < found.size() && i < 12; ++i)
    std::printf(" [%08x: gpu %08x model %08x]", found[i], g_out[found[i]], model(t, found[i]));
  std::printf("\n");
  if (bad) {
    std::printf("  by sign:exponent:");
    for (std::size_t i = 0; i < by_exp.size(); ++i)
      if (by_exp[i]) std::printf(" %c%zu:%llu", i >> 8 ? '-' : '+', i & 0xff, static_cast<unsigned long long>(by_exp[i]));
    std::printf("\n");
  }
  if (bad && dump) {
    std::ofstream f(g_dir + "/" + ptx + ".mismatches", std::ios::binary);
    for (std::uint32_t x : found) {
      const std::uint32_t w[3] = {x, g_out[x], model(t, x)};
      f.write(reinterpret_cast<const char*>(w), sizeof w);
    }
  }
  std::fflush(stdout);
  return bad;
}

void save(const SpecialTable& t) {
  std::ofstream f(g_dir + "/" + t.name + ".table", std::ios::binary);
  const std::string data = encode_special_table(t);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
}

struct Member {
  const char* ptx;
  int op;
  Model model;
};

// One table, filled from members[0]'s results (the .ftz form), checked against every member.
void family(const char* name, Key key, std::vector<unsigned> bits, std::vector<Member> members) {
  const double t0 = now();
  gpu(members[0].op);
  write_edges(members[0].ptx);
  for (std::size_t c = 0; c < bits.size(); ++c) {
    SpecialTable t = build(name, bits[c], key);
    const bool last = c + 1 == bits.size();
    if (check(members[0].ptx, t, members[0].model, last) != 0 && !last) continue;
    save(t);
    for (std::size_t m = 1; m < members.size(); ++m) {
      gpu(members[m].op);
      write_edges(members[m].ptx);
      check(members[m].ptx, t, members[m].model, true);
    }
    break;
  }
  std::printf("  %s done in %.1f s\n", name, now() - t0);
  std::fflush(stdout);
}

void half_family(const char* name, int op, int op_x2, const char* ptx_x2) {
  gpu(op, 1u << 16);
  SpecialTable t{name, 16, std::vector<std::uint32_t>(g_out, g_out + (1u << 16))};
  save(t);
  for (std::uint32_t x : {0x0000u, 0x8000u, 0x0001u, 0x03ffu, 0x0400u, 0x3c00u, 0xbc00u, 0x7c00u, 0xfc00u,
                          0x7e00u, 0x7c01u, 0xfe00u, 0x7fffu, 0x4b00u, 0xcb00u, 0x3f80u, 0xbf80u, 0x7f80u,
                          0xff80u, 0x7fc0u, 0x7f81u, 0x0080u, 0x007fu, 0x4300u, 0xc300u, 0x4c00u, 0xcc00u,
                          0x5640u, 0xd640u, 0x3555u, 0xb555u})
    g_edges << name << " " << fmt_hex(x, 4) << " " << fmt_hex(g_out[x], 4) << "\n";
  // The x2 form: every input in each lane, the other lane a different input.
  std::vector<std::uint32_t> in(1u << 16), out(1u << 16);
  for (std::uint32_t k = 0; k < in.size(); ++k) in[k] = k | ((k * 40503u + 12345u) & 0xffffu) << 16;
  on_gpu(special_gpu_eval(op_x2, 0, in.data(), in.size(), out.data()));
  std::uint64_t bad = 0;
  for (std::uint32_t k = 0; k < in.size(); ++k) bad += half_special_x2(t, in[k]) != out[k];
  std::printf("%s: 65536 inputs checked, 0 mismatches (the table is the GPU's results)\n", name);
  std::printf("%s: 65536 input pairs checked, %llu mismatches\n", ptx_x2, static_cast<unsigned long long>(bad));
  std::fflush(stdout);
}

// lg2: MUFU.LG2 of 2^e * 1.f is taken to be e + T(f) rounded toward zero, 1.0 apart. Every
// binade's result bounds T(f) to an open interval; intersected over the 254 binades of positive
// normals, in fixed point with 80 fraction bits. Prints, per grid 2^-F, how many f have no grid
// point inside, and returns the table on the model's grid (sim/numeric/log2.hpp), or an empty
// table when some f has no point of it.
__extension__ typedef __int128 i128;  // GCC and clang; this program is built with nvcc's host compiler
SpecialTable derive_lg2() {
  constexpr int kS = 80;
  const std::uint32_t n = 1u << 23;
  std::vector<i128> lo(n), hi(n);
  parallel(n, [&](std::uint64_t a, std::uint64_t b) {
    for (std::uint64_t f = a; f < b; ++f) {
      i128 L = -(i128{1} << 100), H = i128{1} << 100;
      for (std::int32_t e = -126; e <= 127; ++e) {
        if (e == 0 && f == 0) continue;  // 1.0 -> 0
        const std::uint32_t x = (static_cast<std::uint32_t>(e + 127) << 23) | static_cast<std::uint32_t>(f);
        const std::uint32_t r = g_out[x];
        const std::uint32_t re = (r >> 23) & 0xff;
        if (re == 255) continue;
        i128 mag = 0, up = 1;  // r as a fixed-point value, and the gap to its neighbour away from zero
        if (re != 0 || (r & 0x7fffff) != 0) {
          const std::int32_t ue = (re ? static_cast<std::int32_t>(re) : 1) - 150 + kS;
          const std::uint32_t m = (r & 0x7fffff) | (re ? 0x800000u : 0u);
          mag = ue >= 0 ? i128{m} << ue : i128{m} >> -ue;
          up = ue >= 0 ? i128{1} << ue : 1;
        }
        const bool neg = (r >> 31) != 0;
        const i128 vlo = neg ? -mag - up : mag - 1, vhi = neg ? -mag + 1 : mag + up;
        const i128 E = static_cast<i128>(e) << kS;
        L = std::max(L, vlo - E);
        H = std::min(H, vhi - E);
      }
      lo[f] = L;
      hi[f] = H;
    }
  });
  std::uint64_t empty = 0;
  for (std::uint32_t f = 0; f < n; ++f) empty += lo[f] + 1 >= hi[f];
  std::printf("  lg2: %llu of 2^23 fractions have no T consistent with every binade\n", static_cast<unsigned long long>(empty));
  std::printf("  lg2: fractions without a point of the grid 2^-F inside:");
  for (int F = 30; F <= 40; ++F) {
    std::uint64_t miss = 0;
    const i128 step = i128{1} << (kS - F);
    for (std::uint32_t f = 0; f < n; ++f) miss += (lo[f] / step + 1) * step >= hi[f];  // lo > 0 (T(0) > 2^-24)
    std::printf(" F=%d:%llu", F, static_cast<unsigned long long>(miss));
  }
  std::printf("\n");
  std::fflush(stdout);
  // T on the model's grid: in each interval, the point nearest the line through the two before it,
  // so that the stored second differences stay small.
  const i128 step = i128{1} << (kS - kLg2FractionBits);
  SpecialTable t{"lg2.approx.f32", 24, std::vector<std::uint32_t>(std::size_t{2} * n)};
  std::int64_t t1 = 0, t2 = 0;
  for (std::uint32_t f = 0; f < n; ++f) {
    const auto first = static_cast<std::int64_t>(lo[f] / step + 1), last = static_cast<std::int64_t>((hi[f] - 1) / step);
    if (first > last) {
      std::printf("  lg2: no T on the grid 2^-%d for f = %#x\n", kLg2FractionBits, f);
      return {};
    }
    const std::int64_t want = f >= 2 ? 2 * t1 - t2 : first;
    const std::int64_t v = std::clamp(want, first, last);
    t.entries[f] = static_cast<std::uint32_t>(v);
    t.entries[n + f] = static_cast<std::uint32_t>(v >> 32);
    t2 = t1;
    t1 = v;
  }
  return t;
}

void lg2_family() {
  const double t0 = now();
  gpu(kLg2Ftz);
  write_edges("lg2.approx.ftz.f32");
  SpecialTable t = derive_lg2();
  if (!t.entries.empty()) {
    save(t);
    check("lg2.approx.ftz.f32", t, [](const SpecialTable& t, std::uint32_t x) { return lg2_approx_f32(t, x, true); }, true);
    gpu(kLg2);
    write_edges("lg2.approx.f32");
    check("lg2.approx.f32", t, [](const SpecialTable& t, std::uint32_t x) { return lg2_approx_f32(t, x, false); }, true);
  }
  std::printf("  lg2 done in %.1f s\n", now() - t0);
  std::fflush(stdout);
}

// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 over every high word, with a pseudo-random low word.
void f64_family(const char* name, int op, Key key, unsigned bits, Model model) {
  const double t0 = now();
  std::uint32_t low_or = 0;
  on_gpu(special_gpu_eval64(op, 0, kAll, g_out, &low_or));
  std::printf("%s: OR of every result's low word: %s\n", name, fmt_hex(low_or).c_str());
  write_edges(name);  // f64 forms: the input's and the result's high words
  SpecialTable t = build(name, bits, key, kF64HighExponent);
  check(name, t, model, true);
  save(t);
  std::printf("  %s done in %.1f s\n", name, now() - t0);
  std::fflush(stdout);
}

// rsqrt.approx.f64 on whole registers: uniform random bits, positive normals of every exponent,
// positive subnormals, and the edge inputs (high words of edge_inputs() with a few low words).
void rsqrt_f64_family() {
  const double t0 = now();
  constexpr std::uint64_t kBatch = 1ull << 28;
  std::vector<std::uint64_t> in(kBatch), out(kBatch);
  const SpecialTable& t = special_table(SpecialTableId::rsqrt_f64);
  std::uint64_t checked = 0, bad = 0;
  for (int batch = 0; batch < 4; ++batch) {
    parallel(kBatch, [&](std::uint64_t s, std::uint64_t e) {
      std::uint64_t z = 0x9e3779b97f4a7c15ull * (s + 7) + static_cast<std::uint64_t>(batch);
      for (std::uint64_t i = s; i < e; ++i) {
        std::uint64_t w = next_random(z);
        if (batch == 1 || batch == 2) w &= ~(1ull << 63);               // positive
        if (batch == 2) w = (w & 0x800fffffffffffffull) | ((w >> 52) % 2046 + 1) << 52;  // normal
        if (batch == 3) w &= 0x000fffffffffffffull;                   // subnormal
        in[i] = w;
      }
    });
    on_gpu(special_gpu_rsqrt_f64(in.data(), kBatch, out.data()));
    std::atomic<std::uint64_t> miss{0};
    std::mutex mu;
    parallel(kBatch, [&](std::uint64_t s, std::uint64_t e) {
      std::uint64_t m = 0;
      for (std::uint64_t i = s; i < e; ++i) {
        const std::uint64_t r = rsqrt_approx_f64(t, in[i]);
        if (r == out[i]) continue;
        if (m++ < 2) {
          std::lock_guard<std::mutex> g(mu);
          std::printf("  rsqrt.approx.f64 batch %d: %016llx gpu %016llx model %016llx\n", batch,
                      static_cast<unsigned long long>(in[i]), static_cast<unsigned long long>(out[i]),
                      static_cast<unsigned long long>(r));
        }
      }
      miss += m;
    });
    checked += kBatch;
    bad += miss;
  }
  std::printf("rsqrt.approx.f64: %llu inputs checked, %llu mismatches\n", static_cast<unsigned long long>(checked),
              static_cast<unsigned long long>(bad));
  std::vector<std::uint64_t> ein, eout;
  for (std::uint32_t h : edge_inputs())
    for (std::uint64_t lo : {0x0ull, 0x1ull, 0xffffffffull}) ein.push_back(std::uint64_t{h} << 32 | lo);
  eout.resize(ein.size());
  on_gpu(special_gpu_rsqrt_f64(ein.data(), ein.size(), eout.data()));
  char b[64];
  for (std::size_t i = 0; i < ein.size(); ++i) {
    std::snprintf(b, sizeof b, "0x%016llx 0x%016llx", static_cast<unsigned long long>(ein[i]),
                  static_cast<unsigned long long>(eout[i]));
    g_edges << "rsqrt.approx.f64 " << b << "\n";
  }
  std::printf("  rsqrt.approx.f64 done in %.1f s\n", now() - t0);
  std::fflush(stdout);
}

// div.approx/div.full (.ftz) on pairs: uniform bits, then quotients near 1 (normal results), then
// divisors at the ends of the range (zero, subnormal, above 2^126, inf, NaN) with any dividend.
void div_family() {
  const double t0 = now();
  constexpr std::uint64_t kBatch = 1ull << 28;
  std::vector<std::uint32_t> a(kBatch), b(kBatch);
  std::uint64_t checked[4] = {}, bad[4] = {};
  const char* names[4] = {"div.approx.ftz.f32", "div.approx.f32", "div.full.ftz.f32", "div.full.f32"};
  const SpecialTable& rcp = special_table(SpecialTableId::rcp);
  for (int batch = 0; batch < 3; ++batch) {
    parallel(kBatch, [&](std::uint64_t s, std::uint64_t e) {
      std::uint64_t z = 0x9e3779b97f4a7c15ull * (s + 1) + static_cast<std::uint64_t>(batch);
      for (std::uint64_t i = s; i < e; ++i) {
        const std::uint64_t w = next_random(z);
        std::uint32_t x = static_cast<std::uint32_t>(w), y = static_cast<std::uint32_t>(w >> 32);
        if (batch == 1) {  // exponents within +-30 of each other around the middle of the range
          x = (x & 0x807fffffu) | ((100u + (x >> 24) % 55u) << 23);
          y = (y & 0x807fffffu) | ((100u + (y >> 24) % 55u) << 23);
        } else if (batch == 2) {  // divisors at the ends of the range
          static constexpr std::uint32_t kExp[] = {0, 0, 1, 2, 252, 253, 253, 254, 254, 255};
          y = (y & 0x807fffffu) | (kExp[(y >> 23) % 10] << 23);
        }
        a[i] = x;
        b[i] = y;
      }
    });
    for (int op = 0; op < 4; ++op) {
      on_gpu(special_gpu_eval2(op, a.data(), b.data(), kBatch, g_out));
      std::atomic<std::uint64_t> miss{0};
      std::mutex mu;
      std::vector<std::uint64_t> first;
      parallel(kBatch, [&](std::uint64_t s, std::uint64_t e) {
        std::uint64_t m = 0;
        for (std::uint64_t i = s; i < e; ++i) {
          const std::uint32_t r = op < 2 ? div_approx_f32(rcp, a[i], b[i], op == 0) : div_full_f32(rcp, a[i], b[i], op == 2);
          if (r == g_out[i]) continue;
          if (m++ < 2) {
            std::lock_guard<std::mutex> g(mu);
            first.push_back(i);
          }
        }
        miss += m;
      });
      checked[op] += kBatch;
      bad[op] += miss;
      for (std::size_t k = 0; k < first.size() && k < 6; ++k) {
        const std::uint64_t i = first[k];
        const std::uint32_t r = op < 2 ? div_approx_f32(rcp, a[i], b[i], op == 0) : div_full_f32(rcp, a[i], b[i], op == 2);
        std::printf("  %s batch %d: %s / %s gpu %s model %s\n", names[op], batch, fmt_hex(a[i]).c_str(),
                    fmt_hex(b[i]).c_str(), fmt_hex(g_out[i]).c_str(), fmt_hex(r).c_str());
      }
    }
  }
  for (int op = 0; op < 4; ++op)
    std::printf("%s: %llu input pairs checked, %llu mismatches\n", names[op], static_cast<unsigned long long>(checked[op]),
                static_cast<unsigned long long>(bad[op]));
  // Edge pairs for the test vectors.
  const std::vector<std::uint32_t> ex = edge_inputs();
  std::vector<std::uint32_t> ea, eb;
  for (std::size_t i = 0; i < 80 && i < ex.size(); ++i)
    for (std::uint32_t y : {0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x3f800000u, 0xc0400000u,
                            0x7e800000u, 0x7e800001u, 0x7f7fffffu, 0x7f800000u, 0x7fffffffu, 0x3dcccccdu}) {
      ea.push_back(ex[i]);
      eb.push_back(y);
    }
  for (int op = 0; op < 4; ++op) {
    on_gpu(special_gpu_eval2(op, ea.data(), eb.data(), ea.size(), g_out));
    for (std::size_t i = 0; i < ea.size(); ++i)
      g_edges << names[op] << " " << fmt_hex(ea[i]) << " " << fmt_hex(eb[i]) << " " << fmt_hex(g_out[i]) << "\n";
  }
  std::printf("  div done in %.1f s\n", now() - t0);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: special_check OUTDIR [half|rcp|rsqrt|sqrt|ex2|lg2|f64|div|rsqrt64|tanh|sin|cos ...]\n");
    return 2;
  }
  g_dir = argv[1];
  std::vector<std::string> which(argv + 2, argv + argc);
  auto want = [&](const char* f) { return which.empty() || std::find(which.begin(), which.end(), f) != which.end(); };
  g_out = static_cast<std::uint32_t*>(special_host_alloc(kAll * 4));
  if (!g_out) {
    std::fprintf(stderr, "cannot allocate 16 GiB of pinned host memory\n");
    return 1;
  }
  g_edges.open(g_dir + "/edges.txt");
  std::printf("special_check: %u host threads\n", kThreads);
  if (want("half")) {
    half_family("ex2.approx.f16", kEx2F16, kEx2F16x2, "ex2.approx.f16x2");
    half_family("ex2.approx.ftz.bf16", kEx2Bf16, kEx2Bf16x2, "ex2.approx.ftz.bf16x2");
    half_family("tanh.approx.f16", kTanhF16, kTanhF16x2, "tanh.approx.f16x2");
    half_family("tanh.approx.bf16", kTanhBf16, kTanhBf16x2, "tanh.approx.bf16x2");
  }
  if (want("rcp"))
    family("rcp.approx.f32", [](std::uint32_t x, unsigned) { return rcp_approx_key(x); }, {23},
           {{"rcp.approx.ftz.f32", kRcpFtz, [](const SpecialTable& t, std::uint32_t x) { return rcp_approx_f32(t, x, true); }},
            {"rcp.approx.f32", kRcp, [](const SpecialTable& t, std::uint32_t x) { return rcp_approx_f32(t, x, false); }}});
  if (want("rsqrt"))
    family("rsqrt.approx.f32", [](std::uint32_t x, unsigned) { return rsqrt_approx_key(x); }, {24},
           {{"rsqrt.approx.ftz.f32", kRsqrtFtz, [](const SpecialTable& t, std::uint32_t x) { return rsqrt_approx_f32(t, x, true); }},
            {"rsqrt.approx.f32", kRsqrt, [](const SpecialTable& t, std::uint32_t x) { return rsqrt_approx_f32(t, x, false); }}});
  if (want("sqrt"))
    family("sqrt.approx.f32", [](std::uint32_t x, unsigned) { return sqrt_approx_key(x); }, {24},
           {{"sqrt.approx.ftz.f32", kSqrtFtz, [](const SpecialTable& t, std::uint32_t x) { return sqrt_approx_f32(t, x, true); }},
            {"sqrt.approx.f32", kSqrt, [](const SpecialTable& t, std::uint32_t x) { return sqrt_approx_f32(t, x, false); }}});
  if (want("ex2"))
    family("ex2.approx.f32", ex2_approx_key, {25, 26, 27},
           {{"ex2.approx.ftz.f32", kEx2Ftz, [](const SpecialTable& t, std::uint32_t x) { return ex2_approx_f32(t, x, true); }},
            {"ex2.approx.f32", kEx2, [](const SpecialTable& t, std::uint32_t x) { return ex2_approx_f32(t, x, false); }}});
  if (want("lg2")) lg2_family();
  if (want("f64")) {
    f64_family("rcp.approx.ftz.f64", kRcpFtzF64, [](std::uint32_t x, unsigned) { return rcp_approx_f64_key(x); }, 20,
               [](const SpecialTable& t, std::uint32_t x) {
                 return static_cast<std::uint32_t>(rcp_approx_ftz_f64(t, std::uint64_t{x} << 32) >> 32);
               });
    f64_family("rsqrt.approx.ftz.f64", kRsqrtFtzF64, [](std::uint32_t x, unsigned) { return rsqrt_approx_f64_key(x); }, 21,
               [](const SpecialTable& t, std::uint32_t x) {
                 return static_cast<std::uint32_t>(rsqrt_approx_ftz_f64(t, std::uint64_t{x} << 32) >> 32);
               });
  }
  if (want("div")) div_family();
  if (want("rsqrt64")) rsqrt_f64_family();
  if (want("sin"))
    family("sin.approx.f32", sin_approx_key, {25},
           {{"sin.approx.ftz.f32", kSinFtz, [](const SpecialTable& t, std::uint32_t x) { return sin_approx_f32(t, x); }},
            {"sin.approx.f32", kSin, [](const SpecialTable& t, std::uint32_t x) { return sin_approx_f32(t, x); }}});
  if (want("cos"))
    family("cos.approx.f32", cos_approx_key, {25},
           {{"cos.approx.ftz.f32", kCosFtz, [](const SpecialTable& t, std::uint32_t x) { return cos_approx_f32(t, x); }},
            {"cos.approx.f32", kCos, [](const SpecialTable& t, std::uint32_t x) { return cos_approx_f32(t, x); }}});
  if (want("tanh"))
    family("tanh.approx.f32", [](std::uint32_t x, unsigned) { return tanh_approx_key(x); }, {23},
           {{"tanh.approx.f32", kTanhF32, [](const SpecialTable& t, std::uint32_t x) { return tanh_approx_f32(t, x); }}});
  return 0;
}
