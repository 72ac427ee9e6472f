#include "sim/layout/register_codec.hpp"

namespace ptxmma {

namespace {

constexpr std::uint64_t mask_of(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

}  // namespace

RegisterCodec::RegisterCodec(const FragmentLayout& l, Type t, Container c)
    : l_(&l), t_(t), c_(c), bits_(element_bits(t, c)) {}

RegisterCodec::Place RegisterCodec::place(int problem, int row, int col) const {
  return place_of(l_->slot(problem, row, col));
}

RegisterCodec::Place RegisterCodec::place_of(const FragmentSlot& s) const {
  const bool wide = bits_ == 64;
  return Place{s.lane, s.reg, static_cast<std::uint32_t>(s.lane * words_per_thread() + (wide ? 2 * s.reg : s.reg)),
               static_cast<std::uint32_t>(wide ? 0 : bits_ * s.elem)};
}

std::uint64_t RegisterCodec::raw(std::span<const std::uint32_t> words, int row, int col) const {
  const Place p = place(row / l_->rows, row % l_->rows, col);
  if (bits_ == 64) return words[p.word] | (static_cast<std::uint64_t>(words[p.word + 1]) << 32);
  return (words[p.word] >> p.shift) & mask_of(bits_);
}

void RegisterCodec::set_raw(std::span<std::uint32_t> words, int row, int col, std::uint64_t raw) const {
  const std::uint32_t copy_words = bits_ == 64 ? 2 * l_->distinct() : l_->distinct();
  const auto mask = static_cast<std::uint32_t>(mask_of(bits_));
  for (int h = 0; h < l_->holders; ++h) {  // every holder and every copy holds the element
    const Place p = place_of(l_->holder(row / l_->rows, row % l_->rows, col, h));
    for (int k = 0; k < l_->copies; ++k) {
      const std::uint32_t w = p.word + static_cast<std::uint32_t>(k) * copy_words;
      if (bits_ == 64) {
        words[w] = static_cast<std::uint32_t>(raw);
        words[w + 1] = static_cast<std::uint32_t>(raw >> 32);
      } else {
        words[w] = (words[w] & ~(mask << p.shift)) | ((static_cast<std::uint32_t>(raw) & mask) << p.shift);
      }
    }
  }
}

std::uint64_t RegisterCodec::element_of(std::uint64_t reg, const Place& p) const {
  return bits_ >= 32 ? reg : (reg >> p.shift) & mask_of(bits_);
}

std::vector<std::uint64_t> RegisterCodec::gather(std::span<const std::uint32_t> words) const {
  std::vector<std::uint64_t> m(static_cast<std::size_t>(rows()) * static_cast<std::size_t>(cols()));
  for (int r = 0; r < rows(); ++r)
    for (int c = 0; c < cols(); ++c) m[static_cast<std::size_t>(r * cols() + c)] = raw(words, r, c);
  return m;
}

std::vector<std::uint32_t> RegisterCodec::scatter(std::span<const std::uint64_t> raws) const {
  std::vector<std::uint32_t> words(this->words(), 0);
  for (int r = 0; r < rows(); ++r)
    for (int c = 0; c < cols(); ++c) set_raw(words, r, c, raws[static_cast<std::size_t>(r * cols() + c)]);
  return words;
}

}  // namespace ptxmma
