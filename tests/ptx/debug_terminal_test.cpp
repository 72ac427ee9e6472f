// `ptxmma debug` at a real terminal (a pseudo-terminal): libedit's line editing, history and Tab
// completion, an empty line repeating a step, Ctrl-C stopping a running program and returning to
// the prompt, and the session going on after it.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

class Terminal {
 public:
  explicit Terminal(const std::string& ptx) {
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      setenv("TERM", "xterm", 1);
      setenv("HOME", ::testing::TempDir().c_str(), 1);  // no ~/.editrc of the user
      execl(kPtxmmaCli, kPtxmmaCli, "debug", ptx.c_str(), "--max-steps", "1000000000", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~Terminal() {
    if (pid_ > 0 && !waited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  [[nodiscard]] bool started() const { return pid_ > 0; }
  void type(const std::string& keys) { ASSERT_EQ(write(fd_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size())); }
  // Reads until `text` appears after the previous match (or the start), or 20 s pass.
  bool wait_for(const std::string& text) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
      if (const std::size_t at = out_.find(text, from_); at != std::string::npos) {
        from_ = at + text.size();
        return true;
      }
      if (std::chrono::steady_clock::now() > until) return false;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      const ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) return false;
      out_.append(buf, static_cast<std::size_t>(n));
    }
  }
  // The output after the last match.
  [[nodiscard]] std::string rest() const { return out_.substr(from_); }
  // The exit status, or -1 when the program has not ended within 20 s (it is killed then).
  int exit_status() {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > until) return -1;  // the destructor kills it
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    waited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  [[nodiscard]] const std::string& out() const { return out_; }

 private:
  int fd_ = -1;
  pid_t pid_ = -1;
  bool waited_ = false;
  std::string out_;
  std::size_t from_ = 0;
};

TEST(DebuggerTerminal, EditingHistoryCompletionRepeatAndCtrlC) {
  const std::string ptx = ::testing::TempDir() + "spin" + std::to_string(getpid()) + ".ptx";
  std::ofstream(ptx) << ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry spin()\n{\n"
                        ".reg .b32 %r<2>;\n$L_spin:\nadd.u32 %r1, %r1, 1;\nbra.uni $L_spin;\n}\n";
  Terminal t(ptx);
  ASSERT_TRUE(t.started());
  // Keys are typed once the prompt shows (libedit has the terminal then, not the line discipline).
  const auto at_prompt = [&t](const std::string& keys) {
    if (!t.wait_for("(ptxmma) ")) return false;
    t.type(keys);
    return true;
  };
  ASSERT_TRUE(at_prompt("p %laneid 3\r")) << t.out();
  ASSERT_TRUE(t.wait_for("lane  3 %laneid = 3")) << t.out();
  ASSERT_TRUE(at_prompt("\x1b[A\r")) << t.out();  // Up: the last command again
  ASSERT_TRUE(t.wait_for("lane  3 %laneid = 3")) << t.out();
  // Ctrl-A to the start, Ctrl-F past the first p, Ctrl-H deletes it: none of these keys means
  // anything to the tty's line discipline, so the test holds even when the keys arrive before
  // libedit has put the terminal in raw mode (Ctrl-D would be the tty's end-of-file then).
  ASSERT_TRUE(at_prompt("pp %laneid 5\x01\x06\x08\r")) << t.out();
  ASSERT_TRUE(t.wait_for("lane  5 %laneid = 5")) << t.out();
  ASSERT_TRUE(at_prompt("step\r")) << t.out();
  ASSERT_TRUE(t.wait_for("line 9, lanes ffffffff: bra.uni $L_spin;")) << t.out();
  ASSERT_TRUE(at_prompt("\r")) << t.out();  // Enter repeats the step
  ASSERT_TRUE(t.wait_for("line 8, lanes ffffffff: add.u32 %r1, %r1, 1;")) << t.out();
  ASSERT_TRUE(at_prompt("contin\t\r")) << t.out();  // Tab completes the command; the loop never ends
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  t.type("\x03");  // Ctrl-C
  ASSERT_TRUE(t.wait_for("interrupted")) << t.out();
  ASSERT_TRUE(at_prompt("p/d %r1 0\r")) << t.out();
  ASSERT_TRUE(t.wait_for("lane  0 %r1 = ")) << t.out();
  ASSERT_TRUE(t.wait_for("\n")) << t.out();
  const std::string shown = t.out().substr(t.out().rfind("lane  0 %r1 = ") + 14);
  EXPECT_GT(std::atoll(shown.c_str()), 2) << "the loop ran until Ctrl-C: " << shown;
  // Ctrl-C while typing drops the line (the quit is not run): a fresh prompt, the session goes on.
  ASSERT_TRUE(at_prompt("quit\x03")) << t.out();
  ASSERT_TRUE(t.wait_for("^C")) << t.out();
  ASSERT_TRUE(at_prompt("p %laneid 7\r")) << t.out();
  ASSERT_TRUE(t.wait_for("lane  7 %laneid = 7")) << t.out();
  ASSERT_TRUE(at_prompt("quit\r")) << t.out();
  EXPECT_EQ(t.exit_status(), 0) << t.out();
  std::remove(ptx.c_str());
}

}  // namespace
}  // namespace ptxmma
