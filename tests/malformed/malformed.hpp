// Helpers of the malformed-input suite (tests/malformed, docs/robustness.md): each test is a table
// of broken inputs of one kind with the exact message expected.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "sim/util/budget.hpp"
#include "sim/error.hpp"
#include "tests/paths.hpp"

namespace ptxmma::malformed {

// 1408 zero bytes, xz-compressed (Python: lzma.compress(bytes(1408), check=lzma.CHECK_CRC32)).
inline const std::string kXz1408 = std::string("\xfd\x37\x7a\x58\x5a\x00\x00\x01\x69\x22\xde\x36\x02\x00\x21\x01\x16\x00\x00\x00\x74\x2f\xe5\xa3\xe0\x05\x7f\x00\x0f\x5d\x00\x00\x6f\xfd\xff\xff\xa3\xb7\xff\x47\x3d\x4d\xc7\xe9\x00\x00\x00\x00\x57\x2e\xa7\x30\x00\x01\x27\x80\x0b\x00\x00\x00\xc0\xd6\x1b\xbf\x3e\x30\x0d\x8b\x02\x00\x00\x00\x00\x01\x59\x5a", 76);

struct Bad {
  const char* what;   // what is broken
  std::string input;  // the broken text (or bytes)
  std::string error;  // the exact message
};

// The message of the ptxmma::Error `f` throws; "no error" if none; any other exception fails the test.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// One budget (sim/util/budget.hpp) lowered for a test, restored after it.
class BudgetScope {
 public:
  BudgetScope(std::uint64_t Budget::*field, std::uint64_t value) : field_(field), saved_(budget().*field) {
    budget().*field = value;
  }
  ~BudgetScope() { budget().*field_ = saved_; }
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;

 private:
  std::uint64_t Budget::*field_;
  std::uint64_t saved_;
};

// A fresh folder under the test temp dir, removed at the end.
class TempDir {
 public:
  TempDir() {
    static int serial = 0;
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("ptxmma-malformed-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() { std::filesystem::remove_all(dir_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return path(name);
  }

 private:
  std::filesystem::path dir_;
};

struct Cli {
  int status = -1;
  std::string out, err;
};

// Runs the built ptxmma with `args` (shell words) in `dir`.
inline Cli ptxmma(const std::string& args, const TempDir& dir) {
  const auto slurp = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  const std::string out = dir.path("cli.out"), err = dir.path("cli.err");
  const std::string cmd = std::string(kPtxmmaCli) + " " + args + " >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  return Cli{raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

}  // namespace ptxmma::malformed
