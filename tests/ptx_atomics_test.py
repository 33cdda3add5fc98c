"""scripts/ptx_atomics.py on PTX excerpts that nvcc 13.0 wrote for sm_90: the long long
atomic_add's CAS loop fails (Kokkos 3.4.01's atom.global.cas.b64 and 4.6.01's inline-asm
atom.cas.relaxed.gpu.b64), the native adds pass (3.4's atom.global.add.u64, 4.6's
red.add.global.relaxed.gpu.u64), Kokkos' scratch lock (a CAS of constants) passes, and a CAS
loop in a .func the kernel calls still fails; --require-v4 passes a kernel that loads 16 bytes at
once (nvcc's ld.global.v4.u32 or v2.u64 for nbk/core/packed.hpp) and fails one that does not
(8 bytes: v2.u32); --require-in-flight and --require-in-loop count 16-byte loads issued before
one is used, the latter only in a loop's body."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "ptx_atomics.py")

NATIVE = """
.visible .entry _ZN3nbk7counter6nativeEv(
	.param .u64 _ZN3nbk7counter6nativeEv_param_0
)
{
	ld.param.u64 	%rd1, [_ZN3nbk7counter6nativeEv_param_0];
	atom.global.add.u64 	%rd20, [%rd1], 1;
	ret;
}
"""
CAS_LOOP = """
.visible .entry _ZN3nbk7counter4loopEv(
	.param .u64 _ZN3nbk7counter4loopEv_param_0
)
{
	ld.param.u64 	%rd1, [_ZN3nbk7counter4loopEv_param_0];
	ld.volatile.global.u64 	%rd7, [%rd1];
$L__BB1_3:
	add.s64 	%rd6, %rd7, 1;
	atom.global.cas.b64 	%rd4, [%rd1], %rd7, %rd6;
	setp.ne.s64 	%p2, %rd7, %rd4;
	mov.u64 	%rd7, %rd4;
	@%p2 bra 	$L__BB1_3;
	ret;
}
"""
NATIVE_46 = """
.visible .entry _ZN3nbk9histogram6nativeEv(
	.param .u64 _ZN3nbk9histogram6nativeEv_param_0
)
{
	ld.param.u64 	%rd9, [_ZN3nbk9histogram6nativeEv_param_0];
	// begin inline asm
	red.add.global.relaxed.gpu.u64 [%rd9],%rd21;
	// end inline asm
	ret;
}
"""
CAS_LOOP_46 = """
.visible .entry _ZN3nbk7counter6loop46Ev(
	.param .u64 _ZN3nbk7counter6loop46Ev_param_0
)
{
	ld.param.u64 	%rd1, [_ZN3nbk7counter6loop46Ev_param_0];
	ld.global.u64 	%rd10, [%rd2];
$L__BB1_3:
	add.s64 	%rd9, %rd10, 1;
	// begin inline asm
	atom.cas.relaxed.gpu.b64 %rd6,[%rd1],%rd10,%rd9;
	// end inline asm
	setp.ne.s64 	%p2, %rd10, %rd6;
	mov.u64 	%rd10, %rd6;
	@%p2 bra 	$L__BB1_3;
	ret;
}
"""
LOCK = """
.visible .entry _ZN3nbk9histogram4teamEv(
	.param .u64 _ZN3nbk9histogram4teamEv_param_0
)
{
	ld.param.u64 	%rd1, [_ZN3nbk9histogram4teamEv_param_0];
$L__BB4_3:
	mov.u32 	%r36, 1;
	mov.u32 	%r37, 0;
	atom.cas.b32 	%r38, [%rd1], %r37, %r36;
	setp.eq.s32 	%p1, %r38, 0;
	@%p1 bra 	$L__BB4_3;
	atom.shared.add.u32 	%r9, [%r8], 1;
	ret;
}
"""
CALLED = """
.func _ZN6Kokkos4Impl10add_helperEPx(
	.param .b64 _ZN6Kokkos4Impl10add_helperEPx_param_0
)
{
	ld.param.u64 	%rd1, [_ZN6Kokkos4Impl10add_helperEPx_param_0];
	ld.volatile.global.u64 	%rd7, [%rd1];
	add.s64 	%rd6, %rd7, 5;
	atom.cas.b64 	%rd4, [%rd1], %rd7, %rd6;
	ret;
}
.visible .entry _ZN3nbk2pi5callsEv(
	.param .u64 _ZN3nbk2pi5callsEv_param_0
)
{
	{ // callseq 0, 0
	call.uni
	_ZN6Kokkos4Impl10add_helperEPx,
	(
	param0
	);
	} // callseq 0
	ret;
}
"""
PACKED = """
.visible .entry _ZN3nbk7add_one6packedEv(
	.param .u64 _ZN3nbk7add_one6packedEv_param_0
)
{
	ld.param.u64 	%rd1, [_ZN3nbk7add_one6packedEv_param_0];
	ld.global.v4.u32 	{%r1, %r2, %r3, %r4}, [%rd1];
	add.s32 	%r5, %r1, 1;
	st.global.v4.u32 	[%rd1], {%r5, %r6, %r7, %r8};
	ret;
}
"""
SCALAR = """
.visible .entry _ZN3nbk7add_one6scalarEv(
	.param .u64 _ZN3nbk7add_one6scalarEv_param_0
)
{
	ld.param.u64 	%rd1, [_ZN3nbk7add_one6scalarEv_param_0];
	ld.global.u32 	%r1, [%rd1];
	add.s32 	%r2, %r1, 1;
	st.global.u32 	[%rd1], %r2;
	ret;
}
"""
# Four 16-byte loads before the first add (a thread has 64 bytes in flight), then the same loads
# each used before the next is issued, and split by a branch.
IN_FLIGHT = """
.visible .entry _ZN3nbk3sum4fourEv(
	.param .u64 _ZN3nbk3sum4fourEv_param_0
)
{
	ld.param.u64 	%rd1, [_ZN3nbk3sum4fourEv_param_0];
	ld.global.v4.f32 	{%f1, %f2, %f3, %f4}, [%rd1];
	add.s64 	%rd2, %rd1, %rd9;
	ld.global.v4.f32 	{%f5, %f6, %f7, %f8}, [%rd2];
	add.s64 	%rd3, %rd2, %rd9;
	ld.global.v4.f32 	{%f9, %f10, %f11, %f12}, [%rd3];
	add.s64 	%rd4, %rd3, %rd9;
	ld.global.v4.f32 	{%f13, %f14, %f15, %f16}, [%rd4];
	add.f32 	%f17, %f1, %f5;
	ret;
}
"""
IN_TURN = IN_FLIGHT.replace("4four", "7in_turn").replace(
    "\tadd.s64 \t%rd3", "\tadd.f32 \t%f20, %f1, %f5;\n\tadd.s64 \t%rd3")
SPLIT = IN_FLIGHT.replace("4four", "5split").replace(
    "\tadd.s64 \t%rd3", "\t@%p1 bra \t$L__BB0_2;\n$L__BB0_2:\n\tadd.s64 \t%rd3")
# The four loads as a grid-stride loop's body (a label, the loads, the adds, a branch back); the
# same code after a loop of one load a trip (not four a trip); and below a forward branch (no loop).
LOOPED = IN_FLIGHT.replace("4four", "6looped").replace(
    "\tld.global.v4.f32 \t{%f1,", "$L__BB0_1:\n\tld.global.v4.f32 \t{%f1,").replace(
    "\tadd.f32 \t%f17, %f1, %f5;\n", "\tadd.f32 \t%f17, %f1, %f5;\n\tsetp.lt.s64 \t%p1, %rd4, %rd8;\n\t@%p1 bra \t$L__BB0_1;\n")
AFTER_LOOP = IN_FLIGHT.replace("4four", "10after_loop").replace(
    "\tld.global.v4.f32 \t{%f1,", "$L__BB0_1:\n\tld.global.v4.f32 \t{%f21, %f22, %f23, %f24}, [%rd7];\n"
    "\tadd.f32 \t%f25, %f25, %f21;\n\t@%p1 bra \t$L__BB0_1;\n\tld.global.v4.f32 \t{%f1,")
FORWARD = IN_FLIGHT.replace("4four", "7forward").replace(
    "\tld.global.v4.f32 \t{%f1,", "\t@%p1 bra \t$L__BB0_9;\n\tld.global.v4.f32 \t{%f1,").replace(
    "\tret;", "$L__BB0_9:\n\tret;")


class PtxAtomics(unittest.TestCase):
    def check(self, ptx, *args):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "k.compute_90.ptx"), "w") as f:
                f.write(ptx)
            run = subprocess.run([sys.executable, SCRIPT, folder, *args], capture_output=True, text=True)
        return run.returncode, run.stdout + run.stderr

    def test_native_add_passes(self):
        rc, out = self.check(NATIVE, "--require", "nbk::counter::native")
        self.assertEqual(rc, 0, out)
        self.assertIn("atom.global.add.u64", out)

    def test_cas_loop_fails(self):
        rc, out = self.check(CAS_LOOP)
        self.assertEqual(rc, 1, out)
        self.assertIn("atom.global.cas.b64", out)

    def test_kokkos_46_forms(self):
        rc, out = self.check(NATIVE_46, "--require", "nbk::histogram::native")
        self.assertEqual(rc, 0, out)
        self.assertIn("red.add.global.relaxed.gpu.u64", out)
        rc, out = self.check(CAS_LOOP_46)
        self.assertEqual(rc, 1, out)
        self.assertIn("atom.cas.relaxed.gpu.b64", out)

    def test_scratch_lock_is_not_an_add_loop(self):
        rc, out = self.check(LOCK, "--require", "nbk::histogram::team")
        self.assertEqual(rc, 0, out)
        self.assertIn("1 CAS lock(s)", out)

    def test_cas_loop_in_a_called_function_fails(self):
        rc, out = self.check(CALLED)
        self.assertEqual(rc, 1, out)

    def test_required_kernel_missing_or_looping_fails(self):
        self.assertEqual(self.check(NATIVE, "--require", "nbk::histogram::atomic")[0], 1)
        self.assertEqual(self.check(NATIVE + CAS_LOOP, "--require", "nbk::counter::loop")[0], 1)

    def test_sixteen_byte_accesses(self):
        wide = PACKED.replace("6packed", "4wide").replace("v4.u32", "v2.u64")
        rc, out = self.check(wide, "--require-v4", "nbk::add_one::wide")
        self.assertEqual(rc, 0, out)
        self.assertIn("ld.global.v2.u64", out)
        narrow = PACKED.replace("6packed", "6narrow").replace("v4.u32", "v2.u32")
        self.assertEqual(self.check(narrow, "--require-v4", "nbk::add_one::narrow")[0], 1)
        rc, out = self.check(PACKED + SCALAR, "--require-v4", "nbk::add_one::packed")
        self.assertEqual(rc, 0, out)
        self.assertIn("ld.global.v4.u32, st.global.v4.u32", out)
        self.assertEqual(self.check(PACKED + SCALAR, "--require-v4", "nbk::add_one::scalar")[0], 1)
        self.assertEqual(self.check(SCALAR, "--require-v4", "nbk::add_one::packed")[0], 1)

    def test_loads_in_flight(self):
        rc, out = self.check(IN_FLIGHT + PACKED, "--require-in-flight", "nbk::sum::four=4")
        self.assertEqual(rc, 0, out)
        self.assertIn("4 16-byte loads in flight", out)
        self.assertEqual(self.check(IN_FLIGHT, "--require-in-flight", "nbk::sum::four=5")[0], 1)
        self.assertEqual(self.check(PACKED, "--require-in-flight", "nbk::add_one::packed=2")[0], 1)
        rc, out = self.check(IN_TURN, "--require-in-flight", "nbk::sum::in_turn=4")
        self.assertEqual(rc, 1, out)
        self.assertIn("at most 2 16-byte load(s) in flight", out)
        rc, out = self.check(SPLIT, "--require-in-flight", "nbk::sum::split=4")
        self.assertEqual(rc, 1, out)
        self.assertIn("at most 2 16-byte load(s) in flight", out)
        self.assertEqual(self.check(IN_FLIGHT, "--require-in-flight", "nbk::sum::four")[0], 2)
        self.assertEqual(self.check(IN_FLIGHT, "--require-in-flight", "nbk::sum::four=0")[0], 2)

    def test_loads_in_flight_in_a_loop(self):
        rc, out = self.check(LOOPED, "--require-in-loop", "nbk::sum::looped=4")
        self.assertEqual(rc, 0, out)
        self.assertIn("4 16-byte loads in flight in a loop's body", out)
        self.assertEqual(self.check(LOOPED, "--require-in-loop", "nbk::sum::looped=5")[0], 1)
        for fixture, name in ((IN_FLIGHT, "four"), (FORWARD, "forward"), (AFTER_LOOP, "after_loop")):
            rc, out = self.check(fixture, "--require-in-flight", f"nbk::sum::{name}=4",
                                 "--require-in-loop", f"nbk::sum::{name}=4")
            self.assertEqual(rc, 1, out)
            self.assertIn("ok   nbk::sum::%s: 4 16-byte loads in flight\n" % name, out)
            self.assertIn("at most %d 16-byte load(s) in flight in a loop's body, not 4" %
                          (1 if fixture is AFTER_LOOP else 0), out)
        self.assertEqual(self.check(LOOPED, "--require-in-loop", "nbk::sum::looped=0")[0], 2)

    def test_no_ptx_is_bad_input(self):
        with tempfile.TemporaryDirectory() as folder:
            run = subprocess.run([sys.executable, SCRIPT, folder], capture_output=True, text=True)
        self.assertEqual(run.returncode, 2)


if __name__ == "__main__":
    unittest.main()
