#include <fmt/format.h>

#include <cctype>

#include "sim/error.hpp"
#include "sim/model/model.hpp"

namespace ptxmma {
namespace {

// expr := term ('+' term)* ; term := 'p' digits | 'c' | '0' | '(' expr ')'   (left-associative)
class TreeParser {
 public:
  explicit TreeParser(const std::string& s) : s_(s) {}
  std::vector<int> parse() {
    expr();
    skip();
    if (i_ != s_.size()) fail("unexpected text");
    return out_;
  }

 private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  [[noreturn]] void fail(const char* what) const {
    throw Error(fmt::format("addition order '{}': {} at position {}", s_, what, i_ + 1));
  }
  void expr() {
    term();
    for (skip(); i_ < s_.size() && s_[i_] == '+'; skip()) {
      ++i_;
      term();
      out_.push_back(AddTree::kAdd);
    }
  }
  void term() {
    skip();
    if (i_ >= s_.size()) fail("expected p<k>, c, 0 or (");
    const char ch = s_[i_];
    if (ch == '(') {
      ++i_;
      expr();
      skip();
      if (i_ >= s_.size() || s_[i_] != ')') fail("expected )");
      ++i_;
    } else if (ch == '0') {
      ++i_;
      out_.push_back(AddTree::kZero);
    } else if (ch == 'c') {
      ++i_;
      out_.push_back(AddTree::kC);
    } else if (ch == 'p') {
      ++i_;
      int k = 0;
      const std::size_t start = i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])) && k < 1000) k = 10 * k + (s_[i_++] - '0');
      if (i_ == start) fail("expected a product index after p");
      out_.push_back(k);
    } else {
      fail("expected p<k>, c, 0 or (");
    }
  }
  const std::string& s_;
  std::size_t i_ = 0;
  std::vector<int> out_;
};

}  // namespace

AddTree AddTree::parse(const std::string& text) {
  AddTree t;
  t.text = text;
  t.postfix = TreeParser(text).parse();
  if (t.postfix.size() > 2 * (kMaxK + 2))
    throw Error(fmt::format("addition order '{}': more than {} terms", text, kMaxK + 2));
  return t;
}

}  // namespace ptxmma
