// The ALU golden set captured on an H200 (docs/hardware/alu-sm90.md) replays bit for bit, each
// rule's example is a real case of it, and the decoder refuses what ptxas refuses.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "isa/ptx_opcodes.hpp"
#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"
#include "tests/paths.hpp"
#include "tests/ptx/ptx_test_util.hpp"
#include "tools/vectors/alu_forms.hpp"
#include "tools/vectors/alu_golden.hpp"

namespace ptxmma {
namespace {

const std::string kSet = std::string(kPtxmmaSourceDir) + "/tests/data/alu-sm90";

const AluGoldenSet& golden() {
  static const AluGoldenSet s = read_alu_golden_set(kSet);
  return s;
}

TEST(AluGoldenReplay, EveryFormEveryCase) {
  const AluGoldenSet& s = golden();
  EXPECT_EQ(s.forms.size(), 4114U);
  EXPECT_EQ(s.cases, 128);
  const AluReplayReport r = replay_alu(s, 2);
  std::ostringstream text;
  print(r, text);
  EXPECT_TRUE(r.ok()) << text.str();
  EXPECT_EQ(r.passed, 4114 * 128);
}

struct Rule {
  std::string ptx;
  std::vector<std::uint64_t> src, dst;
  bool outside_set = false;  // from the first capture or a probe: not a case of the set
};

std::vector<std::uint64_t> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::uint64_t> out;
  for (std::string w; in >> w;) out.push_back(std::stoull(w, nullptr, 16));
  return out;
}

std::vector<Rule> rules() {
  std::ifstream in(std::string(kPtxmmaSourceDir) + "/tests/data/alu-sm90-rules.txt");
  std::vector<Rule> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    for (std::size_t i = 0;;) {
      const std::size_t j = line.find('|', i);
      std::string part = line.substr(i, j == std::string::npos ? std::string::npos : j - i);
      part.erase(0, part.find_first_not_of(' '));
      part.erase(part.find_last_not_of(' ') + 1);
      f.push_back(part);
      if (j == std::string::npos) break;
      i = j + 1;
    }
    out.push_back(Rule{f.at(0), words(f.at(1)), words(f.at(2)), f.size() > 3});
  }
  return out;
}

// Each rule's case: the set holds it with these destination bits (unless it comes from outside
// the set), and the interpreter gives them.
TEST(AluGoldenReplay, RuleExamples) {
  const std::vector<Rule> rs = rules();
  ASSERT_GE(rs.size(), 30U);
  for (const Rule& rule : rs) {
    const AluGoldenForm* form = nullptr;
    for (const AluGoldenForm& g : golden().forms)
      if (g.form.line == rule.ptx) form = &g;
    ASSERT_NE(form, nullptr) << rule.ptx << " is not a form of the set";
    const auto& slots = form->form.slots;
    AluGoldenSet one = golden();
    one.cases = 1;
    one.forms = {*form};
    one.forms[0].words.assign(slots.size(), 0);
    std::size_t si = 0, di = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].immediate()) continue;
      if (slots[i].dest) one.forms[0].words[i] = rule.dst.at(di++);
      else one.forms[0].words[i] = rule.src.at(si++);
    }
    ASSERT_EQ(si, rule.src.size()) << rule.ptx;
    ASSERT_EQ(di, rule.dst.size()) << rule.ptx;
    if (!rule.outside_set) {
      bool found = false;
      for (int c = 0; c < golden().cases && !found; ++c) {
        const auto* rec = form->words.data() + static_cast<std::size_t>(c) * slots.size();
        bool same_src = true;
        for (std::size_t i = 0; i < slots.size(); ++i)
          if (!slots[i].dest && !slots[i].immediate() && rec[i] != one.forms[0].words[i]) same_src = false;
        if (!same_src) continue;
        found = true;
        for (std::size_t i = 0; i < slots.size(); ++i) EXPECT_EQ(rec[i], one.forms[0].words[i]) << rule.ptx;
      }
      EXPECT_TRUE(found) << rule.ptx << ": the set has no case with these sources";
    }
    const AluReplayReport r = replay_alu(one);
    std::ostringstream text;
    print(r, text);
    EXPECT_TRUE(r.ok()) << text.str();
  }
}

// Every enumerated form is one the opcode's decoder accepts, with its operands.
TEST(AluForms, EnumeratedFormsDecode) {
  const std::vector<AluForm> forms = enumerate_alu_forms("sm_90a", {"add", "cvt", "setp"});
  ASSERT_GT(forms.size(), 500U);
  for (const AluForm& f : forms) {
    std::string text;
    for (const AluSlot& s : f.slots)
      if (!s.immediate()) text += ".reg ." + std::string(ptx::name(s.decl)) + " " + s.name + ";\n";
    EXPECT_NO_THROW((void)ptx::parse_ptx(text + f.line + "\n", "form.ptx")) << f.line;
  }
}

TEST(AluForms, QualifierAxes) {
  EXPECT_EQ(ptx::expand_qualifier_axes("{|rn|rz} {f32|f64}"),
            (std::vector<std::string>{".f32", ".f64", ".rn.f32", ".rn.f64", ".rz.f32", ".rz.f64"}));
  EXPECT_EQ(ptx::expand_qualifier_axes("b32 {|xorsign.abs}"), (std::vector<std::string>{".b32", ".b32.xorsign.abs"}));
  EXPECT_THROW(ptx::expand_qualifier_axes("{rn"), Error);
}

// Division by zero gives the GPU's all ones with a warning; --strict makes it an error.
TEST(AluSemantics, DivisionByZeroWarnsOrFailsUnderStrict) {
  const std::string text = ".reg .b32 %r<3>;\ndiv.u32 %r0, %r1, %r2;\n";
  const auto r = test::run_ptx(text, [](test::Ran& x) { test::set_all(x, "%r1", 7); });
  EXPECT_EQ(r.reg(0, "%r0"), 0xffffffffU);
  ASSERT_EQ(r.summary.warnings.size(), 1U);
  EXPECT_NE(r.summary.warnings[0].message.find("division by zero in lanes 0-31"), std::string::npos)
      << r.summary.warnings[0].message;
  InterpreterOptions strict;
  strict.strict = true;
  EXPECT_NE(test::error_of(text, strict).find("division by zero"), std::string::npos);
}

// Forms ptxas refuses are refused at the instruction (docs/hardware/alu-sm90.md).
TEST(AluDecode, RefusesWhatPtxasRefuses) {
  const auto err = [](const std::string& decl, const std::string& ins) {
    return test::error_of(decl + "\n" + ins + "\n");
  };
  EXPECT_NE(err(".reg .b32 %r<2>; .reg .b16 %h1;", "cvt.sat.s32.s16 %r0, %h1;").find("test.ptx:2:1"), std::string::npos);
  EXPECT_NE(err(".reg .b32 %r<2>; .reg .b16 %h1;", "cvt.sat.s32.s16 %r0, %h1;").find("cannot overflow"), std::string::npos);
  EXPECT_NE(err(".reg .b32 %r<3>; .reg .pred %p;", "setp.lo.s32 %p, %r1, %r2;").find(".lo"), std::string::npos);
  EXPECT_NE(err(".reg .b16 %h<2>;", "mov.f16 %h0, %h1;").find("mov.f16"), std::string::npos);
  EXPECT_NE(err(".reg .b32 %r<2>; .reg .b16 %h1;", "cvt.rn.f32.f16 %r0, %h1;").find("rounding"), std::string::npos);
  EXPECT_NE(err(".reg .b32 %r<2>;", "cvt.rn.sat.relu.f16.f32 %r0, %r1;").find(".relu"), std::string::npos);
  EXPECT_EQ(err(".reg .b32 %r<2>;", "sqrt.rn.f32 %r0, %r1;"), "(no error)");
  EXPECT_EQ(err(".reg .b64 %rd<2>;", "rcp.rz.f64 %rd0, %rd1;"), "(no error)");
  EXPECT_NE(err(".reg .b64 %rd<2>;", "sqrt.approx.f64 %rd0, %rd1;").find("rcp.approx.ftz.f64"), std::string::npos);
}

}  // namespace
}  // namespace ptxmma
