// Sparse A of mma.sp: which logical K column each stored element of a compressed A row stands
// for, as the metadata register says. The classes (which lane's nibble describes which row and
// chunk) are data, configs/mma/sparse.yaml; how a nibble names columns is the pattern's.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma {

// 2 of every 4 columns kept (16- and 8-bit types), 1 of 2 (tf32), 4 of 8 as two pairs (4-bit).
enum class SparsePattern : std::uint8_t { two_of_four, one_of_two, four_of_eight };
std::string_view name(SparsePattern p);  // "2:4", "1:2", "4:8"
int chunk_columns(SparsePattern p);       // logical K columns a nibble describes: 4, 2, 8
int stored_per_chunk(SparsePattern p);    // 2, 1, 4

// The columns inside its chunk of each stored element of a chunk, from the chunk's nibble.
// Returns nullptr, or why the nibble is undefined behaviour (a repeated index, a tf32 nibble
// other than 0b0100 / 0b1110, or for sp::ordered_metadata an index pair that does not increase).
const char* chunk_columns(SparsePattern p, unsigned nibble, bool ordered, int* cols);
// The first nibble, in nibble order, that sp::ordered_metadata takes and that keeps every column
// of `needed` (bit i: column i of the chunk); -1 where none does (more columns than the pattern
// keeps, or 4:8 columns outside two pairs). Valid for mma.sp too, which takes any order.
int covering_nibble(SparsePattern p, unsigned needed);

class SparseMetadata {
 public:
  std::string name;  // "m1"
  int selectors = 1, rows = 0, chunks = 0;
  struct Source {
    std::uint8_t lane = 0, nibble = 0;
  };
  // Where the nibble describing (row, chunk) comes from under selector `sel`.
  [[nodiscard]] const Source& source(int sel, int row, int chunk) const {
    return sources_[static_cast<std::size_t>((sel * rows + row) * chunks + chunk)];
  }
  // Fills the table from read(lane, nibble, sel, &row, &chunk) -> whether that nibble is read;
  // throws Error naming the class and the first clash or hole when, for some selector, the read
  // nibbles are not a bijection onto rows x chunks.
  template <class F>
  void build(F&& read) {
    sources_.assign(static_cast<std::size_t>(selectors * rows * chunks), Source{});
    std::vector<bool> seen(sources_.size());
    for (int sel = 0; sel < selectors; ++sel)
      for (int lane = 0; lane < 32; ++lane)
        for (int n = 0; n < 8; ++n) {
          int row = 0, chunk = 0;
          if (!read(lane, n, sel, &row, &chunk)) continue;
          place(sel, lane, n, row, chunk, seen);
        }
    check_complete(seen);
  }

  // The logical K column of each of the k/2 stored elements of `row` (cols[s], s = 0 .. k/2-1,
  // increasing chunks), from the 32 lanes' metadata words. Throws Error naming the lane, nibble,
  // row and columns of an undefined nibble.
  void row_columns(SparsePattern p, bool ordered, std::span<const std::uint32_t> meta, int sel, int row,
                   int* cols) const;
  // row_columns of every row, row r's at cols + r * k/2.
  void all_columns(SparsePattern p, bool ordered, std::span<const std::uint32_t> meta, int sel, int* cols) const;

  // A logical row-major rows x k matrix of element codes as mma.sp takes it: the stored
  // rows x k/2 codes and the 32 lanes' metadata words, which selector `sel` reads. A code of 0
  // (+0) is a zero the sparsity may drop; per chunk the covering_nibble of the other codes.
  // Throws Error naming the row (counted from `first_row`: a warp's rows of a wgmma) and columns
  // of a chunk with more nonzero codes than it keeps.
  struct Compressed {
    std::vector<std::uint64_t> stored;
    std::vector<std::uint32_t> meta;
  };
  [[nodiscard]] Compressed compress(SparsePattern p, std::span<const std::uint64_t> logical, int k, int sel,
                                    int first_row = 0) const;

 private:
  void place(int sel, int lane, int n, int row, int chunk, std::vector<bool>& seen);
  void columns_of_row(SparsePattern p, bool ordered, std::span<const std::uint32_t> meta, int sel, int row,
                      int* cols) const;
  void check_complete(const std::vector<bool>& seen) const;
  [[noreturn]] void undefined(SparsePattern p, const Source& src, unsigned nibble, int row, int chunk,
                              const char* why) const;
  std::vector<Source> sources_;
};

// configs/mma/sparse.yaml: the metadata classes by name. Errors name the file, line and class.
class SparseLibrary {
 public:
  static SparseLibrary load(const std::string& path);
  [[nodiscard]] const SparseMetadata* find(std::string_view name) const;

 private:
  std::map<std::string, SparseMetadata, std::less<>> classes_;  // stable addresses
};

}  // namespace ptxmma
