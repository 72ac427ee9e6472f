// The host's floating-point environment for a tile computed on the host's own IEEE arithmetic
// (sim/model/fma_tile.hpp, add_tree_tile.hpp).
#pragma once
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#else
#include <cfenv>
#endif

#include "sim/numeric/rounding.hpp"

namespace ptxmma {

// The host's dynamic rounding mode set to the instruction's for the lifetime of the object, and
// restored after. On x86 the whole MXCSR is set: also no flush-to-zero and no denormals-are-zero
// (a library built with -ffast-math may have set them for the whole process) and every exception
// masked.
class HostRounding {
 public:
  explicit HostRounding(Rounding r) {
#if defined(__x86_64__) || defined(__i386__)
    saved_ = _mm_getcsr();
    const unsigned mode = r == Rounding::rm ? 1U : r == Rounding::rp ? 2U : r == Rounding::rz ? 3U : 0U;
    _mm_setcsr((saved_ & ~0xE040U) | 0x1F80U | mode << 13);
#else
    saved_ = std::fegetround();
    std::fesetround(r == Rounding::rm ? FE_DOWNWARD : r == Rounding::rp ? FE_UPWARD : r == Rounding::rz ? FE_TOWARDZERO
                                                                                                       : FE_TONEAREST);
#endif
  }
  ~HostRounding() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(saved_);
#else
    std::fesetround(static_cast<int>(saved_));
#endif
  }
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

 private:
  unsigned saved_;
};

}  // namespace ptxmma
