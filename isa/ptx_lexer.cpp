#include "isa/ptx_lexer.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstring>

#include "sim/util/budget.hpp"

namespace ptxmma::ptx {

std::string Diagnostic::text() const {
  return fmt::format("{}:{}:{}: {}: {}", file, loc.line, loc.col, warning ? "warning" : "error", message);
}

namespace {
std::string join(const std::vector<Diagnostic>& d) {
  std::string out;
  for (const auto& x : d) {
    if (!out.empty()) out += '\n';
    out += x.text();
  }
  return out;
}
}  // namespace

PtxError::PtxError(std::vector<Diagnostic> d) : Error(join(d)), diags_(std::move(d)) {}

namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

}  // namespace

std::vector<Token> lex(std::string_view s, const std::string& file) {
  std::vector<Token> out;
  std::size_t i = 0;
  int line = 1;
  std::uint64_t col = 1;
  std::uint64_t statements = 0;
  bool space = true;
  const Budget& budget = ptxmma::budget();
  const auto fail = [&](SourceLoc at, const std::string& what) -> void {
    throw PtxError({Diagnostic{file, at, what}});
  };
  const auto advance = [&](std::size_t n) {
    for (std::size_t k = 0; k < n && i < s.size(); ++k, ++i) {
      if (s[i] == '\n') {
        ++line;
        col = 1;
      } else if (++col > budget.ptx_line_bytes + 1) {
        fail({line, static_cast<int>(budget.ptx_line_bytes + 1)},
             fmt::format("the line is longer than the budget of {} bytes (raise it with --max-line-length)",
                         budget.ptx_line_bytes));
      }
    }
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      advance(1);
      space = true;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') advance(1);
      space = true;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const SourceLoc at{line, static_cast<int>(col)};
      const std::size_t e = s.find("*/", i + 2);
      if (e == std::string_view::npos) fail(at, "unterminated comment '/*'");
      advance(e + 2 - i);
      space = true;
      continue;
    }
    Token t;
    t.loc = {line, static_cast<int>(col)};
    t.space_before = space;
    space = false;
    const std::size_t start = i;
    if (ident_start(c) && !(c == '_' && (i + 1 >= s.size() || !ident_char(s[i + 1])))) {
      std::size_t j = i + 1;
      while (j < s.size() && ident_char(s[j])) ++j;
      if (c == '%' && j == i + 1) fail(t.loc, "'%' must be followed by a register name");
      t.kind = Tok::ident;
      t.text = std::string(s.substr(i, j - i));
      advance(j - i);
    } else if (c == '.' && i + 1 < s.size() &&
               (std::isalpha(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '_' ||
                (i > 0 && ident_char(s[i - 1]) && std::isdigit(static_cast<unsigned char>(s[i + 1]))))) {
      // .name, with ::sub parts (.shared::cta, .L2::cache_hint, .kind::f8f6f4, .scale_vec::2X); a
      // qualifier right after another may start with a digit (cp.async.bulk.tensor.2d)
      std::size_t j = i + 1;
      for (;;) {
        while (j < s.size() && ident_char(s[j])) ++j;
        if (j + 2 < s.size() && s[j] == ':' && s[j + 1] == ':' && ident_char(s[j + 2])) {
          j += 2;
          continue;
        }
        break;
      }
      t.kind = Tok::dotted;
      t.text = std::string(s.substr(i, j - i));
      advance(j - i);
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t j = i + 1;
      const bool radix = c == '0' && j < s.size() && std::strchr("xXfFdDbB", s[j]) != nullptr && s[j] != '\0';
      while (j < s.size()) {
        const char d = s[j];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '.') {
          ++j;
        } else if ((d == '+' || d == '-') && !radix && (s[j - 1] == 'e' || s[j - 1] == 'E')) {
          ++j;
        } else {
          break;
        }
      }
      t.kind = Tok::number;
      t.text = std::string(s.substr(i, j - i));
      advance(j - i);
    } else if (c == '"') {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != '"' && s[j] != '\n') ++j;
      if (j >= s.size() || s[j] != '"') fail(t.loc, "unterminated string");
      t.kind = Tok::string;
      t.text = std::string(s.substr(i + 1, j - i - 1));
      advance(j + 1 - i);
    } else if (c != '\0' && std::strchr(",;:{}[]()<>+-!@|=_", c) != nullptr) {
      t.kind = Tok::punct;
      t.text = std::string(1, c);
      if (c == ';' && ++statements > budget.ptx_statements)
        fail(t.loc, over_budget(statements, "statements", budget.ptx_statements, "--max-statements"));
      advance(1);
    } else {
      const unsigned char u = static_cast<unsigned char>(c);
      fail(t.loc, std::isprint(u) ? fmt::format("unexpected character '{}'", c)
                                  : fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned>(u)));
    }
    (void)start;
    out.push_back(std::move(t));
  }
  Token e;
  e.kind = Tok::end;
  e.loc = {line, static_cast<int>(col)};
  out.push_back(e);
  return out;
}

}  // namespace ptxmma::ptx
