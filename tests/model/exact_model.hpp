// The independent reference for the dot-product engines: the same model parameters, evaluated
// with exact rationals (Boost.Multiprecision) and the rational rounding of sim/numeric/exact.hpp.
// Shares no arithmetic with sim/model/dot.cpp; tests pit the two against each other.
#pragma once
#include <cstdint>

#include "sim/model/dot.hpp"

namespace ptxmma::testing {

std::uint64_t exact_dot(const Model& m, const DotRequest& r);

}  // namespace ptxmma::testing
