// configs/models/<arch>.yaml: every file loads, and every catalogue variant legal on an
// architecture finds a rounding model there, except the gaps the files document.
#include <gtest/gtest.h>

#include <set>

#include "isa/mma_instruction.hpp"
#include "sim/catalog/mma_family.hpp"
#include "sim/error.hpp"
#include "sim/model/model.hpp"

namespace ptxmma {
namespace {

const char* const kArchs[] = {"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a", "sm_120a"};

TEST(ModelFiles, EveryLegalVariantHasAModel) {
  for (const char* arch : kArchs) {
    const ModelSet& set = models_for(arch);
    EXPECT_EQ(set.arch, arch);
    int legal = 0, modelled = 0;
    std::set<std::string> missing;
    for (const MatrixVariant& v : mma_catalog().variants()) {
      try {
        parse_mma(v.ptx, arch);
      } catch (const Error&) {
        continue;  // not legal on this architecture
      }
      ++legal;
      try {
        (void)set.select(v.family, v.a, v.d);
        ++modelled;
      } catch (const Error&) {
        missing.insert(v.family);
      }
    }
    EXPECT_GT(legal, 0) << arch;
    // m8n8k4 f16 has a model only where it was measured (sm_90a) or is native (sm_70).
    const std::string a = arch;
    if (a == "sm_70" || a == "sm_90a") EXPECT_TRUE(missing.empty()) << arch << ": " << *missing.begin();
    else EXPECT_EQ(missing, std::set<std::string>{"hmma_m8n8k4"}) << arch;
  }
}

TEST(ModelFiles, SelectionByInputType) {
  EXPECT_EQ(models_for("sm_80").select("hmma", Type::tf32, Type::f32).name, "sm_80/hmma/tf32");
  EXPECT_EQ(models_for("sm_80").select("hmma", Type::bf16, Type::f32).name, "sm_80/hmma");
  const Model& fp8 = models_for("sm_89").select("fp8_via_hmma", Type::e4m3, Type::f32);
  EXPECT_EQ(fp8.block.frac_bits, 13);
  EXPECT_EQ(fp8.block.f32.frac, 13);
  EXPECT_FALSE(fp8.block.f16.frac.has_value());
  EXPECT_EQ(fp8.block.blocks, 2);
  EXPECT_EQ(fp8.block.run, 16);
  EXPECT_EQ(models_for("sm_100a").select("fp8_via_hmma", Type::e5m2, Type::f16).block.c_entry,
            BlockFma::CEntry::final_add);
  EXPECT_FALSE(models_for("sm_70").select("hmma", Type::f16, Type::f32).block.f32.exp_floor.has_value());
}

}  // namespace
}  // namespace ptxmma
