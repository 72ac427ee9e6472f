// Block-scaled mma: which lane and byte of scale-a-data / scale-b-data hold each scale factor,
// under the thread-id and byte-id selectors. The map is data, configs/mma/block_scale.yaml.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ptxmma {

class ScaleLayout {
 public:
  // One operand's map: rows of A or columns of B.
  struct Operand {
    int count = 0;
    std::vector<int> thread_ids;  // legal thread-id values
    // (lane * 4 + byte) of (x, v), per V in {1, 2, 4}, thread-id and byte-id: sources[V][tid][bid]
    std::array<std::vector<std::vector<std::vector<std::uint8_t>>>, 5> sources;
  };
  Operand a, b;
  std::array<std::vector<int>, 5> byte_ids;  // legal byte-id values per V

  // Throws Error naming the legal values when a selector is not one of them.
  void check(int scale_vec, int byte_a, int tid_a, int byte_b, int tid_b) const;
  // Where the scale of entry x, K-block v sits under the selectors: lane * 4 + byte.
  [[nodiscard]] static std::uint8_t source(const Operand& op, int scale_vec, int tid, int bid, int x, int v) {
    return op.sources[static_cast<std::size_t>(scale_vec)][static_cast<std::size_t>(tid)]
                     [static_cast<std::size_t>(bid)][static_cast<std::size_t>(x * scale_vec + v)];
  }
  // The scale code (one byte) of entry x, K-block v, from the 32 lanes' scale-data words.
  [[nodiscard]] static std::uint32_t code(const Operand& op, std::span<const std::uint32_t> words, int scale_vec,
                                          int tid, int bid, int x, int v) {
    const std::uint8_t src = source(op, scale_vec, tid, bid, x, v);
    return (words[src / 4] >> (8 * (src % 4))) & 0xFFU;
  }

  // Loads and checks the file; errors name the file, line and the clash.
  static ScaleLayout load(const std::string& path);
};

}  // namespace ptxmma
