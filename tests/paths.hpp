// The source tree and the built `ptxmma`, for the tests that read data or run the program.
// Defined in paths.cpp alone (from CMake), so that no other test object depends on where the
// checkout lies and a compiler cache can share them between checkouts.
#pragma once

extern const char* const kPtxmmaSourceDir;
extern const char* const kPtxmmaCli;
