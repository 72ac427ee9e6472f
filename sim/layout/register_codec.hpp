// The one mapping between an operand as a logical matrix and as the threads' register words:
// where each element sits (through the fragment layout) and how many bits it takes there
// (element_bits). Execution, test vectors, `run --matrix`, Python, explain and bench all go
// through it. Words are thread-major, words[thread * words_per_thread() + w]; a 64-bit register
// is two words, low word first.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "sim/layout/fragment_layout.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

class RegisterCodec {
 public:
  // Where one element sits: its thread and register, the 32-bit word of the thread-major words
  // (a 64-bit element: its low word) and its bit offset in that word; of a layout with copies or
  // several holders, the first copy of the holder the product reads (set_raw and scatter write
  // them all).
  struct Place {
    int thread = 0, reg = 0;
    std::uint32_t word = 0, shift = 0;
  };

  RegisterCodec(const FragmentLayout& l, Type t, Container c = Container::packed);
  [[nodiscard]] Place place_of(const FragmentSlot& s) const;

  [[nodiscard]] const FragmentLayout& layout() const { return *l_; }
  [[nodiscard]] Type type() const { return t_; }
  [[nodiscard]] Container container() const { return c_; }
  [[nodiscard]] int bits() const { return bits_; }  // element_bits(type, container)
  [[nodiscard]] int threads() const { return l_->lanes; }
  [[nodiscard]] int words_per_thread() const { return bits_ == 64 ? 2 * l_->regs : l_->regs; }
  [[nodiscard]] std::size_t words() const {
    return static_cast<std::size_t>(threads()) * static_cast<std::size_t>(words_per_thread());
  }
  // The matrix: problems stacked (m8n8k4 .f16: four M x K problems give 4M rows).
  [[nodiscard]] int rows() const { return l_->problems * l_->rows; }
  [[nodiscard]] int cols() const { return l_->cols; }

  [[nodiscard]] Place place(int problem, int row, int col) const;  // place_of(the chosen slot)
  // The element's bits as the register holds them (element_bits of them; FP6/FP4 in their
  // container, tf32 as its b32), and its format code; row is a stacked row.
  [[nodiscard]] std::uint64_t raw(std::span<const std::uint32_t> words, int row, int col) const;
  [[nodiscard]] std::uint64_t code(std::span<const std::uint32_t> words, int row, int col) const {
    return element_code(t_, c_, raw(words, row, col));
  }
  void set_raw(std::span<std::uint32_t> words, int row, int col, std::uint64_t raw) const;
  // The bits of one register (64-bit registers whole) at a place; element extraction for callers
  // that read registers by name.
  [[nodiscard]] std::uint64_t element_of(std::uint64_t reg, const Place& p) const;

  // The whole matrix, rows() x cols() row-major, as register bits and back (words() words; the
  // bits outside any element zero).
  [[nodiscard]] std::vector<std::uint64_t> gather(std::span<const std::uint32_t> words) const;
  [[nodiscard]] std::vector<std::uint32_t> scatter(std::span<const std::uint64_t> raws) const;

 private:
  const FragmentLayout* l_;
  Type t_;
  Container c_;
  int bits_;
};

}  // namespace ptxmma
