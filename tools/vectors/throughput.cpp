#include "tools/vectors/throughput.hpp"

#include <time.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "isa/wmma_instruction.hpp"
#include "isa/wgmma_instruction.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma {
namespace {

std::uint64_t random_element(Type t, std::mt19937_64& rng) {
  const TypeInfo& ti = info(t);
  if (!ti.is_float) return rng() & ti.mask();
  const std::uint64_t frac = rng() & ((1ULL << ti.man_bits) - 1);
  const int spread = ti.exp_bits >= 4 ? 4 : 1;
  const auto biased = static_cast<std::uint64_t>(ti.bias - spread + static_cast<int>(rng() % (2 * spread + 1)));
  return ((rng() & 1) ? ti.sign_bit() : 0) | (biased << ti.man_bits) | frac;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

Execution prepare_mma(const std::string& ptx, const std::string& arch, std::mt19937_64& rng, long& mnk) {
  const MmaInstruction ins = parse_warp_mma(ptx, arch);
  const MatrixVariant& v = *ins.variant;
  const Model& model = models_for(arch).select(v.family, v.a, v.d);
  struct State {
    MmaExecutor exec;
    std::vector<std::uint32_t> a, b, c, d;
    int wa, wb, wc;
    // Sparse: indices 0 and 1 in every chunk (0b0100), defined for every pattern and spelling.
    std::vector<std::uint32_t> meta = std::vector<std::uint32_t>(32, 0x44444444U);
    // Block-scaled: random scales near 1 in every byte, selectors 0.
    std::vector<std::uint32_t> scale_a{}, scale_b{};
  };
  auto s = std::make_shared<State>(State{MmaExecutor(v, model, MmaOptions{ins.rounding.value_or(Rounding::rn), ins.satfinite}),
                                         random_operand(v.codec(Operand::a), rng), random_operand(v.codec(Operand::b), rng),
                                         random_operand(v.codec(Operand::c), rng),
                                         std::vector<std::uint32_t>(v.codec(Operand::d).words()), v.words(Operand::a),
                                         v.words(Operand::b), v.words(Operand::c)});
  if (v.block_scale)
    for (auto* scales : {&s->scale_a, &s->scale_b})
      for (int lane = 0; lane < 32; ++lane) {
        std::uint32_t w = 0;
        for (int byte = 0; byte < 4; ++byte) w |= static_cast<std::uint32_t>(random_element(*v.stype, rng)) << (8 * byte);
        scales->push_back(w);
      }
  mnk = static_cast<long>(v.shape.m) * v.shape.n * (v.sparse == Sparsity::dense ? v.shape.k : v.shape.k / 2) *
        v.ld->problems;
  return [s] { s->exec.run({s->a, s->wa}, {s->b, s->wb}, {s->c, s->wc}, s->d, {s->meta, 0}, {s->scale_a, s->scale_b}); };
}

// A and B K-major without swizzle: 8-row core matrices of 16-byte rows, LBO 128 (the next 16
// bytes of K), SBO = 8 rows of the whole K; A at 0, B after it.
Execution prepare_wgmma(const std::string& ptx, const std::string& arch, std::mt19937_64& rng, long& mnk) {
  const MatrixVariant& v = *parse_wgmma(ptx, arch).variant;
  const Model& model = models_for(arch).select(v.family, v.a, v.d);
  struct State {
    WgmmaExecutor exec;
    SharedMemory smem;
    std::vector<std::uint32_t> c, d;
    WgmmaInputs in;
    // Sparse: indices 0 and 1 in every chunk (as for mma.sp), selector 0.
    std::vector<std::uint32_t> meta = std::vector<std::uint32_t>(128, 0x44444444U);
  };
  auto s = std::make_shared<State>(State{WgmmaExecutor(v, model, WgmmaOperands{}), SharedMemory(), {}, {}, {}});
  const int bits = element_bits(v.a);
  const auto row_bytes = static_cast<std::uint32_t>(v.shape.k * bits / 8);
  const std::uint32_t b_start = 64 * row_bytes;
  const auto fill = [&](Type t, std::uint32_t start, int rows) {
    const TypeInfo& ti = info(t);
    const int per = 8 / std::min(bits, 8);  // elements per byte (b1: 8)
    for (std::uint32_t byte = 0; byte < static_cast<std::uint32_t>(rows) * row_bytes; byte += std::max(bits / 8, 1)) {
      std::uint64_t raw = 0;
      for (int e = 0; e < per; ++e) raw |= container_of(ti, random_element(t, rng)) << (e * bits);
      s->smem.store(start + byte, std::max(bits / 8, 1), raw);
    }
  };
  fill(v.a, 0, 64);
  fill(v.b, b_start, v.shape.n);
  s->in.shared = s->smem.bytes();
  if (v.is_sparse()) s->in.meta = s->meta;
  s->in.desc_a = MatrixDescriptor::encode(0, 128, 8 * row_bytes, 0, Swizzle::none);
  s->in.desc_b = MatrixDescriptor::encode(b_start, 128, 8 * row_bytes, 0, Swizzle::none);
  s->c.resize(static_cast<std::size_t>(128 * v.regs(Operand::d)));
  const int dbits = element_bits(v.d);
  for (auto& w : s->c)
    for (int e = 0; e < 32 / dbits; ++e) w = set_element(w, dbits, e, static_cast<std::uint32_t>(random_element(v.d, rng)));
  s->d.resize(s->c.size());
  s->in.c = s->c;
  mnk = 64L * v.shape.n * v.a_cols();
  return [s] { s->exec.run(s->in, s->d); };
}

}  // namespace

std::vector<std::uint32_t> random_operand(const RegisterCodec& codec, std::mt19937_64& rng) {
  const int bits = codec.bits();
  const Type t = codec.type();
  std::vector<std::uint32_t> words(codec.words());
  for (std::size_t w = 0; w < words.size(); ++w) {
    if (bits == 64) {
      const std::uint64_t v = random_element(t, rng);
      words[w] = static_cast<std::uint32_t>(v);
      words[++w] = static_cast<std::uint32_t>(v >> 32);
      continue;
    }
    for (int e = 0; e < 32 / bits; ++e)
      words[w] = set_element(words[w], bits, e, static_cast<std::uint32_t>(element_raw(t, codec.container(), random_element(t, rng))));
  }
  return words;
}

Execution prepare_execution(const std::string& ptx, const std::string& arch, std::mt19937_64& rng, long& mnk) {
  if (ptx.rfind("wgmma", 0) == 0) return prepare_wgmma(ptx, arch, rng, mnk);
  return prepare_mma(ptx, arch, rng, mnk);
}

Throughput measure(const std::string& ptx, const std::string& arch, double seconds, int jobs, std::uint64_t seed) {
  Throughput t{ptx, 0, 0, 0, jobs, 0};
  std::vector<Execution> runs;
  for (int j = 0; j < jobs; ++j) {
    std::mt19937_64 rng(seed + static_cast<std::uint64_t>(j));
    runs.push_back(prepare_execution(ptx, arch, rng, t.mnk));
  }
  std::atomic<long> total{0};
  std::atomic<double> cpu{0};
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(seconds);
  const auto worker = [&](int id) {
    const Execution& run = runs[static_cast<std::size_t>(id)];
    const double cpu_start = thread_cpu_seconds();
    long n = 0;
    do {
      for (int i = 0; i < 16; ++i) run();
      n += 16;
    } while (std::chrono::steady_clock::now() < deadline);
    total += n;
    const double used = thread_cpu_seconds() - cpu_start;
    for (double seen = cpu.load(); !cpu.compare_exchange_weak(seen, seen + used);) {
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker, j);
  worker(0);
  for (auto& th : threads) th.join();
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.instructions = total.load();
  t.cpu_seconds = cpu.load();
  return t;
}

}  // namespace ptxmma
