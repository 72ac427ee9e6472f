// Tensor maps against the driver: every map cuTensorMapEncodeTiled wrote in the capture
// (tests/data/tensormap-sm90/maps.txt.xz, docs/hardware/tensormap-sm90.md) is what
// encode_tensor_map writes for the same parameters, byte for byte, and decodes back to them; every
// call the driver refused is refused.
#include "sim/exec/tensor_map.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "tests/paths.hpp"
#include "tools/vectors/data_file.hpp"

namespace ptxmma {
namespace {

// "1,2,3" -> {1, 2, 3}
std::vector<std::uint64_t> numbers(const std::string& s) {
  std::vector<std::uint64_t> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))  // negative corners as two's complement
    v.push_back(item.starts_with('-') ? static_cast<std::uint64_t>(std::stoll(item)) : std::stoull(item, nullptr, 0));
  return v;
}

struct Captured {
  std::string line;
  TensorMapParams params;
  bool ok = false;
  TensorMapBytes bytes{};
};

// `tiled type=6 rank=2 addr=0x.. dims=.. strides=.. box=.. estr=.. il=0 swz=0 l2=0 oob=0 -> ok HEX`
// (or `-> CUDA_ERROR_...`), and `im2col ...` with `lower=.. upper=.. channels=.. pixels=..` in place
// of the box; lines of types or ranks the encoder cannot name are left out (false).
bool parse(const std::string& line, Captured& c) {
  c.line = line;
  std::stringstream ss(line.substr(0, line.find(" -> ")));
  std::string tok;
  ss >> tok;
  TensorMapParams& p = c.params;
  p.im2col = tok == "im2col";
  while (ss >> tok) {
    const auto eq = tok.find('=');
    const std::string key = tok.substr(0, eq);
    const std::vector<std::uint64_t> v = numbers(tok.substr(eq + 1));
    if (key == "lower" || key == "upper") {
      for (std::size_t i = 0; i < v.size() && i < 3; ++i) (key == "lower" ? p.lower : p.upper)[i] = static_cast<int>(v[i]);
    } else if (key == "channels") {
      p.channels = static_cast<std::uint32_t>(v[0]);
    } else if (key == "pixels") {
      p.pixels = static_cast<std::uint32_t>(v[0]);
    } else if (key == "type") {
      if (v[0] > 12) return false;
      p.type = static_cast<TensorMapType>(v[0]);
    } else if (key == "rank") {
      if (v[0] < 1 || v[0] > 5) return false;
      p.rank = static_cast<int>(v[0]);
    } else if (key == "addr") {
      p.address = v[0];
    } else if (key == "il") {
      if (v[0] > 2) return false;  // enum values the parameters cannot hold (the driver refuses them)
      p.interleave = static_cast<int>(v[0]);
    } else if (key == "swz") {
      if (v[0] > 3) return false;  // the sm_100 swizzles: the driver refuses them for sm_90
      p.swizzle = static_cast<int>(v[0]);
    } else if (key == "l2") {
      if (v[0] > 3) return false;
      p.l2_promotion = static_cast<int>(v[0]);
    } else if (key == "oob") {
      if (v[0] > 1) return false;
      p.oob_nan = v[0] != 0;
    } else {
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (key == "dims") p.dims[i] = v[i];
        if (key == "strides") p.strides[i] = v[i];
        if (key == "box") p.box[i] = static_cast<std::uint32_t>(v[i]);
        if (key == "estr") p.element_strides[i] = static_cast<std::uint32_t>(v[i]);
      }
    }
  }
  const std::string result = line.substr(line.find(" -> ") + 4);
  c.ok = result.starts_with("ok ");
  if (c.ok)
    for (std::size_t i = 0; i < 128; ++i) c.bytes[i] = static_cast<std::uint8_t>(std::stoul(result.substr(3 + 2 * i, 2), nullptr, 16));
  return true;
}

std::vector<Captured> captured() {
  const std::vector<std::uint8_t> raw = read_data_file(std::string(kPtxmmaSourceDir) + "/tests/data/tensormap-sm90/maps.txt");
  std::stringstream text(std::string(raw.begin(), raw.end()));
  std::vector<Captured> out;
  std::string line;
  while (std::getline(text, line)) {
    if (line.empty() || line[0] == '#') continue;
    Captured c;
    if (parse(line, c)) out.push_back(c);
  }
  return out;
}

TEST(TensorMap, EncodesEveryCapturedMapAsTheDriverDid) {
  int ok = 0, refused = 0, im2col = 0;
  for (const Captured& c : captured()) {
    if (c.ok) {
      ++ok;
      TensorMapBytes b{};
      ASSERT_NO_THROW(b = encode_tensor_map(c.params)) << c.line;
      ASSERT_EQ(b, c.bytes) << c.line;
      TensorMapParams back = decode_tensor_map(c.bytes);
      // Past the rank the parameters are not in the map.
      TensorMapParams want = c.params;
      for (int i = want.rank; i < 5; ++i) {
        const auto k = static_cast<std::size_t>(i);
        want.dims[k] = 0, want.box[k] = 0, want.element_strides[k] = 1;
        if (i > 0) want.strides[k - 1] = 0;
        if (i >= 2) want.lower[k - 2] = 0, want.upper[k - 2] = 0;
      }
      if (want.im2col) ++im2col;
      EXPECT_EQ(back, want) << c.line;
    } else {
      ++refused;
      EXPECT_THROW((void)encode_tensor_map(c.params), Error) << c.line;
    }
  }
  EXPECT_GT(ok, 1600);
  EXPECT_GT(refused, 1000);
  EXPECT_EQ(im2col, 774);  // every map cuTensorMapEncodeIm2col wrote
}

TEST(TensorMap, MalformedBytesNameTheByte) {
  TensorMapParams p;
  p.address = 0x100000;
  p.dims = {128, 64, 0, 0, 0};
  p.strides = {256, 0, 0, 0};
  p.box = {64, 32, 0, 0, 0};
  p.swizzle = 3;
  TensorMapBytes b = encode_tensor_map(p);
  b[100] = 1;  // a reserved qword
  try {
    (void)decode_tensor_map(b);
    FAIL() << "a reserved byte was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("byte 100"), std::string::npos) << e.what();
  }
  b = encode_tensor_map(p);
  b[8] |= 0x80;  // element code 6 -> 7 (f32): the box's byte count no longer matches
  EXPECT_THROW((void)decode_tensor_map(b), Error);
  b = TensorMapBytes{};
  EXPECT_THROW((void)decode_tensor_map(b), Error);  // all zero: a box of one u8, not 16 bytes
}

}  // namespace
}  // namespace ptxmma
