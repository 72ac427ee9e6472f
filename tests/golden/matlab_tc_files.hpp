// Shared by the tests of sets in matlab-tc's format (tests/data/matlab-tc, tests/data/mmasim-tcgen05):
// one parameterised test per manifest file, and looking a file up by name.
#pragma once
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "tools/vectors/matlab_tc.hpp"

namespace ptxmma::test {

// The manifest's files, read while the tests register; a broken manifest leaves the list empty
// (the whole-set tests then fail).
inline std::vector<std::string> manifest_files(const std::string& dir) {
  std::vector<std::string> names;
  try {
    for (const MatlabTcFile& f : read_matlab_tc(dir).files) names.push_back(f.name);
  } catch (const Error&) {
  }
  return names;
}

// A file name as a test name: every character but letters and digits an underscore.
inline std::string file_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

inline const MatlabTcFile& find_file(const MatlabTcSet& set, const std::string& name) {
  for (const auto& f : set.files)
    if (f.name == name) return f;
  throw Error("not in the manifest: " + name);
}

// Replays file `name` of the set at `dir`: its model is supported and every one of its cases
// matches bit for bit. The report, for what a set checks besides.
inline MatlabTcReport expect_file_matches(const std::string& dir, const std::string& name) {
  const MatlabTcSet set = read_matlab_tc(dir + "/" + name);
  EXPECT_EQ(set.files.size(), 1U);
  const MatlabTcReport r = replay_matlab_tc(set);
  std::ostringstream text;
  print(r, text);
  EXPECT_EQ(r.files.size(), 1U);
  if (r.files.size() != 1 || set.files.size() != 1) return r;
  EXPECT_TRUE(r.files[0].supported) << r.files[0].error;
  EXPECT_EQ(r.files[0].failed, 0) << text.str();
  EXPECT_EQ(r.files[0].cases, set.files[0].rows);
  return r;
}

}  // namespace ptxmma::test
