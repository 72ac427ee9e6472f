#include "tools/ptxmma/line_reader.hpp"

#include <histedit.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cwchar>
#include <iostream>

#include <unistd.h>

namespace ptxmma::cli {
namespace {

volatile std::sig_atomic_t interrupted = 0;

extern "C" void on_interrupt(int /*signal*/) { interrupted = 1; }

// libedit reads keys through this. Its own reader retries the first read that a signal
// interrupts, so the first Ctrl-C at the prompt would be lost; this one gives up the line at
// once, also when the key came before the read began (the flag is already set then).
extern "C" int read_key(EditLine* /*el*/, wchar_t* key) {
  std::mbstate_t state{};
  for (;;) {
    if (interrupted) {
      errno = EINTR;
      return -1;
    }
    char byte = 0;
    const ssize_t n = ::read(STDIN_FILENO, &byte, 1);
    if (n == 0) return 0;
    if (n < 0) {
      if (errno == EINTR) continue;  // another signal (a resized window): read on
      return -1;
    }
    const std::size_t got = std::mbrtowc(key, &byte, 1, &state);
    if (got == static_cast<std::size_t>(-2)) continue;  // part of a multibyte character
    if (got == static_cast<std::size_t>(-1)) *key = static_cast<unsigned char>(byte);  // not valid: the byte itself
    return 1;
  }
}

// The prompt of the one editor (libedit asks a function for it).
const char* the_prompt = "";
extern "C" char* prompt_of(EditLine* /*el*/) { return const_cast<char*>(the_prompt); }

}  // namespace

struct LineReader::Editor {
  EditLine* el = nullptr;
  History* history = nullptr;
  HistEvent event{};
  ~Editor() {
    if (el) el_end(el);
    if (history) history_end(history);
  }
};

namespace {

// Tab: completes the word before the cursor to the candidates' common prefix; when that adds
// nothing and several remain, lists them.
unsigned char complete_word(EditLine* el, int /*ch*/) {
  void* data = nullptr;
  el_get(el, EL_CLIENTDATA, &data);
  const auto* self = static_cast<const LineReader*>(data);
  const LineInfo* li = el_line(el);
  const std::string_view before(li->buffer, static_cast<std::size_t>(li->cursor - li->buffer));
  const std::size_t start = before.find_last_of(" \t/") == std::string_view::npos ? 0 : before.find_last_of(" \t/") + 1;
  const std::string_view word = before.substr(start);
  const bool first = before.substr(0, start).find_first_not_of(" \t") == std::string_view::npos;
  std::vector<std::string> c;
  for (std::string& s : self->candidates(word, first))
    if (s.starts_with(word)) c.push_back(std::move(s));
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  if (c.empty()) return CC_ERROR;
  std::size_t common = c.front().size();
  for (const std::string& s : c)
    common = std::min<std::size_t>(common, static_cast<std::size_t>(
                                               std::mismatch(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(std::min(s.size(), common)),
                                                             c.front().begin()).first - s.begin()));
  std::string add = c.front().substr(word.size(), common - word.size());
  if (c.size() == 1) add += ' ';
  if (!add.empty()) {
    el_insertstr(el, add.c_str());
    return CC_REFRESH;
  }
  std::string list = "\n";
  for (const std::string& s : c) list += s + "  ";
  list += "\n";
  std::fputs(list.c_str(), stdout);
  return CC_REDISPLAY;
}

}  // namespace

LineReader::LineReader(std::istream& in, std::ostream& out, bool terminal, bool echo, std::string prompt,
                       Completer complete)
    : in_(in), out_(out), echo_(echo), prompt_(std::move(prompt)), complete_(std::move(complete)) {
  if (!terminal) return;
  editor_ = std::make_unique<Editor>();
  editor_->el = el_init("ptxmma", stdin, stdout, stderr);
  editor_->history = history_init();
  if (!editor_->el || !editor_->history) {  // no terminal after all: read it as a stream
    editor_.reset();
    return;
  }
  the_prompt = prompt_.c_str();
  history(editor_->history, &editor_->event, H_SETSIZE, 1000);
  history(editor_->history, &editor_->event, H_SETUNIQUE, 1);
  el_set(editor_->el, EL_EDITOR, "emacs");
  el_set(editor_->el, EL_PROMPT, prompt_of);
  el_set(editor_->el, EL_GETCFN, read_key);
  el_set(editor_->el, EL_HIST, history, editor_->history);
  el_set(editor_->el, EL_CLIENTDATA, this);
  el_set(editor_->el, EL_ADDFN, "ptxmma-complete", "complete a command or register name", complete_word);
  el_set(editor_->el, EL_BIND, "^I", "ptxmma-complete", nullptr);
  el_source(editor_->el, nullptr);  // the user's ~/.editrc, as other libedit programs do
}

LineReader::~LineReader() = default;

std::optional<std::string> LineReader::read() {
  if (editor_) {
    for (;;) {
      int count = 0;
      const char* got = el_gets(editor_->el, &count);
      // Ctrl-C drops the line being typed (libedit hands back what was typed so far) and shows
      // a fresh prompt, as a shell does; the caller never sees the dropped line.
      if (InterruptScope::take()) {
        el_reset(editor_->el);
        std::fputs("^C\n", stdout);
        continue;
      }
      if (!got) {
        std::fputs("\n", stdout);
        return std::nullopt;
      }
      std::string line(got);
      while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
      if (line.find_first_not_of(" \t") != std::string::npos)
        history(editor_->history, &editor_->event, H_ENTER, line.c_str());
      return line;
    }
  }
  out_ << prompt_ << std::flush;
  std::string line;
  while (!std::getline(in_, line)) {
    // A read interrupted by Ctrl-C is not the end of the input.
    if (!InterruptScope::take() || in_.eof()) return std::nullopt;
    in_.clear();
  }
  if (echo_) out_ << line << "\n";
  return line;
}

InterruptScope::InterruptScope() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking read returns EINTR
  sigaction(SIGINT, &sa, nullptr);
  interrupted = 0;
}

InterruptScope::~InterruptScope() { std::signal(SIGINT, SIG_DFL); }

bool InterruptScope::take() {
  const bool was = interrupted != 0;
  interrupted = 0;
  return was;
}

}  // namespace ptxmma::cli
