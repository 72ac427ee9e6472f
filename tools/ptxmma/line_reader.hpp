// Where `ptxmma debug` reads its commands: a terminal through libedit (line editing, history,
// Tab completion, Ctrl-C abandons the line being typed), or any other stream line by line (a
// pipe, a command file). And Ctrl-C while the program runs: a flag the run loop checks.
#pragma once
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma::cli {

// Candidates for Tab: the words that could complete `word`, which is the first word of the line
// when `first` (a command) and a later one otherwise.
using Completer = std::function<std::vector<std::string>(std::string_view word, bool first)>;

class LineReader {
 public:
  // Through libedit when `terminal` (stdin is a terminal and no command file was given), else
  // from `in` with the prompt printed to `out` (a command read is echoed after it when `echo`,
  // so that a scripted session reads like a typed one).
  LineReader(std::istream& in, std::ostream& out, bool terminal, bool echo, std::string prompt, Completer complete);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line (without its newline); nullopt at the end of the input. At a terminal, Ctrl-C
  // while a line is typed drops it and prompts again.
  std::optional<std::string> read();
  [[nodiscard]] bool terminal() const { return editor_ != nullptr; }
  // The completer's candidates (Tab).
  [[nodiscard]] std::vector<std::string> candidates(std::string_view word, bool first) const {
    return complete_(word, first);
  }

 private:
  struct Editor;
  std::istream& in_;
  std::ostream& out_;
  bool echo_;
  std::string prompt_;
  Completer complete_;
  std::unique_ptr<Editor> editor_;
};

// SIGINT handling for a debugging session: while one exists, Ctrl-C sets a flag (instead of
// ending the process) and interrupts a blocking read.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  // Whether Ctrl-C was pressed since the last call (clears the flag).
  static bool take();
};

}  // namespace ptxmma::cli
