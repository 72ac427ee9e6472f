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

namespace ptxmma::malformed {

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
  const std::string cmd = std::string(PTXMMA_CLI) + " " + args + " >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  return Cli{raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

}  // namespace ptxmma::malformed
