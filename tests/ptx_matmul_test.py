"""scripts/ptx_matmul.py on small PTX in nvcc 13.0's form: a main loop of 8 FMAs for two 16-byte
shared loads passes --min-fma-per-load 4 --require-v4; one of an FMA for each 4-byte shared load
(a 2 x 2 block: the document's tiled kernel has 2, 4 x 4) fails both; FMAs outside any loop (after it) do not count; the loop
with the most FMAs is the main one; a name that matches no kernel fails."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "ptx_matmul.py")


def kernel(name, loop, after=""):
    return f"""
.visible .entry _ZN3nbk6matmul{len(name)}{name}Ev(
	.param .u64 _ZN3nbk6matmul{len(name)}{name}Ev_param_0
)
{{
	mov.u32 	%r1, 0;
	ld.shared.f32 	%f90, [%r1];
$L__BB0_2:
{loop}	add.s32 	%r1, %r1, 1;
	setp.lt.s32 	%p1, %r1, 64;
	@%p1 bra 	$L__BB0_2;
{after}	ret;
}}
"""


REGISTERS = ("\tld.shared.v4.f32 \t{%f1, %f2, %f3, %f4}, [%r2];\n"
             "\tld.shared.v4.f32 \t{%f5, %f6, %f7, %f8}, [%r3];\n" +
             "".join(f"\tfma.rn.f32 \t%f{20 + i}, %f{1 + i % 4}, %f{5 + i // 4}, %f{20 + i};\n" for i in range(8)))
SCALAR = ("\tld.shared.f32 \t%f1, [%r2];\n\tld.shared.f32 \t%f2, [%r3];\n"
          "\tfma.rn.f32 \t%f20, %f1, %f2, %f20;\n\tfma.rn.f32 \t%f21, %f1, %f2, %f21;\n"
          "\tld.shared.f32 \t%f3, [%r4];\n\tld.shared.f32 \t%f4, [%r5];\n"
          "\tfma.rn.f32 \t%f22, %f3, %f4, %f22;\n\tfma.rn.f32 \t%f23, %f3, %f4, %f23;\n")
OUTSIDE = "".join(f"\tfma.rn.f32 \t%f{40 + i}, %f1, %f2, %f{40 + i};\n" for i in range(32))


class PtxMatmul(unittest.TestCase):
    def check(self, ptx, *args):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "k.ptx")
            with open(path, "w") as f:
                f.write(ptx)
            out = subprocess.run([sys.executable, SCRIPT, path, *args], capture_output=True, text=True)
        return out.returncode, out.stdout + out.stderr

    def test_register_blocks_pass(self):
        rc, out = self.check(kernel("good", REGISTERS), "--kernel", "nbk::matmul::good", "--min-fma-per-load", "4",
                             "--require-v4")
        self.assertEqual(rc, 0, out)
        self.assertIn("8 fma.rn.f32, 2 ld.shared (2 .v4): 4.0 FMAs a shared load", out)

    def test_scalar_loads_fail(self):
        rc, out = self.check(kernel("tiled", SCALAR), "--kernel", "nbk::matmul::tiled", "--min-fma-per-load", "4",
                             "--require-v4")
        self.assertEqual(rc, 1, out)
        self.assertIn("1.0 FMAs a shared load: fewer than 4 FMAs a shared load, no 16-byte shared load", out)

    def test_fmas_outside_the_loop_do_not_count(self):
        rc, out = self.check(kernel("tiled", SCALAR, OUTSIDE), "--kernel", "nbk::matmul::tiled",
                             "--min-fma-per-load", "4")
        self.assertEqual(rc, 1, out)
        self.assertIn("4 fma.rn.f32, 4 ld.shared", out)

    def test_the_loop_with_the_most_fmas_is_the_main_one(self):
        two_loops = kernel("good", REGISTERS).replace("$L__BB0_2", "$L__BB0_7").replace(
            "\tret;", "$L__BB0_2:\n" + SCALAR[:SCALAR.index("\tld.shared.f32 \t%f3")] + "\t@%p1 bra \t$L__BB0_2;\n\tret;")
        rc, out = self.check(two_loops, "--kernel", "nbk::matmul::good", "--min-fma-per-load", "4")
        self.assertEqual(rc, 0, out)
        self.assertIn("main loop $L__BB0_7: 8 fma.rn.f32", out)

    def test_a_missing_kernel_fails(self):
        rc, out = self.check(kernel("good", REGISTERS), "--kernel", "nbk::matmul::register_tiles")
        self.assertEqual(rc, 1, out)
        self.assertIn("MISSING", out)


if __name__ == "__main__":
    unittest.main()
