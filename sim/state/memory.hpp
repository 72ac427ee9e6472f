// Byte-addressed memory of one state space (shared, global, param, const), little-endian.
// Dense: [0, size), zero-filled (shared memory of one CTA); which bytes were written is kept for
// initcheck (a read of the zero fill is a read of bytes nobody wrote). Sparse: only the bytes
// written are defined; reading any other byte is an Error (global memory given by an initial state).
#pragma once
#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptxmma {

class Memory {
 public:
  static Memory dense(std::string space, std::uint64_t size);
  static Memory sparse(std::string space);

  // Errors name the space and the address: "shared memory: 4 bytes at 0xc000 are outside [0, 0xc000)".
  void write(std::uint64_t addr, const std::uint8_t* bytes, std::size_t n);
  void read(std::uint64_t addr, std::uint8_t* bytes, std::size_t n) const;
  [[nodiscard]] std::uint64_t load(std::uint64_t addr, int bytes) const;
  void store(std::uint64_t addr, int bytes, std::uint64_t value);
  // Whether every byte of [addr, addr + n) may be read.
  [[nodiscard]] bool defined(std::uint64_t addr, std::size_t n) const;
  // Dense: the index of the first byte of [addr, addr + n) that no write has set; n if none (or
  // outside the memory: the access reports that).
  [[nodiscard]] std::uint64_t first_unwritten(std::uint64_t addr, std::uint64_t n) const;
  // Dense: the error of an access to [addr, addr + n) that does not fit (nothing when it does).
  void check_range(std::uint64_t addr, std::uint64_t n) const;

  [[nodiscard]] const std::string& space() const { return space_; }
  [[nodiscard]] bool is_dense() const { return dense_; }
  [[nodiscard]] std::uint64_t size() const { return data_.size(); }  // dense only
  // Sparse: the defined bytes as runs (address, bytes), in address order.
  [[nodiscard]] std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> runs() const;

 private:
  static constexpr std::uint64_t kPage = 4096;
  // Sparse: the index of the first byte of [addr, addr + n) not written yet; n if none.
  [[nodiscard]] std::size_t first_undefined(std::uint64_t addr, std::size_t n) const;
  struct Page {
    std::array<std::uint8_t, kPage> bytes{};
    std::bitset<kPage> valid;
  };
  std::string space_;
  bool dense_ = true;
  std::vector<std::uint8_t> data_;
  std::vector<std::uint8_t> written_;  // dense: 1 for each byte written; empty until the first write
  std::map<std::uint64_t, Page> pages_;
};

}  // namespace ptxmma
