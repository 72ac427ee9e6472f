"""Writes one small PTX kernel per pattern of multiply and add, to see where ptxas contracts them
into a fused multiply-add (docs/hardware/contraction-sm90.md). Assemble each for the GPU and read
its SASS (FFMA/DFMA/HFMA2 where it fused, FMUL + FADD where it did not):

    python tools/capture/contraction_probe.py DIR
    for f in DIR/*.ptx; do ptxas -arch=sm_90a -O3 $f -o ${f%.ptx}.cubin; done
    for f in DIR/*.cubin; do echo $f; cuobjdump -sass $f | grep -E 'FFMA|FMUL|FADD|DFMA|HFMA2'; done
"""
import pathlib
import sys

# name -> body; each kernel loads f1..f4 from in[tid] (a float4) and stores what `st*` names.
PATTERNS = {
    "mul_add": ["mul.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "mul_add_rn": ["mul.f32 %f5, %f1, %f2;", "add.rn.f32 %f6, %f5, %f3;", "st %f6"],
    "mulrn_add": ["mul.rn.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "mul_sub_left": ["mul.f32 %f5, %f1, %f2;", "sub.f32 %f6, %f5, %f3;", "st %f6"],
    "mul_sub_right": ["mul.f32 %f5, %f1, %f2;", "sub.f32 %f6, %f3, %f5;", "st %f6"],
    "mul_add_twouse": ["mul.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "st %f6", "st %f5"],
    "mul_add_add": ["mul.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "add.f32 %f7, %f5, %f4;", "st %f6", "st %f7"],
    "mul_mul_add": ["mul.f32 %f5, %f1, %f2;", "mul.f32 %f7, %f3, %f4;", "add.f32 %f6, %f5, %f7;", "st %f6"],
    "mulftz_add": ["mul.ftz.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "mul_addftz": ["mul.f32 %f5, %f1, %f2;", "add.ftz.f32 %f6, %f5, %f3;", "st %f6"],
    "mul_addsat": ["mul.f32 %f5, %f1, %f2;", "add.sat.f32 %f6, %f5, %f3;", "st %f6"],
    "mulsat_add": ["mul.sat.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "mul_branch_add": ["mul.f32 %f5, %f1, %f2;", "setp.gt.f32 %p1, %f4, 0f00000000;", "@%p1 bra L1;",
                       "mov.f32 %f3, 0f3F800000;", "L1:", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "divfull_add": ["div.full.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "divapprox_add": ["div.approx.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "divrn_add": ["div.rn.f32 %f5, %f1, %f2;", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "mul_neg_add": ["mul.f32 %f5, %f1, %f2;", "neg.f32 %f7, %f5;", "add.f32 %f6, %f7, %f3;", "st %f6"],
    "mul_add_pred": ["setp.gt.f32 %p1, %f4, 0f00000000;", "mul.f32 %f5, %f1, %f2;", "@%p1 add.f32 %f3, %f5, %f3;",
                     "st %f3"],
    "mulimm_add": ["mul.f32 %f5, %f1, 0f40400000;", "add.f32 %f6, %f5, %f3;", "st %f6"],
    "mul_add_far": ["mul.f32 %f5, %f1, %f2;", "add.f32 %f7, %f3, %f4;", "mul.f32 %f8, %f7, %f7;",
                    "sin.approx.f32 %f9, %f8;", "add.f32 %f6, %f5, %f9;", "st %f6"],
    "f64_mul_add": ["cvt.f64.f32 %d1, %f1;", "cvt.f64.f32 %d2, %f2;", "cvt.f64.f32 %d3, %f3;", "mul.f64 %d5, %d1, %d2;",
                    "add.f64 %d6, %d5, %d3;", "st.f64 %d6"],
    "f16_mul_add": ["cvt.rn.f16.f32 %h1, %f1;", "cvt.rn.f16.f32 %h2, %f2;", "cvt.rn.f16.f32 %h3, %f3;",
                    "mul.f16 %h5, %h1, %h2;", "add.f16 %h6, %h5, %h3;", "st.b16 %h6"],
    "f16x2_mul_add": ["mov.b32 %x1, %f1;", "mov.b32 %x2, %f2;", "mov.b32 %x3, %f3;", "mul.f16x2 %x5, %x1, %x2;",
                      "add.f16x2 %x6, %x5, %x3;", "st.b32 %x6"],
    "bf16_mul_add": ["cvt.rn.bf16.f32 %h1, %f1;", "cvt.rn.bf16.f32 %h2, %f2;", "cvt.rn.bf16.f32 %h3, %f3;",
                     "mul.bf16 %h5, %h1, %h2;", "add.bf16 %h6, %h5, %h3;", "st.b16 %h6"],
}

SIZES = {"st": ("f32", 4), "st.f64": ("f64", 8), "st.b16": ("b16", 2), "st.b32": ("b32", 4)}


def kernel(name, body):
    lines, offset = [], 0
    for b in body:
        op, _, reg = b.partition(" ")
        if op in SIZES:
            t, size = SIZES[op]
            lines.append(f"  st.global.{t} [%rd4+{offset}], {reg};")
            offset += size
        else:
            lines.append(b if b.endswith(":") else "  " + b)
    return f""".version 8.0
.target sm_90a
.address_size 64
.visible .entry {name}(.param .u64 in, .param .u64 out)
{{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .f32 %f<12>;
  .reg .f64 %d<8>;
  .reg .b16 %h<8>;
  .reg .b32 %x<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd3, %rd1, %rd3;
  ld.global.v4.f32 {{%f1, %f2, %f3, %f4}}, [%rd3];
  add.s64 %rd4, %rd2, %rd3;
  sub.s64 %rd4, %rd4, %rd1;
""" + "\n".join(lines) + "\n  ret;\n}\n"


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, body in PATTERNS.items():
        (out / f"{name}.ptx").write_text(kernel(name, body))


if __name__ == "__main__":
    main()
