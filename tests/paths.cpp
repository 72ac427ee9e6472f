#include "tests/paths.hpp"

const char* const kPtxmmaSourceDir = PTXMMA_SOURCE_DIR;
const char* const kPtxmmaCli = PTXMMA_CLI;
const char* const kPtxmmaBuildDir = PTXMMA_BUILD_DIR;
