// The wgmma catalogue and decoder: every dense variant, every legal N, and errors naming what is wrong.
#include "isa/wgmma_instruction.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

#include "sim/catalog/wgmma_family.hpp"
#include "sim/error.hpp"
#include "tests/malformed/malformed.hpp"
#include "tests/paths.hpp"
#include "tests/source_catalog.hpp"
#include "tools/vectors/wgmma_golden.hpp"

namespace ptxmma {
namespace {

const MatrixCatalog& catalog() { return source_catalog<load_wgmma_catalog>(); }

std::string error_of(const std::string& text, const std::string& target = "sm_90a") {
  return malformed::error_of([&] { (void)parse_wgmma(text, target, catalog()); });
}

std::string statement_error(const std::string& text) {
  try {
    (void)parse_wgmma_statement(text, "sm_90a", catalog());
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

constexpr const char* kPre = "wgmma.mma_async.sync.aligned.";

// docs/wgmma-catalogue.md §1.1: 546 dense variants, 1092 instruction strings with the two A forms
// (f16 128, bf16 64, tf32 64, fp8 512, integer 288, b1 36); §4: 528 sparse ones, 1056 strings
// (f16 128, bf16 64, tf32 64, fp8 512, integer 288).
TEST(MatrixCatalog, CountsOfTheIsaTable) {
  std::map<std::string, int> per_family, sparse_per_family;
  std::map<Type, int> per_a, sparse_per_a;
  int sparse = 0;
  for (const MatrixVariant& v : catalog().variants()) {
    EXPECT_EQ(v.targets.first, "sm_90a");
    EXPECT_TRUE(v.targets.only);
    if (v.is_sparse()) {
      ++sparse;
      sparse_per_family[v.family] += 2;
      sparse_per_a[v.a] += 2;
      continue;
    }
    per_family[v.family] += 2;
    per_a[v.a] += 2;
  }
  EXPECT_EQ(catalog().variants().size(), 546U + 528U);
  EXPECT_EQ(sparse, 528);
  EXPECT_EQ(sparse_per_a[Type::f16], 128);
  EXPECT_EQ(sparse_per_a[Type::bf16], 64);
  EXPECT_EQ(sparse_per_a[Type::tf32], 64);
  EXPECT_EQ(sparse_per_a[Type::e4m3] + sparse_per_a[Type::e5m2], 512);
  EXPECT_EQ(sparse_per_a[Type::s8] + sparse_per_a[Type::u8], 288);
  EXPECT_EQ(sparse_per_family["hgmma"], 256);
  EXPECT_EQ(per_a[Type::f16], 128);
  EXPECT_EQ(per_a[Type::bf16], 64);
  EXPECT_EQ(per_a[Type::tf32], 64);
  EXPECT_EQ(per_a[Type::e4m3] + per_a[Type::e5m2], 512);
  EXPECT_EQ(per_a[Type::s8] + per_a[Type::u8], 288);
  EXPECT_EQ(per_a[Type::b1], 36);
  EXPECT_EQ(per_family["hgmma"], 256);
  EXPECT_EQ(per_family["qgmma"], 512);
  EXPECT_EQ(per_family["igmma"], 288);
  EXPECT_EQ(per_family["bgmma"], 36);
}

TEST(MatrixCatalog, EveryVariantParsesFromItsCanonicalSpelling) {
  for (const MatrixVariant& v : catalog().variants()) {
    const WgmmaInstruction ins = parse_wgmma(v.ptx, "sm_90a", catalog());
    ASSERT_EQ(ins.variant, &v) << v.ptx;
    EXPECT_EQ(v.regs(Operand::d), v.d == Type::f16 ? v.shape.n / 4 : v.shape.n / 2) << v.ptx;
    EXPECT_EQ(v.regs(Operand::a), 4);
    const bool mixed = (v.a == Type::s8 && v.b == Type::u8) || (v.a == Type::u8 && v.b == Type::s8);
    EXPECT_EQ(v.ptx_version, mixed ? "8.4" : v.is_sparse() ? "8.2" : "8.0") << v.ptx;
  }
}

TEST(MatrixCatalog, OperandLists) {
  const auto& f16 = *parse_wgmma(std::string(kPre) + "m64n8k16.f32.f16.f16", "sm_90a", catalog()).variant;
  EXPECT_EQ(wgmma_operand_names(f16, ASource::descriptor),
            (std::vector<std::string>{"d", "a-desc", "b-desc", "scale-d", "imm-scale-a", "imm-scale-b", "imm-trans-a",
                                      "imm-trans-b"}));
  EXPECT_EQ(wgmma_operand_names(f16, ASource::registers),
            (std::vector<std::string>{"d", "a", "b-desc", "scale-d", "imm-scale-a", "imm-scale-b", "imm-trans-b"}));
  const auto& tf32 = *parse_wgmma(std::string(kPre) + "m64n8k8.f32.tf32.tf32", "sm_90a", catalog()).variant;
  EXPECT_EQ(wgmma_operand_names(tf32, ASource::descriptor).size(), 6U);
  const auto& s8 = *parse_wgmma(std::string(kPre) + "m64n8k32.s32.s8.s8", "sm_90a", catalog()).variant;
  EXPECT_EQ(wgmma_operand_names(s8, ASource::registers), (std::vector<std::string>{"d", "a", "b-desc", "scale-d"}));
  const auto& sp = *parse_wgmma("wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.s8.s8", "sm_90a", catalog()).variant;
  EXPECT_EQ(wgmma_operand_names(sp, ASource::registers),
            (std::vector<std::string>{"d", "a", "b-desc", "sp-meta", "sp-sel", "scale-d"}));
}

// Every entry of the H200 wgmma golden set decodes, with the manifest's register words and types.
TEST(WgmmaInstruction, EveryGoldenEntryParses) {
  const WgmmaGoldenSet set = read_wgmma_golden_set(std::string(kPtxmmaSourceDir) + "/tests/data/wgmma-sm90");
  int n = 0;
  for (const WgmmaGoldenEntry& e : set.entries) {
    SCOPED_TRACE(e.ptx);
    const MatrixVariant& v = *parse_wgmma(e.ptx, "sm_90a", catalog()).variant;
    EXPECT_EQ(v.shape.n, e.n);
    EXPECT_EQ(v.regs(Operand::d), e.d_words);
    EXPECT_EQ(v.a, e.types.at("a"));
    EXPECT_EQ(v.b, e.types.at("b"));
    EXPECT_EQ(v.d, e.types.at("d"));
    ++n;
  }
  EXPECT_EQ(n, 145);
}

TEST(WgmmaInstruction, SpellingsPtxasAccepts) {
  const std::string sat_last = std::string(kPre) + "m64n8k32.s32.s8.s8.satfinite";
  const WgmmaInstruction a = parse_wgmma(sat_last, "sm_90a", catalog());
  EXPECT_TRUE(a.satfinite);
  EXPECT_EQ(a.variant->ptx, std::string(kPre) + "m64n8k32.satfinite.s32.s8.s8");
  EXPECT_EQ(parse_wgmma(std::string(kPre) + "m64n256k256.s32.b1.b1.and.popc;", "sm_90a", catalog()).variant->shape.n,
            256);
  EXPECT_EQ(error_of(std::string(kPre) + "m64n240k32.s32.u8.s8"), "no error");  // N = 240, 256 are legal
}

TEST(WgmmaInstruction, ErrorsNameWhatIsWrong) {
  const std::string p = kPre;
  EXPECT_EQ(error_of(p + "m64n20k16.f32.f16.f16"),
            p + "m64n20k16.f32.f16.f16: N = 20 is not legal for f16 inputs (N = 8..256 in steps of 8) (did you mean '" + p +
                "m64n24k16.f32.f16.f16'?)");
  EXPECT_EQ(error_of(p + "m64n40k32.s32.s8.s8"),
            p + "m64n40k32.s32.s8.s8: N = 40 is not legal for s8 inputs (N = 8, 16, 24, 32, 48, 64, 80, 96, 112, "
                "128, 144, 160, 176, 192, 208, 224, 240, 256)");
  EXPECT_EQ(error_of(p + "m32n8k16.f32.f16.f16"), p + "m32n8k16.f32.f16.f16: wgmma shapes are m64nNkK; .m32n8k16 has M = 32 (did you mean '" + p + "m64n8k16.f32.f16.f16'?)");
  EXPECT_EQ(error_of(p + "m64n8k32.f32.f16.f16"), p + "m64n8k32.f32.f16.f16: f16 inputs need k16 (m64nNk16); the shape has k32");
  EXPECT_EQ(error_of(p + "m64n8k16.f16.bf16.bf16"), p + "m64n8k16.f16.bf16.bf16: bf16 inputs need f32 D, not f16");
  EXPECT_EQ(error_of(p + "m64n8k32.s32.s8.e4m3"), p + "m64n8k32.s32.s8.e4m3: wgmma does not take s8 A with e4m3 B (with s8 A, B is s8 or u8)");
  EXPECT_EQ(error_of(p + "m64n8k16.f32.f64.f64"),
            p + "m64n8k16.f32.f64.f64: wgmma does not take f64 inputs (its A types: f16, bf16, tf32, e4m3, e5m2, s8, u8, b1)");
  EXPECT_EQ(error_of(p + "m64n8k16.satfinite.f32.f16.f16"),
            p + "m64n8k16.satfinite.f32.f16.f16: .satfinite applies only to s8, u8 inputs, not f16");
  EXPECT_EQ(error_of(p + "m64n8k256.s32.b1.b1"), p + "m64n8k256.s32.b1.b1: b1 inputs need .and.popc");
  EXPECT_EQ(error_of(p + "m64n8k256.s32.b1.b1.xor.popc"),
            p + "m64n8k256.s32.b1.b1.xor.popc: .xor.popc is not available for wgmma (b1 takes .and.popc only) (did you mean '" +
                p + "m64n8k256.s32.b1.b1.and.popc'?)");
  EXPECT_EQ(error_of(p + "m64n8k32.s32.s8.s8.and.popc"), p + "m64n8k32.s32.s8.s8.and.popc: .and.popc applies only to b1 inputs");
  EXPECT_EQ(error_of(p + "m64n8k16.f32.f16.f16", "sm_90"), p + "m64n8k16.f32.f16.f16: needs sm_90a; the target is sm_90");
  EXPECT_EQ(error_of(p + "m64n8k16.f32.f16.f16", "sm_100a"),
            p + "m64n8k16.f32.f16.f16: needs sm_90a; the target is sm_100a");
  EXPECT_EQ(error_of(p + "m64n8k16.f32.f16.f16.f32"),
            p + "m64n8k16.f32.f16.f16.f32: expected 3 types (.dtype.atype.btype), found 4: wgmma has no .ctype (the "
                "accumulator D is also C)");
  EXPECT_EQ(error_of("wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.f16.f16"),
            "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.f16.f16: f16 inputs need k32 (m64nNk32); the shape has k16");
  EXPECT_EQ(error_of("wgmma.mma_async.sp.sync.aligned.m64n8k256.s32.b1.b1.and.popc"),
            "wgmma.mma_async.sp.sync.aligned.m64n8k256.s32.b1.b1.and.popc: wgmma does not take b1 inputs (its A types: "
            "f16, bf16, tf32, e4m3, e5m2, s8, u8)");
  EXPECT_EQ(error_of("wgmma.fence.sync.aligned"),
            "wgmma.fence.sync.aligned: wgmma.fence is a synchronisation instruction, not a matrix multiply (expected "
            "wgmma.mma_async)");
  EXPECT_EQ(error_of(p + "m64n8k16.row.col.f32.f16.f16"),
            p + "m64n8k16.row.col.f32.f16.f16: '.row': wgmma takes no layout qualifiers (A and B are K-major unless "
                "imm-trans-a/b say otherwise) (did you mean '" + p + "m64n8k16.f32.f16.f16'?)");
  EXPECT_EQ(error_of(p + "f32.f16.f16"), p + "f32.f16.f16: the shape (e.g. .m64n8k16) must come before the types; found '.f32' first");
  EXPECT_EQ(error_of("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: not a wgmma instruction (expected wgmma.mma_async.sync.aligned...)");
}

TEST(WgmmaStatement, OperandsOfBothForms) {
  const std::string p = std::string(kPre) + "m64n8k16.f32.f16.f16 ";
  const WgmmaStatement ss = parse_wgmma_statement(p + "{%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, -1, 0, 1;", "sm_90a", catalog());
  EXPECT_EQ(ss.operands.a_source, ASource::descriptor);
  EXPECT_EQ(ss.d, (std::vector<std::string>{"%f0", "%f1", "%f2", "%f3"}));
  EXPECT_EQ(ss.a_desc, "%rd1");
  EXPECT_EQ(ss.b_desc, "%rd2");
  EXPECT_EQ(ss.scale_d_predicate, "%p1");
  EXPECT_EQ(ss.operands.imm_scale_a, 1);
  EXPECT_EQ(ss.operands.imm_scale_b, -1);
  EXPECT_EQ(ss.operands.imm_trans_a, 0);
  EXPECT_EQ(ss.operands.imm_trans_b, 1);
  const WgmmaStatement rs =
      parse_wgmma_statement(p + "{%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, %rd2, 0, -1, 1, 1", "sm_90a", catalog());
  EXPECT_EQ(rs.operands.a_source, ASource::registers);
  EXPECT_EQ(rs.a.size(), 4U);
  EXPECT_FALSE(rs.scale_d_predicate.has_value());
  EXPECT_FALSE(rs.scale_d);
  EXPECT_EQ(rs.operands.imm_scale_a, -1);
  EXPECT_EQ(rs.operands.imm_trans_b, 1);
  const WgmmaStatement integer = parse_wgmma_statement(
      std::string(kPre) + "m64n8k32.s32.s8.s8 {%r0, %r1, %r2, %r3}, %rd1, %rd2, 1;", "sm_90a", catalog());
  EXPECT_TRUE(integer.scale_d);
}

TEST(WgmmaStatement, ErrorsNameTheOperand) {
  const std::string ins = std::string(kPre) + "m64n8k16.f32.f16.f16";
  const std::string d = " {%f0, %f1, %f2, %f3}, ";
  EXPECT_EQ(statement_error(ins + d + "%rd1, %rd2, 1, 1, 1, 0;"),
            ins + ": with A from a descriptor this variant takes 8 operands (d, a-desc, b-desc, scale-d, imm-scale-a, "
                  "imm-scale-b, imm-trans-a, imm-trans-b), found 7");
  EXPECT_EQ(statement_error(ins + d + "{%r0, %r1, %r2, %r3}, %rd2, 1, 1, 1, 0, 0;"),
            ins + ": with A from registers this variant takes 7 operands (d, a, b-desc, scale-d, imm-scale-a, "
                  "imm-scale-b, imm-trans-b), found 8");
  EXPECT_EQ(statement_error(ins + " {%f0, %f1}, %rd1, %rd2, 1, 1, 1, 0, 0;"),
            ins + ": operand d: f32 D needs 4 registers per thread (N = 8), found 2");
  EXPECT_EQ(statement_error(ins + d + "%rd1, %rd2, 1, 0, 1, 0, 0;"),
            ins + ": imm-scale-a is 0; it must be 1 or -1");
  EXPECT_EQ(statement_error(ins + d + "%rd1, %rd2, 1, 1, 1, 2, 0;"),
            ins + ": imm-trans-a is 2; it must be 0 (K-major) or 1 (transposed)");
  EXPECT_EQ(statement_error(ins + d + "%rd1, %rd2, 2, 1, 1, 0, 0;"), ins + ": operand scale-d: the constant 2 is not 0 or 1");
  EXPECT_EQ(statement_error(ins + d + "%rd1, %rd2, 1, x+1, 1, 0, 0;"),
            ins + ": operand imm-scale-a: 'x+1' is not an integer constant");
  const std::string tf32 = std::string(kPre) + "m64n8k8.f32.tf32.tf32";
  EXPECT_EQ(statement_error(tf32 + d + "%rd1, %rd2, 1, 1, 1, 1, 0;"),
            tf32 + ": with A from a descriptor this variant takes 6 operands (d, a-desc, b-desc, scale-d, imm-scale-a, "
                   "imm-scale-b), found 8");
  const std::string s8 = std::string(kPre) + "m64n8k32.s32.s8.s8";
  EXPECT_EQ(statement_error(s8 + d + "%rd1, %rd2, 1, -1, 1;"),
            s8 + ": with A from a descriptor this variant takes 4 operands (d, a-desc, b-desc, scale-d), found 6");
}

TEST(MatrixVariant, CheckRejectsIllegalImmediates) {
  const auto& f16 = *parse_wgmma(std::string(kPre) + "m64n8k16.f32.f16.f16", "sm_90a", catalog()).variant;
  const auto& e4m3 = *parse_wgmma(std::string(kPre) + "m64n8k32.f32.e4m3.e4m3", "sm_90a", catalog()).variant;
  const auto& s8 = *parse_wgmma(std::string(kPre) + "m64n8k32.s32.s8.s8", "sm_90a", catalog()).variant;
  const auto message = [](const MatrixVariant& v, WgmmaOperands o) {
    try {
      check_wgmma_operands(v, o);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(f16, {ASource::descriptor, -1, -1, 1, 1}), "no error");
  EXPECT_EQ(message(f16, {ASource::registers, 1, 1, 1, 0}),
            f16.ptx + ": imm-trans-a 1: A in registers cannot be transposed (imm-trans-a exists only with an A descriptor)");
  EXPECT_EQ(message(e4m3, {ASource::descriptor, -1, 1, 0, 1}),
            e4m3.ptx + ": imm-trans-b 1: e4m3 inputs cannot be transposed (f16 and bf16 only)");
  EXPECT_EQ(message(s8, {ASource::descriptor, -1, 1, 0, 0}),
            s8.ptx + ": imm-scale-a -1: s8 inputs take no imm-scale operands (floating-point variants only)");
}

// configs/wgmma/variants.yaml errors name the file, line and row.
TEST(MatrixCatalog, LoaderErrorsNameFileLineAndRow) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ptxmma-wgmma-cat-" + std::to_string(::getpid()));
  for (const char* f : {"wgmma/layouts.yaml", "mma/sparse.yaml"}) {
    fs::create_directories((dir / f).parent_path());
    fs::copy_file(fs::path(kPtxmmaSourceDir) / "configs" / f, dir / f, fs::copy_options::overwrite_existing);
  }
  const std::string head =
      "n_lists:\n  all: {from: 8, to: 256, step: 8}\naccumulators:\n  f32: wgmma.d.32bit.n{N}\nvariants:\n"
      "  - row: 1\n    k: 16\n    atype: [f16]\n    btype: [f16]\n    dtype: [f32]\n"
      "    a: [wgmma.a.k16.16bit, 4]\n    family: hgmma\n    target: {only: sm_90a}\n    ptx: \"8.0\"\n";
  const auto error_with = [&](const std::string& tail) {
    std::ofstream(dir / "wgmma/variants.yaml") << head << tail;
    try {
      (void)load_wgmma_catalog(dir.string());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string file = (dir / "wgmma/variants.yaml").string();
  EXPECT_EQ(error_with("    n: all\n"), "no error");
  EXPECT_EQ(error_with("    n: most\n"), file + ":15:8: row 1: unknown N list 'most'");
  EXPECT_EQ(error_with("    n: [8, 12]\n"), file + ":15:8: row 1: n: N = 12 is not a multiple of 8 in 8..256");
  EXPECT_EQ(error_with("    n: all\n    colour: red\n"), file + ":16:5: row 1: unknown key 'colour'");
  EXPECT_EQ(error_with("    n: all\n    trans: [c]\n"), file + ":16:12: row 1: trans: 'c' is not a or b");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ptxmma
