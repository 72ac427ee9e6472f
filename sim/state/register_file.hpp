// The registers of the threads of one CTA, by number: word (register r, thread t), each masked to
// its register's declared width. Names live in the program (isa/ptx_program.hpp); this is the
// hot path's view.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptxmma {

class RegisterFile {
 public:
  RegisterFile() = default;
  // `widths`: bits of each register (1..64); every word starts at 0.
  RegisterFile(const std::vector<int>& widths, int threads)
      : widths_(widths), threads_(threads), words_(widths.size() * static_cast<std::size_t>(threads), 0) {}

  [[nodiscard]] int threads() const { return threads_; }
  [[nodiscard]] int bits(int r) const { return widths_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] std::uint64_t get(int thread, int r) const { return words_[index(thread, r)]; }
  // Register r's words of every thread in thread order: a warp's 32 lanes are adjacent, for the
  // loops that run a whole warp at once (sim/exec/warp_alu.hpp). Words written through here must
  // stay within the register's width.
  [[nodiscard]] std::uint64_t* words(int r) { return words_.data() + index(0, r); }
  [[nodiscard]] const std::uint64_t* words(int r) const { return words_.data() + index(0, r); }
  void set(int thread, int r, std::uint64_t v) {
    const int w = bits(r);
    words_[index(thread, r)] = w >= 64 ? v : v & ((1ULL << w) - 1);
  }

 private:
  [[nodiscard]] std::size_t index(int thread, int r) const {
    return static_cast<std::size_t>(r) * static_cast<std::size_t>(threads_) + static_cast<std::size_t>(thread);
  }
  std::vector<int> widths_;
  int threads_ = 0;
  std::vector<std::uint64_t> words_;
};

}  // namespace ptxmma
