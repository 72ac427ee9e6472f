#include "tools/vectors/throughput.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include "isa/mma_instruction.hpp"
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

}  // namespace

std::vector<std::uint32_t> random_operand(const FragmentLayout& l, Type t, Container c, std::mt19937_64& rng) {
  const int bits = element_bits(t, c);
  const int per_lane = words_per_lane(l, t, c);
  std::vector<std::uint32_t> words(static_cast<std::size_t>(l.lanes * per_lane));
  for (std::size_t w = 0; w < words.size(); ++w) {
    if (bits == 64) {
      const std::uint64_t v = random_element(t, rng);
      words[w] = static_cast<std::uint32_t>(v);
      words[++w] = static_cast<std::uint32_t>(v >> 32);
      continue;
    }
    for (int e = 0; e < 32 / bits; ++e) {
      const std::uint64_t code = random_element(t, rng);
      const std::uint32_t raw = (t == Type::e2m1 || t == Type::e3m2 || t == Type::e2m3)
                                    ? to_container(t, c, static_cast<std::uint32_t>(code))
                                    : static_cast<std::uint32_t>(container_of(info(t), code));
      words[w] = set_element(words[w], bits, e, raw);
    }
  }
  return words;
}

Throughput measure_mma(const std::string& ptx, const std::string& arch, double seconds, int jobs, std::uint64_t seed) {
  const MmaInstruction ins = parse_mma(ptx, arch);
  const MmaVariant& v = *ins.variant;
  const Model& model = models_for(arch).select(v.family, v.a, v.d);
  const MmaOptions opts{ins.rounding.value_or(Rounding::rn), ins.satfinite};
  std::atomic<long> total{0};
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(seconds);
  const auto worker = [&](int id) {
    std::mt19937_64 rng(seed + static_cast<std::uint64_t>(id));
    const MmaExecutor exec(v, model, opts);
    const int wa = words_per_lane(*v.la, v.a, v.container), wb = words_per_lane(*v.lb, v.b, v.container);
    const int wc = words_per_lane(*v.lc, v.c, v.container);
    const auto a = random_operand(*v.la, v.a, v.container, rng), b = random_operand(*v.lb, v.b, v.container, rng);
    const auto c = random_operand(*v.lc, v.c, v.container, rng);
    std::vector<std::uint32_t> d(static_cast<std::size_t>(32 * words_per_lane(*v.ld, v.d, v.container)));
    long n = 0;
    do {
      for (int i = 0; i < 64; ++i) exec.run({a, wa}, {b, wb}, {c, wc}, d);
      n += 64;
    } while (std::chrono::steady_clock::now() < deadline);
    total += n;
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker, j);
  worker(0);
  for (auto& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Throughput{ptx, total.load(), elapsed, jobs};
}

}  // namespace ptxmma
