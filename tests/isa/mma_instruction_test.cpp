#include "isa/mma_instruction.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "sim/catalog/mma_family.hpp"
#include "sim/error.hpp"
#include "tests/malformed/malformed.hpp"
#include "tests/paths.hpp"
#include "tests/source_catalog.hpp"
#include "tools/vectors/golden_set.hpp"
#include "sim/util/target.hpp"

namespace ptxmma {
namespace {

const MatrixCatalog& catalog() { return source_catalog<load_mma_catalog>(); }

std::string error_of(const std::string& text, const std::string& target = "sm_90a") {
  return malformed::error_of([&] { (void)parse_mma(text, target, catalog()); });
}

// Every variant of the H200 golden set parses and finds its catalogue entry with the manifest's
// register words (64-bit registers count two) and types.
TEST(MmaInstruction, EveryGoldenVariantParses) {
  const GoldenSet set = read_golden_set(std::string(kPtxmmaSourceDir) + "/tests/data/mma-sm90-h200");
  int n = 0;
  for (const GoldenVariant& e : set.variants) {
    SCOPED_TRACE(e.ptx);
    const MmaInstruction ins = parse_mma(e.ptx, "sm_90a", catalog());
    ASSERT_NE(ins.variant, nullptr);
    const MatrixVariant& v = catalog().find(ins);
    EXPECT_EQ(&v, ins.variant);
    EXPECT_EQ(v.words(Operand::a), e.words.a);
    EXPECT_EQ(v.words(Operand::b), e.words.b);
    EXPECT_EQ(v.words(Operand::c), e.words.c);
    EXPECT_EQ(v.words(Operand::d), e.words.d);
    EXPECT_EQ(v.a, e.types.at("a"));
    EXPECT_EQ(v.b, e.types.at("b"));
    EXPECT_EQ(v.c, e.types.at("c"));
    EXPECT_EQ(v.d, e.types.at("d"));
    // The canonical spelling is the manifest's, less the rounding token.
    std::string plain = e.ptx;
    for (const char* r : {".rz", ".rm", ".rp"})
      if (auto p = plain.find(r); p != std::string::npos) plain.erase(p, 3);
    EXPECT_EQ(v.ptx, plain);
    ++n;
  }
  EXPECT_EQ(n, 97);
}

TEST(MatrixCatalog, CountsMatchThePtxasSweep) {
  // 172 distinct dense qualifier strings assemble for some target, + 1 documented in PTX 9.1 only
  // (mxf4nvf4 .scale_vec::4X with ue8m0); 94 of them on sm_90a (docs/mma-catalogue.md §1). Sparse:
  // the 44 variants sm_90 runs, each as mma.sp and mma.sp::ordered_metadata, and 83 sm_120a ones
  // as mma.sp::ordered_metadata only (4 FP8 with f16, 50 f8f6f4, 25 mxf8f6f4, 1 mxf4, 3 mxf4nvf4):
  // 170 assemble, + 1 documented in PTX 9.1 only (§3.1).
  EXPECT_EQ(catalog().variants().size(), 173U + 88U + 83U);
  const int sm90a = *target_rank("sm_90a");
  int on_sm90a = 0;
  std::map<int, int> per_row;
  for (const MatrixVariant& v : catalog().variants()) {
    on_sm90a += *target_rank(v.targets.first) <= sm90a;
    ++per_row[v.row];
  }
  EXPECT_EQ(on_sm90a, 94 + 88);
  EXPECT_EQ(per_row.size(), 26U + 16U);
  EXPECT_EQ(per_row[313], 50);  // 25 type pairs x 2 accumulators, ordered_metadata only
  EXPECT_EQ(per_row[316], 3);
  EXPECT_EQ(per_row[301], 4);   // (f16, f32) x (sp, ordered_metadata)
  EXPECT_EQ(per_row[307], 16);  // 4 type pairs x .satfinite x 2 spellings
  EXPECT_EQ(per_row[1], 12);   // 4 layouts x 3 (D, C)
  EXPECT_EQ(per_row[15], 8);   // 4 type pairs x with/without .satfinite
  EXPECT_EQ(per_row[20], 50);  // 25 type pairs x 2 accumulators
  EXPECT_EQ(per_row[21], 25);
  EXPECT_EQ(per_row[24], 3);
}

TEST(MatrixCatalog, EveryVariantParsesBackFromItsCanonicalSpelling) {
  for (const MatrixVariant& v : catalog().variants()) {
    SCOPED_TRACE(v.ptx);
    const MmaInstruction ins = parse_mma(v.ptx, "sm_120a", catalog());
    EXPECT_EQ(ins.variant, &v);
    EXPECT_EQ(mma_ptx(ins), v.ptx);
    EXPECT_NO_THROW((void)parse_mma(v.ptx, v.targets.first, catalog()));
    const int rank = *target_rank(v.targets.first);
    if (rank > 0) {
      EXPECT_THROW((void)parse_mma(v.ptx, std::string(known_targets()[rank - 1]), catalog()), Error);
    }
  }
}

TEST(MatrixCatalog, VariantFields) {
  const MatrixVariant& f64 = *parse_mma("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64", "sm_90a", catalog()).variant;
  EXPECT_EQ(f64.family, "dmma");
  EXPECT_EQ(f64.regs(Operand::a), 8);
  EXPECT_EQ(f64.words(Operand::a), 16);
  EXPECT_EQ(f64.roundings.front(), Rounding::rn);
  EXPECT_EQ(f64.targets.first, "sm_90");
  EXPECT_EQ(f64.ptx_version, "7.8");
  const MatrixVariant& fp8 = *parse_mma("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32", "sm_90a", catalog()).variant;
  EXPECT_EQ(fp8.family, "fp8_via_hmma");
  EXPECT_EQ(fp8.ptx_version, "8.4");  // f32 D: PTX 8.4; f16 D: 8.7
  EXPECT_EQ(parse_mma("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16", "sm_90a", catalog()).variant->ptx_version,
            "8.7");
  const MatrixVariant& qp = *parse_mma("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16", "sm_70", catalog()).variant;
  EXPECT_EQ(qp.problems(), 4);
  EXPECT_EQ(qp.lc->name, "m8n8k4.f16.cd.16bit");
  EXPECT_EQ(qp.ld->name, "m8n8k4.f16.cd.32bit");
  EXPECT_EQ(qp.la->name, "m8n8k4.f16.a.col");
  EXPECT_EQ(qp.lb->name, "m8n8k4.f16.b.row");
  const MatrixVariant& e2m1 =
      *parse_mma("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32", "sm_120a", catalog()).variant;
  EXPECT_EQ(e2m1.container, Container::f8f6f4);
  EXPECT_EQ(e2m1.family, "f8f6f4");
  const MatrixVariant& b1 =
      *parse_mma("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc", "sm_80", catalog()).variant;
  EXPECT_EQ(b1.bitop, BitOp::and_popc);
  EXPECT_EQ(b1.ptx_version, "7.1");
  EXPECT_EQ(parse_mma("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", "sm_75", catalog()).variant->targets.first,
            "sm_75");
}

TEST(MmaInstruction, AcceptedSpellings) {
  const auto variant = [](const std::string& s, const char* target = "sm_90a") {
    return parse_mma(s, target, catalog()).variant;
  };
  // Rounding right after .row.col or as a suffix.
  const MmaInstruction a = parse_mma("mma.sync.aligned.m8n8k4.row.col.rz.f64.f64.f64.f64", "sm_90a", catalog());
  const MmaInstruction b = parse_mma("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64.rz", "sm_90a", catalog());
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.rounding, Rounding::rz);
  EXPECT_EQ(b.rounding, Rounding::rz);
  EXPECT_FALSE(parse_mma("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", "sm_90a", catalog()).rounding);
  // .satfinite before the types or last.
  EXPECT_EQ(variant("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.u8.s32"),
            variant("mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32.satfinite"));
  EXPECT_NE(variant("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.u8.s32"),
            variant("mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32"));
  // Block scaling: CUTLASS's order (kind before the shape), and the default .scale_vec.
  const auto* bs = variant("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e2m1.f32.ue8m0",
                           "sm_120a");
  EXPECT_EQ(bs, variant("mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col.f32.e4m3.e2m1.f32.ue8m0",
                        "sm_120a"));
  EXPECT_EQ(bs, variant("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e2m1.f32.ue8m0", "sm_120a"));
  EXPECT_EQ(bs->scale_vec, 1);
  EXPECT_EQ(bs->stype, Type::ue8m0);
  const MmaInstruction nv =
      parse_mma("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3",
                "sm_120a", catalog());
  EXPECT_EQ(nv.kind, MmaKind::mxf4nvf4);
  EXPECT_EQ(nv.scale_vec, 4);
  EXPECT_EQ(nv.variant->family, "mxf4nvf4");
  // Surrounding blanks and a trailing semicolon.
  EXPECT_EQ(variant("  mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32; "),
            variant("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"));
  // FP8-only kind::f8f6f4 also on sm_100a.
  EXPECT_NE(variant("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e5m2.f32", "sm_100a"), nullptr);
  const MmaInstruction text = parse_mma("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", "sm_90a", catalog());
  EXPECT_EQ(text.text, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc");
  EXPECT_EQ(text.shape, (Shape{16, 8, 256}));
  EXPECT_EQ(text.bitop, BitOp::and_popc);
}

// Each illegal instruction gets one line saying exactly what is wrong.
TEST(MmaInstruction, IllegalInstructionsSayWhatIsWrong) {
  struct Case {
    const char* text;
    const char* target;
    const char* error;  // after "<text>: "
  };
  const Case cases[] = {
      {"mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f32", "sm_90a", "bf16 inputs need f32 C and D"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_75", "needs sm_80 or later; the target is sm_75"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16", "sm_90a", "f16 inputs need C and D both f16 or f32"},
      {"mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32", "sm_90a",
       "f16 inputs on m8n8k4 need (D, C) = (f16, f16), (f32, f16) or (f32, f32); (f16, f32) is illegal"},
      {"mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32", "sm_90a",
       ".satfinite applies only to s8, u8, s4, u4 inputs, not f16"},
      {"mma.sync.aligned.m16n8k128.row.col.satfinite.s32.b1.b1.s32.and.popc", "sm_90a",
       ".satfinite applies only to s8, u8, s4, u4 inputs, not b1"},
      {"mma.sync.aligned.m8n8k4.row.col.rna.f64.f64.f64.f64", "sm_90a", "f64 inputs take .rn, .rz, .rm or .rp, not .rna"},
      {"mma.sync.aligned.m16n8k16.row.col.rn.f32.f16.f16.f32", "sm_90a", "rounding .rn applies only to f64 inputs"},
      {"mma.sync.aligned.m8n8k4.row.col.rz.f64.f64.f64.f64.rm", "sm_90a", "two rounding modifiers: .rz and .rm"},
      {"mma.sync.aligned.m16n8k16.row.col.ftz.f32.f16.f16.f32", "sm_90a", "unknown qualifier '.ftz' (did you mean 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'?)"},
      {"mma.sync.aligned.row.col.f32.f16.f16.f32", "sm_90a", "missing the shape (e.g. .m16n8k16) before '.row'"},
      {"mma.sync.aligned.f32.f16.f16.f32", "sm_90a", "missing the shape (e.g. .m16n8k16)"},
      {"mma.sync.aligned.m16n8k2.row.col.f32.f16.f16.f32", "sm_90a",
       "unknown shape .m16n8k2 (mma.sync shapes: m8n8k4, m8n8k16, m8n8k32, m8n8k128, m16n8k4, m16n8k8, m16n8k16, "
       "m16n8k32, m16n8k64, m16n8k128, m16n8k256) (did you mean 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32'?)"},
      {"mma.sync.aligned.m16n8k16.f32.f16.f16.f32", "sm_90a", "missing the layouts after .m16n8k16 (.row.col)"},
      {"mma.sync.aligned.m16n8k16.row.f32.f16.f16.f32", "sm_90a", "only one layout; A and B need one each (.row.col)"},
      {"mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32", "sm_90a",
       "f16 inputs on m16n8k16 take only .row.col, not .col.row"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32", "sm_90a",
       "m16n8k16 does not take f16 A with bf16 B (with f16 A, B is f16)"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.s8.e4m3.f32", "sm_90a",
       "m16n8k16 does not take s8 A with e4m3 B (with s8 A, B is s8 or u8)"},
      {"mma.sync.aligned.m8n8k4.row.col.f32.bf16.bf16.f32", "sm_90a", "m8n8k4 does not take bf16 inputs (its A types: f16, f64)"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16", "sm_90a", "expected 4 types (.dtype.atype.btype.ctype), found 3"},
      {"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32", "sm_90a", "b1 inputs need .xor.popc or .and.popc"},
      {"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor", "sm_90a", "'.xor' must be followed by '.popc'"},
      {"mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32.and.popc", "sm_90a", ".and.popc applies only to b1 inputs"},
      {"mma.sync.aligned.m16n8k128.row.col.and.popc.s32.b1.b1.s32", "sm_90a",
       "'.and.popc' must come after the types (...s32.b1.b1.s32.and.popc)"},
      {"mma.sync.aligned.m16n8k32.row.col.f32.e3m2.e3m2.f32", "sm_120a",
       "e3m2 inputs on m16n8k32 need .kind::f8f6f4 or .kind::mxf8f6f4"},
      {"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.s32.s8.s8.s32", "sm_120a",
       "s8 inputs on m16n8k32 take no .kind qualifier"},
      {"mma.sync.aligned.m16n8k32.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0", "sm_120a",
       ".kind::mxf4 needs shape m16n8k64; the shape is m16n8k32"},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue8m0", "sm_120a",
       ".kind::mxf4nvf4 needs .scale_vec::2X or .scale_vec::4X"},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue4m3", "sm_120a",
       ".kind::mxf4nvf4 takes .scale_vec::2X with .ue8m0, .scale_vec::4X with .ue4m3 or .scale_vec::4X with .ue8m0, "
       "not .scale_vec::2X with .ue4m3"},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4.f32.e2m1.e2m1.f32", "sm_120a", ".kind::mxf4 needs .block_scale"},
      {"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0", "sm_120a",
       ".kind::f8f6f4 takes no .block_scale"},
      {"mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.f32.e4m3.e4m3.f32.ue8m0", "sm_120a",
       "expected 4 types (.dtype.atype.btype.ctype), found 5"},
      {"mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32", "sm_120a",
       "expected 5 types with .block_scale (.dtype.atype.btype.ctype.stype), found 4"},
      {"mma.sync.aligned.m16n8k16.row.col.scale_vec::2X.f32.f16.f16.f32", "sm_90a",
       "'.scale_vec::2X' must follow '.block_scale'"},
      {"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32", "sm_90a",
       "needs sm_120a; the target is sm_90a"},
      {"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e4m3.f32", "sm_100a",
       "needs sm_120a; the target is sm_100a"},
      {"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32", "sm_90a",
       "needs sm_100a or later; the target is sm_90a"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32", "sm_80", "needs sm_89 or later; the target is sm_80"},
      {"mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", "sm_86", "needs sm_90 or later; the target is sm_86"},
      {"mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc", "sm_75", "needs sm_80 or later; the target is sm_75"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_91",
       "unknown target 'sm_91' (known: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120a)"},
      {"mma.sp.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "sm_90a", "m16n8k8 does not take f16 inputs (its A types: tf32)"},
      {"mma.sp.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", "sm_90a",
       "unknown shape .m16n8k256 (mma.sp shapes: m16n8k16, m16n8k32, m16n8k8, m16n8k64, m16n8k128)"},
      {"mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32", "sm_80", "needs sm_89 or later; the target is sm_80"},
      {"mma.sp.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_90a", "expected mma.sp.sync.aligned"},
      {"mma.sp.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0", "sm_120a",
       "sparse .kind::mxf8f6f4 is only mma.sp::ordered_metadata"},
      {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0",
       "sm_100a", "needs sm_120a; the target is sm_100a"},
      {"mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue4m3",
       "sm_120a", ".kind::mxf4nvf4 needs .scale_vec::2X or .scale_vec::4X"},
      {"mma.sync.m16n8k16.row.col.f32.f16.f16.f32", "sm_90a", "expected mma.sync.aligned"},
      {"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "sm_90a", "not an mma instruction (expected mma.sync.aligned...)"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.", "sm_90a", "trailing '.'"},
      {"mma.sync.aligned.m16n8k16..row.col.f32.f16.f16.f32", "sm_90a", "empty qualifier (two dots in a row)"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.rn.f32", "sm_90a",
       "unexpected type '.f32' after '.rn' (the types .dtype.atype.btype.ctype come together)"},
      {"mma.sync.aligned.m16n8k16.row.col.row.f32.f16.f16.f32", "sm_90a",
       "a third layout '.row' (A and B take one each: .row.col)"},
      {"mma.sync.aligned.m16n8k16.satfinite.row.col.s32.s8.s8.s32", "sm_90a",
       "the layout '.row' must come right after the shape"},
      {"mma.sync.aligned.m16n8k16.m16n8k8.row.col.f32.f16.f16.f32", "sm_90a", "two shapes: .m16n8k16 and .m16n8k8"},
      {"mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32.satfinite", "sm_90a", "'.satfinite' given twice"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(error_of(c.text, c.target), std::string(c.text) + ": " + c.error);
  }
  EXPECT_EQ(error_of("   "), "empty mma instruction");
  EXPECT_EQ(error_of("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 d, a, b, c;"),
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 d, a, b, c: expected the instruction without operands "
            "(no spaces), e.g. mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
}

TEST(MatrixCatalog, FindReportsAMissingEntry) {
  MatrixSelector s;
  s.shape = {16, 8, 16};
  s.a = s.b = Type::bf16;
  s.c = s.d = Type::f16;
  EXPECT_EQ(catalog().lookup(s), nullptr);
  try {
    (void)catalog().find(s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f16: not in the mma catalogue");
  }
}

TEST(MatrixCatalog, ProcessWideCatalogueLoadsFromTheConfigDir) {
  const MatrixCatalog& c = mma_catalog();
  EXPECT_EQ(&c, &mma_catalog());
  EXPECT_EQ(c.variants().size(), catalog().variants().size());
}

TEST(Targets, Order) {
  EXPECT_LT(*target_rank("sm_90"), *target_rank("sm_90a"));
  EXPECT_LT(*target_rank("sm_90a"), *target_rank("sm_100a"));
  EXPECT_FALSE(target_rank("sm_91").has_value());
  EXPECT_EQ(parse_shape("m16n8k256"), (Shape{16, 8, 256}));
  EXPECT_FALSE(parse_shape("m16n8").has_value());
  EXPECT_FALSE(parse_shape("m16n8k16x").has_value());
  EXPECT_FALSE(parse_shape("m0n8k16").has_value());
}

}  // namespace
}  // namespace ptxmma

namespace ptxmma {
namespace {

// A catalogue that disagrees with its layouts is refused with the file, line and row.
class BrokenCatalogue : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ptxmma-catalogue-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_ / "mma");
    for (const char* f : {"layouts.yaml", "sparse.yaml"})
      std::filesystem::copy_file(std::string(kPtxmmaSourceDir) + "/configs/mma/" + f, dir_ / "mma" / f,
                                 std::filesystem::copy_options::overwrite_existing);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string load_error(const std::string& row_lines) {
    std::ofstream(dir_ / "mma/variants.yaml") << "accumulators:\n"
                                                 "  m16n8: {f32: [m16n8.cd.32bit, 4]}\n"
                                                 "variants:\n"
                                                 "  - row: 9\n"
                                                 "    shape: m16n8k8\n"
                                                 "    atype: [bf16]\n"
                                                 "    btype: [bf16]\n"
                                                 "    dc: [f32]\n"
                                              << row_lines;
    try {
      (void)load_mma_catalog(dir_.string());
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  }
  std::string file() const { return (dir_ / "mma/variants.yaml").string(); }

  std::filesystem::path dir_;
};

constexpr const char* kTail = "    cd: m16n8\n    family: hmma\n    target: sm_80\n    ptx: \"7.0\"\n";

TEST_F(BrokenCatalogue, RegisterCountDisagreesWithTheLayout) {
  EXPECT_EQ(load_error(std::string("    a: [m16n8k8.a.16bit, 4]\n    b: [m16n8k8.b.16bit, 1]\n") + kTail),
            file() + ":9:8: row 9: A: layout m16n8k8.a.16bit has 2 registers, the entry says 4");
}

TEST_F(BrokenCatalogue, LayoutOfAnotherShape) {
  EXPECT_EQ(load_error(std::string("    a: [m16n8k16.a.16bit, 4]\n    b: [m16n8k8.b.16bit, 1]\n") + kTail),
            file() + ":9:8: row 9: A: layout m16n8k16.a.16bit is 16x16, the shape needs 16x8");
}

TEST_F(BrokenCatalogue, LayoutOfAnotherElementWidth) {
  EXPECT_EQ(load_error(std::string("    a: [m16n8k8.a.32bit, 4]\n    b: [m16n8k8.b.16bit, 1]\n") + kTail),
            file() + ":9:8: row 9: A: layout m16n8k8.a.32bit has 1 elements per register, bf16 needs 2");
}

TEST_F(BrokenCatalogue, UnknownLayoutAndTarget) {
  EXPECT_EQ(load_error(std::string("    a: [m16n8k8.a.16bits, 2]\n    b: [m16n8k8.b.16bit, 1]\n") + kTail),
            file() + ":9:8: row 9: A: unknown layout 'm16n8k8.a.16bits'");
  EXPECT_EQ(load_error("    a: [m16n8k8.a.16bit, 2]\n    b: [m16n8k8.b.16bit, 1]\n    cd: m16n8\n    family: hmma\n"
                       "    target: sm_81\n    ptx: \"7.0\"\n"),
            file() + ":13:13: row 9: unknown target 'sm_81' (known: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, "
                     "sm_100a, sm_120a)");
}

TEST_F(BrokenCatalogue, WhenThatMatchesNothing) {
  EXPECT_EQ(load_error(std::string("    a: [m16n8k8.a.16bit, 2]\n    b: [m16n8k8.b.16bit, 1]\n") + kTail +
                       "    when:\n      - {d: f16, ptx: \"8.0\"}\n"),
            file() + ":16:9: row 9: this 'when' item matches none of the row's variants");
}

TEST_F(BrokenCatalogue, UnknownSparseForm) {
  EXPECT_EQ(load_error(std::string("    sparse: {pattern: \"1:2\", metadata: m1, forms: [sp::unordered]}\n"
                                   "    a: [m16n8k8.a.16bit, 2]\n    b: [m16n8k8.b.16bit, 1]\n") + kTail),
            file() + ":9:51: row 9: sparse form 'sp::unordered' is not sp or sp::ordered_metadata");
}

}  // namespace
}  // namespace ptxmma
