// The source tree, the build tree and the built `ptxmma`, for the tests that read data, run the
// program or leave files to look at.
// Defined in paths.cpp alone (from CMake), so that no other test object depends on where the
// checkout lies and a compiler cache can share them between checkouts.
#pragma once

extern const char* const kPtxmmaSourceDir;
extern const char* const kPtxmmaCli;
extern const char* const kPtxmmaBuildDir;
