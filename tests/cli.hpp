// Runs the built `ptxmma` (kPtxmmaCli) with arguments, for the tests of its commands.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include "tests/paths.hpp"

namespace ptxmma::test {

struct CliResult {
  int status = -1;  // exit status; -1 if it did not exit normally
  std::string out, err;
  [[nodiscard]] std::string all() const { return out + err; }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `args` go through the shell (quote what needs it).
inline CliResult run_cli(const std::string& args) {
  static int serial = 0;
  const std::string base =
      ::testing::TempDir() + "ptxmma_cli_" + std::to_string(getpid()) + "_" + std::to_string(serial++);
  const std::string cmd = std::string(kPtxmmaCli) + " " + args + " >" + base + ".out 2>" + base + ".err";
  const int raw = std::system(cmd.c_str());
  CliResult r;
  r.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

}  // namespace ptxmma::test
