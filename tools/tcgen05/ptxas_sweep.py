#!/usr/bin/env python3
"""Which tcgen05 instruction forms ptxas accepts for sm_100a: the legality record that
tests/ptx/tcgen05_test.cpp (Tcgen05.PtxasSweep) holds ptxmma's decoder to.

Each form is assembled alone in the kernel of KERNEL below (`ptxas -arch=sm_100a`); the result
is written as TSV lines "accepted|refused <TAB> instruction" under a header naming the ptxas
version. Not part of the build (it needs ptxas); run it again when the decoder learns more forms:

    python3 tools/tcgen05/ptxas_sweep.py > tests/data/tcgen05-ptxas/forms.tsv
"""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

# The kernel each form is put in; the test wraps the forms in the same text.
KERNEL = """.version 8.7
.target sm_100a
.address_size 64
.visible .entry k()
{{
.reg .b32 %r<300>;
.reg .b64 %rd<4>;
.reg .pred %p<4>;
.shared .align 16 .b32 slot;
{}
ret;
}}
"""

# Registers of .x1 per shape (PTX ISA, the tcgen05.ld/st "num" table).
SHAPES = {"32x32b": 1, "16x64b": 1, "16x128b": 2, "16x256b": 4, "16x32bx2": 1}
NUMS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 3]


def regs(n, first=4):
    return "{" + ", ".join(f"%r{first + i}" for i in range(n)) + "}"


def forms():
    out = []
    for shape, per in SHAPES.items():
        split = shape == "16x32bx2"
        for num in NUMS:
            n = per * num
            for pack in ["", ".pack::16b"]:
                imm = f", {num}" if split else ""
                out.append(f"tcgen05.ld.sync.aligned.{shape}.x{num}{pack}.b32 {regs(n)}, [%r1]{imm};")
            for unpack in ["", ".unpack::16b"]:
                imm = f", {num}" if split else ""
                out.append(f"tcgen05.st.sync.aligned.{shape}.x{num}{unpack}.b32 [%r1]{imm}, {regs(n)};")
        # a register too many, the split argument missing or unwanted, the other pack qualifier
        out.append(f"tcgen05.ld.sync.aligned.{shape}.x2.b32 {regs(2 * per + 1)}, [%r1]{', 2' if split else ''};")
        out.append(f"tcgen05.ld.sync.aligned.{shape}.x2.b32 {regs(2 * per)}, [%r1]{'' if split else ', 2'};")
        out.append(f"tcgen05.ld.sync.aligned.{shape}.x2.unpack::16b.b32 {regs(2 * per)}, [%r1]{', 2' if split else ''};")
        out.append(f"tcgen05.st.sync.aligned.{shape}.x2.pack::16b.b32 [%r1]{', 2' if split else ''}, {regs(2 * per)};")
    for s in [0, 1, 511, 512, 4096]:
        out.append(f"tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {{%r4}}, [%r1], {s};")
    out += [
        "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r4}, [%r1+4];",
        "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r4}, [%rd1];",
        "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r4}, [4];",
        "tcgen05.ld.sync.aligned.32x32b.x1.b32 %r4, [%r1];",
        "tcgen05.ld.sync.aligned.32x32b.x1.b16 {%r4}, [%r1];",
        "tcgen05.ld.sync.32x32b.x1.b32 {%r4}, [%r1];",
        "tcgen05.ld.aligned.32x32b.x1.b32 {%r4}, [%r1];",
        "tcgen05.ld.aligned.sync.x1.32x32b.b32 {%r4}, [%r1];",
        "tcgen05.ld.sync.aligned.32x32b.b32 {%r4}, [%r1];",
        "tcgen05.ld.sync.aligned.x1.b32 {%r4}, [%r1];",
        "tcgen05.ld.sync.aligned.32x32b.16x64b.x1.b32 {%r4}, [%r1];",
        "tcgen05.ld.sync.aligned.32x32b.x1.x2.b32 {%r4}, [%r1];",
        "tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%rd1};",
        "tcgen05.wait::ld.sync.aligned;",
        "tcgen05.wait::st.sync.aligned;",
        "tcgen05.wait::ld;",
        "tcgen05.wait::ld.sync.aligned.b32;",
        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
        "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;",
        "tcgen05.relinquish_alloc_permit.sync.aligned;",
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], %r2;",
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;",
        "tcgen05.alloc.cta_group::1.sync.aligned.b32 [%rd1], 32;",
        "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r1], 32;",
        "tcgen05.alloc.sync.aligned.shared::cta.b32 [%r1], 32;",
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b64 [%r1], 32;",
        "tcgen05.alloc.cta_group::1.shared::cta.b32 [%r1], 32;",
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 %r1, 32;",
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, %r2;",
        "tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r1, 32;",
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 [%r1], 32;",
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %rd1, 32;",
    ]
    mma = "tcgen05.mma.cta_group::1"
    out += [
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::tf32 [%r1], %rd1, %rd2, %r2, 1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, 0x08200490, 0;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, 2;",
        f"{mma}.kind::f16.collector::a::discard [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::f16.collector::a::lastuse [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::f16 [%r1+8], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %rd3, %p1;",
        f"{mma}.kind::f16 [%r1], %r3, %rd2, %r2, %p1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, %p1, 3;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, {{%r4, %r5, %r6, %r7}}, %p1;",
        f"{mma}.kind::f16 [%r1], [%r3], %rd2, %r2, %p1;",
        f"{mma}.kind::f8f6f4 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::f16.b32 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::i8 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::i8 [%r1], %rd1, %rd2, %r2, 1;",
        f"{mma}.kind::f8f6f4 [%r1], %rd1, %rd2, %r2, 0;",
        f"{mma}.kind::f8f6f4.collector::a::fill [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::i8.collector::a::use [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::i8 [%r1], %rd1, %rd2, %r2, %p1, 3;",
        f"{mma}.kind::f8f6f4 [%r1], %rd1, %rd2, %r2, %p1, 3;",
        f"{mma}.kind::i8 [%r1], %rd1, %rd2, %r2, {{%r4, %r5, %r6, %r7}}, %p1;",
        f"{mma}.kind::i8 [%r1], [%r3], %rd2, %r2, %p1;",
        f"{mma}.kind::i8.b32 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::s8 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::f8 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::mxf8f6f4 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::tf32 [%r1], %rd1, %rd2, %r2, %p1, 15;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, %p1, 0;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, %p1, 16;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, %p1, -1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, %p1, %r3;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, {{%r4, %r5, %r6, %r7}}, %p1, 3;",
        f"{mma}.kind::tf32 [%r1], %rd1, %rd2, %r2, {{%r4, %r5, %r6, %r7}}, 1;",
        f"{mma}.kind::f8f6f4 [%r1], %rd1, %rd2, %r2, {{%r4, %r5, %r6, %r7}}, %p1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, {{%r4, %r5, %r6}}, %p1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, {{%r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11}}, %p1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, {{%r4, %r5, %r6, 0}}, %p1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, {{%rd1, %rd2}}, %p1;",
        f"{mma}.kind::f16 [%r1], %rd1, %rd2, %r2, %p1, {{%r4, %r5, %r6, %r7}};",
        f"{mma}.kind::tf32 [%r1], [%r3], %rd2, %r2, %p1;",
        f"{mma}.kind::f8f6f4 [%r1], [%r3], %rd2, %r2, %p1;",
        f"{mma}.kind::f16 [%r1], [%r3+16], %rd2, %r2, %p1;",
        f"{mma}.kind::f16 [%r1], [%rd1], %rd2, %r2, %p1;",
        f"{mma}.kind::f16 [%r1], [%r3], [%r4], %r2, %p1;",
        f"{mma}.kind::f16 [%r1], [%r3], %rd2, %r2, {{%r4, %r5, %r6, %r7}}, %p1, 2;",
        "tcgen05.mma.cta_group::2.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;",
        "tcgen05.mma.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;",
        f"{mma}.kind::f16.sync.aligned [%r1], %rd1, %rd2, %r2, %p1;",
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r1];",
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%rd1];",
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cta.b64 [%r1];",
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b32 [%rd1];",
        "tcgen05.commit.cta_group::1.b64 [%rd1];",
        "tcgen05.commit.cta_group::1.sync.aligned.mbarrier::arrive::one.b64 [%rd1];",
        "tcgen05.commit.cta_group::2.mbarrier::arrive::one.b64 [%rd1];",
        "tcgen05.fence::before_thread_sync;",
        "tcgen05.fence::after_thread_sync;",
        "tcgen05.fence::after_thread_sync.sync.aligned;",
        "tcgen05.fence::before_thread_sync %r1;",
    ]
    # tcgen05.cp: every shape with every multicast (and none), the decompressions, the operands;
    # tcgen05.shift.
    for shape in ["128x256b", "4x256b", "128x128b", "64x128b", "32x128b", "64x256b"]:
        for cast in ["", ".warpx2::02_13", ".warpx2::01_23", ".warpx4"]:
            out.append(f"tcgen05.cp.cta_group::1.{shape}{cast} [%r1], %rd1;")
    for fmt in [".b8x16.b6x16_p32", ".b8x16.b4x16_p64", ".b8x16"]:
        out.append(f"tcgen05.cp.cta_group::1.128x256b{fmt} [%r1], %rd1;")
    out += [
        "tcgen05.cp.cta_group::2.128x256b [%r1], %rd1;",
        "tcgen05.cp.128x256b [%r1], %rd1;",
        "tcgen05.cp.cta_group::1.128x256b [%r1], 0;",
        "tcgen05.cp.cta_group::1.128x256b [%r1], %r2;",
        "tcgen05.cp.cta_group::1.128x256b %r1, %rd1;",
        "tcgen05.cp.cta_group::1.128x256b [%r1+8], %rd1;",
        "tcgen05.cp.cta_group::1.sync.aligned.128x256b [%r1], %rd1;",
        "tcgen05.cp.cta_group::1.128x256b.b32 [%r1], %rd1;",
        "tcgen05.shift.cta_group::1.down [%r1];",
        "tcgen05.shift.cta_group::2.down [%r1];",
        "tcgen05.shift.cta_group::1 [%r1];",
        "tcgen05.shift.cta_group::1.up [%r1];",
        "tcgen05.shift.down [%r1];",
        "tcgen05.shift.cta_group::1.down %r1;",
        "tcgen05.shift.cta_group::1.down [%r1+32];",
        "tcgen05.shift.cta_group::1.down [%rd1];",
        "tcgen05.shift.cta_group::1.down.sync.aligned [%r1];",
    ]
    for n in [0, 16, 32, 48, 64, 96, 128, 256, 512, 544, 1024]:
        out.append(f"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], {n};")
        out.append(f"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, {n};")
    return out


def assemble(form, ptxas):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.ptx")
        with open(src, "w") as f:
            f.write(KERNEL.format(form))
        r = subprocess.run([ptxas, "-arch=sm_100a", src, "-o", os.path.join(d, "k.cubin")], capture_output=True)
        return "accepted" if r.returncode == 0 else "refused"


def main():
    ptxas = os.environ.get("PTXAS", "ptxas")
    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    fs = forms()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda f: assemble(f, ptxas), fs))
    print(f"# tcgen05 forms and what ptxas -arch=sm_100a says of each, alone in the kernel of")
    print(f"# tools/tcgen05/ptxas_sweep.py ({version}). Written by that script.")
    for form, res in zip(fs, results):
        print(f"{res}\t{form}")
    print(f"{sum(r == 'accepted' for r in results)} accepted, {sum(r == 'refused' for r in results)} refused",
          file=sys.stderr)


if __name__ == "__main__":
    main()
