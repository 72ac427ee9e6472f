#include "isa/cvt_target.hpp"

namespace ptxmma {
namespace {

bool either(const CvtForm& f, std::initializer_list<Type> ts) {
  for (const Type t : ts)
    if (f.to == t || f.from == t) return true;
  return false;
}

}  // namespace

std::string_view cvt_min_target(const CvtForm& f) {
  if (either(f, {Type::e2m1, Type::e2m3, Type::e3m2, Type::ue8m0})) return "sm_100a";
  if (either(f, {Type::e4m3, Type::e5m2})) return "sm_89";
  if (f.to == Type::tf32) {
    if (f.rounding == Rounding::rna) return "sm_80";
    return f.satfinite ? "sm_100a" : "sm_90";  // .rn/.rz forms; their .satfinite came with PTX 8.6
  }
  // bf16 arrived with f32 <-> bf16; the other sources and destinations with sm_90.
  if (f.to == Type::bf16) return f.from == Type::f32 ? "sm_80" : "sm_90";
  if (f.from == Type::bf16) return f.to == Type::f32 ? "sm_80" : "sm_90";
  if (f.to == Type::f16 && (f.relu || f.satfinite || f.two_sources)) return "sm_80";
  return "sm_70";
}

}  // namespace ptxmma
