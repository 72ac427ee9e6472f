// PTX text -> tokens with their source positions. Comments (// and /* */) are dropped; an
// unterminated block comment or string, and characters PTX has no use for, are located errors.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/error.hpp"

namespace ptxmma::ptx {

// A position in a source file, 1-based, for messages of the form file:line:col: error: ...
struct SourceLoc {
  int line = 0;
  int col = 0;
};

// One error at a position. PtxError::what() is every diagnostic, one per line.
struct Diagnostic {
  std::string file;
  SourceLoc loc;
  std::string message;
  bool warning = false;
  [[nodiscard]] std::string text() const;  // "file:line:col: error: message" (or warning:)
};

class PtxError : public Error {
 public:
  explicit PtxError(std::vector<Diagnostic> d);
  [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return diags_; }

 private:
  std::vector<Diagnostic> diags_;
};

enum class Tok : std::uint8_t {
  ident,      // add  %r1  $L__BB0_1  _Z3fooPf  __cudaparm  (may start with % $ _ or a letter)
  dotted,     // .reg  .b32  .shared::cta  .L1::evict_last  .x  (text keeps the leading '.')
  number,     // 12  0x1F  0f3F800000  0d3FF0000000000000  1.5  1e-3  7U
  string,     // "..." (text without the quotes)
  punct,      // , ; : { } [ ] ( ) < > + - ! @ | = _
  end,
};

struct Token {
  Tok kind = Tok::end;
  std::string text;
  SourceLoc loc;
  bool space_before = true;  // whitespace (or a comment, or the start of the file) precedes it
};

// Throws PtxError on the first lexical error.
std::vector<Token> lex(std::string_view text, const std::string& file);

}  // namespace ptxmma::ptx
