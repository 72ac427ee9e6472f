// tcgen05 (sm_100a) tensor memory in the interpreter: alloc / dealloc / relinquish_alloc_permit,
// tcgen05.ld / st for every shape with the registers' TMEM cells written out here from the PTX
// ISA's figures (in the form of CUTLASS's SM100_TMEM_LOAD DstLayouts), not from
// configs/tcgen05/tmem_copy.yaml; .num, .pack::16b / .unpack::16b, immHalfSplitoff; the hazards,
// access rules, blocking allocations and malformed forms; and the decoder against ptxas's word on
// every form of tests/data/tcgen05-ptxas/forms.tsv.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/paths.hpp"
#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

// The kernel of tools/tcgen05/ptxas_sweep.py around one instruction.
std::string in_sweep_kernel(const std::string& ins) {
  return ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<300>;\n"
         ".reg .b64 %rd<4>;\n.shared .align 16 .b32 slot;\n" +
         ins + "\nret;\n}\n";
}

TEST(Tcgen05, DecoderAgreesWithPtxas) {
  std::ifstream in(std::string(kPtxmmaSourceDir) + "/tests/data/tcgen05-ptxas/forms.tsv");
  ASSERT_TRUE(in) << "tests/data/tcgen05-ptxas/forms.tsv";
  std::string line;
  int accepted = 0, refused = 0, pair_forms = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const bool ok = line.substr(0, tab) == "accepted";
    const std::string ins = line.substr(tab + 1);
    std::string error;
    try {
      (void)ptx::parse_ptx(in_sweep_kernel(ins), "sweep.ptx");
    } catch (const Error& e) {
      error = e.what();
    }
    if (ok && ins.find("cta_group::2") != std::string::npos) {
      // Legal PTX that ptxmma does not run (a CTA pair): refused, saying so.
      EXPECT_NE(error.find("is not simulated"), std::string::npos) << ins << ": " << error;
      ++pair_forms;
      continue;
    }
    if (ok) {
      EXPECT_EQ(error, "") << "ptxas accepts " << ins;
      ++accepted;
    } else {
      EXPECT_NE(error, "") << "ptxas refuses " << ins;
      ++refused;
    }
  }
  EXPECT_GT(accepted, 150);
  EXPECT_GT(refused, 80);
  EXPECT_EQ(pair_forms, 3);
}

}  // namespace
}  // namespace ptxmma::test
