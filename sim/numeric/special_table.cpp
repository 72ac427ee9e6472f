#include "sim/numeric/special_table.hpp"

#include <lzma.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "sim/error.hpp"

// File format, xz-compressed as a whole:
//   line 1: "ptxmma-special-table 1 NAME INDEX_BITS\n"
//   then 2^INDEX_BITS entries as second differences (e[i] - 2 e[i-1] + e[i-2], with e[-1] = e[-2]
//   = 0, modulo 2^32), each zigzag-encoded as an LEB128 varint. A smooth function's rounded values
//   have second differences of a few units, so most entries take one byte before compression.

namespace ptxmma {

namespace {

constexpr std::uint64_t kMemLimit = 256ULL << 20;
constexpr unsigned kMaxIndexBits = 28;

std::string unxz(const std::string& path, const std::string& in) {
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&s, kMemLimit, 0) != LZMA_OK) throw Error(path + ": cannot start the xz decoder");
  std::string out;
  char buf[1 << 16];
  s.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
  s.avail_in = in.size();
  for (;;) {
    s.next_out = reinterpret_cast<std::uint8_t*>(buf);
    s.avail_out = sizeof buf;
    const lzma_ret r = lzma_code(&s, LZMA_FINISH);
    out.append(buf, sizeof buf - s.avail_out);
    if (r == LZMA_STREAM_END) break;
    if (r != LZMA_OK || out.size() > (std::size_t{5} << kMaxIndexBits)) {
      lzma_end(&s);
      throw Error(path + ": not a valid xz file (liblzma error " + std::to_string(static_cast<int>(r)) + ")");
    }
  }
  lzma_end(&s);
  return out;
}

std::string xz(const std::string& in) {
  std::string out(lzma_stream_buffer_bound(in.size()), '\0');
  std::size_t pos = 0;
  if (lzma_easy_buffer_encode(6 | LZMA_PRESET_EXTREME, LZMA_CHECK_CRC32, nullptr,
                              reinterpret_cast<const std::uint8_t*>(in.data()), in.size(),
                              reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size()) != LZMA_OK)
    throw Error("xz compression failed");
  out.resize(pos);
  return out;
}

}  // namespace

SpecialTable read_special_table(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(path + ": cannot open");
  const std::string raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return decode_special_table(path, unxz(path, raw));
}

SpecialTable decode_special_table(const std::string& path, const std::string& data) {
  const auto eol = data.find('\n');
  if (eol == std::string::npos) throw Error(path + ": no header line");
  std::istringstream head(data.substr(0, eol));
  std::string magic;
  int version = 0;
  SpecialTable t;
  if (!(head >> magic >> version >> t.name >> t.index_bits) || magic != "ptxmma-special-table" || version != 1)
    throw Error(path + ": header is not 'ptxmma-special-table 1 NAME INDEX_BITS'");
  if (t.index_bits > kMaxIndexBits)
    throw Error(path + ": index_bits " + std::to_string(t.index_bits) + " is over the limit " +
                std::to_string(kMaxIndexBits));
  const std::size_t n = std::size_t{1} << t.index_bits;
  t.entries.resize(n);
  std::size_t pos = eol + 1;
  std::uint32_t e1 = 0, e2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (pos >= data.size() || shift > 28)
        throw Error(path + ": entry " + std::to_string(i) + " of " + std::to_string(n) + " is truncated or malformed");
      const auto b = static_cast<std::uint8_t>(data[pos++]);
      v |= std::uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) break;
    }
    const auto d = static_cast<std::uint32_t>((v >> 1) ^ (0 - (v & 1)));
    const std::uint32_t e = d + 2 * e1 - e2;
    t.entries[i] = e;
    e2 = e1;
    e1 = e;
  }
  if (pos != data.size()) throw Error(path + ": trailing bytes after the last entry");
  return t;
}

std::string encode_special_table(const SpecialTable& t) {
  std::string data = "ptxmma-special-table 1 " + t.name + " " + std::to_string(t.index_bits) + "\n";
  std::uint32_t e1 = 0, e2 = 0;
  for (const std::uint32_t e : t.entries) {
    const auto d = static_cast<std::int32_t>(e - 2 * e1 + e2);
    std::uint32_t v = (static_cast<std::uint32_t>(d) << 1) ^ static_cast<std::uint32_t>(d >> 31);
    while (v >= 0x80) {
      data.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    data.push_back(static_cast<char>(v));
    e2 = e1;
    e1 = e;
  }
  return data;
}

void write_special_table(const std::string& path, const SpecialTable& t) {
  std::ofstream f(path, std::ios::binary);
  const std::string packed = xz(encode_special_table(t));
  f.write(packed.data(), static_cast<std::streamsize>(packed.size()));
  if (!f) throw Error(path + ": cannot write");
}

}  // namespace ptxmma
