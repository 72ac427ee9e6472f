// tests/data/special-sm90/edges.txt, the GPU's results of the special functions at edge inputs
// (tools/capture/special_check wrote it): one line NAME INPUT... OUTPUT, register bits in hex.
#pragma once
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "tests/paths.hpp"

namespace ptxmma::test {

struct EdgeLine {
  std::string ptx;
  std::vector<std::uint64_t> in;
  std::uint64_t out = 0;
};

inline std::vector<EdgeLine> special_edge_lines() {
  const std::string path = std::string(kPtxmmaSourceDir) + "/tests/data/special-sm90/edges.txt";
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open");
  std::vector<EdgeLine> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> words;
    for (std::string w; ls >> w;) words.push_back(w);
    if (words.size() < 3) throw Error(path + ": malformed line '" + line + "'");
    EdgeLine e;
    e.ptx = words.front();
    for (std::size_t i = 1; i + 1 < words.size(); ++i) e.in.push_back(std::stoull(words[i], nullptr, 16));
    e.out = std::stoull(words.back(), nullptr, 16);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace ptxmma::test
