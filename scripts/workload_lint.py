"""What the workload lints (plain_kernels.py, tuned_forms.py) share: the verdict over the workloads
that failed, and their command line, LIB_DIR or --expect-missing NAME... -- LIB_DIR (the lint shown
to catch what it is for on fixtures: exit 0 only where exactly the workloads NAME... fail)."""
import sys


def verdict(failed, expect_missing, what):
    """The exit code: 0 where nothing failed (or, with expect_missing, exactly those failed)."""
    if expect_missing is not None:
        if sorted(failed) != sorted(expect_missing):
            print(f"expected exactly {sorted(expect_missing)} to fail, got {failed}", file=sys.stderr)
            return 1
        return 0
    if failed:
        print(f"{len(failed)} workload(s) {what}", file=sys.stderr)
    return 1 if failed else 0


def run(main, usage):
    """Calls main(lib) or main(lib, names) from sys.argv and exits with its code; `usage` otherwise."""
    args = sys.argv[1:]
    if args[:1] == ["--expect-missing"] and "--" in args:
        cut = args.index("--")
        if len(args) != cut + 2:
            sys.exit(usage)
        sys.exit(main(args[cut + 1], args[1:cut]))
    if len(args) != 1:
        sys.exit(usage)
    sys.exit(main(args[0]))
