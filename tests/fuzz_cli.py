#!/usr/bin/python3
"""Seeded fuzz test of every program's command line (issue 24).

For every program of experiments.txt and every option its --help lists, runs generated values
(empty, blanks, huge, negative, non-numeric, mixed units, shapes of the wrong rank, unknown
names, paths that are directories or cannot be written) on top of a small valid command line,
each under a timeout. Requires: exit 0 or 2 only (exit 1, a failed check, is a wrong answer, never
a pass); exit 2 with exactly one stderr line for every malformed value; no sanitizer report; no
run past its timeout.

  fuzz_cli.py --experiments experiments.txt --programs BUILD/apps [--seed N] [--cases N]
              [--timeout S] [--jobs N]
The seed (also NBK_FUZZ_SEED; "random" picks one) is printed first; the same seed, programs and
case count replay the same runs. Every failure prints its command line.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# A small, valid run: what every case starts from (for the options the program has).
BASE = {"--size": "16", "--repetitions": "1", "--probe-size": "4096", "--no-sweep": None}

# Values no option accepts: exit 2 with one line, whichever option gets them.
MALFORMED_ANY = ["", " ", "  \t", " 7", "7 ", "a\nb"]
# ... and those no count (--size, --repetitions, --probe-size, --seed, --sweep-to) accepts.
MALFORMED_COUNT = ["-5", "-0", "+3", "abc", "1.5", "1e9", "0x10", "010x", "10k", "4GiB", "2^", "3^4", "2^-1",
                   "2^63", "2^99", "99999999999999999999999", "18446744073709551616", "1x2x3x4", "2x", "x2",
                   "16x16x16x16x16", "seven", "NaN", "inf", "1,000", "1_000"]
# Counts that parse: huge ones must be refused (memory, work) or run within the timeout.
# (No values between tiny and huge: a 1000^3 cube is valid and takes minutes.)
ANY_COUNT = ["0", "1", "2", "3", "2^0", "2^4", "17", "9223372036854775807", "2^62", "4611686018427387904",
             "99999999999999", "2^40", "3x5", "2x3x4"]
UNKNOWN_NAMES = ["warp-drive", "HOST", "quantum", "serial,openmp", "all", "-", "*"]
# Flags given alone in no random case: what they do is not a value to check.
NOT_AT_RANDOM = {"--inject-bug": "writes out of bounds on purpose", "--no-limit": "lets huge values run for hours"}


def options_of(program):
    """(name, takes_value, names or None, is_path) for every option --help lists."""
    out = subprocess.run([program, "--help"], capture_output=True, text=True, timeout=60).stdout
    found = []
    for line in out.splitlines():
        m = re.match(r"\s+(?:-\w,)?(--[\w-]+)\s*(\S*)\s*(.*)", line)
        if not m or m.group(1) == "--help":
            continue
        name, kind, rest = m.groups()
        takes_value = kind.startswith("TEXT") or kind.startswith("[") or kind.startswith("UINT")
        members = re.search(r"\{([^}]*)\}", kind + " " + rest)
        names = members.group(1).split(",") if members and takes_value else None
        found.append((name, takes_value, names, name in ("--json", "--probes")))
    return found


def run_case(program, args, timeout, cwd):
    try:
        p = subprocess.run([program] + args, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                           errors="replace")
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--experiments", required=True)
    ap.add_argument("--programs", required=True, help="the build's apps/ folder")
    ap.add_argument("--seed", default=os.environ.get("NBK_FUZZ_SEED", "24"))
    ap.add_argument("--cases", type=int, default=100, help="random combinations of valid values, over all programs")
    ap.add_argument("--per-option", type=int, default=8, help="malformed values drawn per option (besides '')")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    seed = random.randrange(2**32) if a.seed == "random" else int(a.seed)
    print(f"fuzz_cli: seed {seed} (replay: NBK_FUZZ_SEED={seed}), {a.cases} random cases, timeout {a.timeout} s",
          flush=True)
    rng = random.Random(seed)

    work = tempfile.mkdtemp(prefix="nbk-fuzz-")
    read_only = os.path.join(work, "read-only")
    os.mkdir(read_only, 0o555)
    malformed_paths = [work, "/", "/nonexistent/dir/x.json", "/dev/full", "/dev/null", "/proc/version",
                       "/proc/nbk.json", os.path.join(work, "missing/x.json")]
    if os.geteuid() != 0:  # root writes a read-only directory anyway
        malformed_paths.append(os.path.join(read_only, "x.json"))

    cases = []  # (program, args, must be refused)
    names = [n.strip() for n in open(a.experiments) if n.strip() and not n.startswith("#")]
    for name in names:
        program = os.path.join(os.path.abspath(a.programs), name, "nbk-" + name.replace("_", "-"))
        opts = options_of(program)
        given = {o[0] for o in opts}
        base = {k: v for k, v in BASE.items() if k in given}
        if name == "pi" and "--size" in base:
            base["--size"] = "16x16"

        def case(option, value, refused):
            args = []
            for k, v in base.items():
                if k != option:
                    args += [k] if v is None else [k, v]
            args.append(option if value is None else f"{option}={value}")
            cases.append((program, args, refused))

        for option, takes_value, members, is_path in opts:
            if not takes_value:
                if option not in NOT_AT_RANDOM:
                    case(option, None, False)
                for value in ["abc", ""]:
                    case(option, value, True)
                continue
            bad = MALFORMED_ANY[1:] + (malformed_paths if is_path else UNKNOWN_NAMES if members else MALFORMED_COUNT)
            for value in [""] + rng.sample(bad, min(a.per_option, len(bad))):
                case(option, value, True)
            good = [os.path.join(work, f"{name}.json")] if is_path else members if members else ANY_COUNT
            for value in rng.sample(good, min(2, len(good))):
                case(option, value, False)
        usable = [o for o in opts if o[0] not in NOT_AT_RANDOM]
        for _ in range(a.cases // len(names)):  # valid-looking combinations
            args = []
            for option, takes_value, members, is_path in rng.sample(usable, min(3, len(usable))):
                if not takes_value:
                    args.append(option)
                elif is_path:
                    args.append(f"{option}={os.path.join(work, name + '-' + str(rng.randrange(10)) + '.json')}")
                else:
                    args.append(f"{option}={rng.choice(members if members else ANY_COUNT)}")
            rest = []
            for k, v in base.items():
                if not any(x.startswith(k + "=") or x == k for x in args):
                    rest += [k] if v is None else [k, v]
            cases.append((program, rest + args, False))

    def check(c):
        program, args, refused = c
        rc, err = run_case(program, args, a.timeout, work)
        shown = " ".join([os.path.basename(program)] + [repr(x) if not x or " " in x or "\n" in x else x for x in args])
        lines = err.rstrip("\n").split("\n") if err.strip() else []
        if rc == "timeout":
            return f"{shown}: ran past {a.timeout} s"
        if rc == 1:
            return f"{shown}: exit 1, a check failed (a wrong answer)\n{err}"
        if rc not in (0, 2):
            return f"{shown}: exit {rc}\n{err}"
        if re.search(r"Sanitizer|runtime error:", err):
            return f"{shown}: sanitizer report\n{err}"
        if refused and (rc != 2 or len(lines) != 1):
            return f"{shown}: malformed value: exit {rc} with {len(lines)} stderr lines, expected exit 2 and one\n{err}"
        if rc == 2 and len(lines) != 1:
            return f"{shown}: exit 2 with {len(lines)} stderr lines\n{err}"
        return None

    with ThreadPoolExecutor(a.jobs) as pool:
        failures = [f for f in pool.map(check, cases) if f]
    os.chmod(read_only, 0o755)
    for f in failures:
        print("FAIL", f)
    print(f"fuzz_cli: {len(cases)} runs of {len(names)} programs, {len(failures)} failed (seed {seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
