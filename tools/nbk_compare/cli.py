"""tools/nbk-compare's command line."""
import argparse
import json
import sys

from . import compare as cmpmod
from .gbench import InputError
from .record import Parser, checked
from .runs import choose_labels, open_compare_input, path_labels

COMPARE_DESCRIPTION = """\
Pair rows that differ only in the space, across spaces and runs (docs/comparing.md).
Also: nbk-compare regress --help. Exit status: 0 done, 2 bad input (one line on stderr).
"""

REGRESS_DESCRIPTION = """\
Check AFTER against BEFORE, paired by full name (docs/comparing.md).
Exit status: 0 no regression, 1 some (listed last), 2 bad input.
"""


def parser():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--alpha", type=checked(float, lambda v: 0 < v < 1, "must lie between 0 and 1"),
                        default=cmpmod.DEFAULT_ALPHA, metavar="A",
                        help="significance level of the U test (default %(default)s)")
    common.add_argument("--json", action="store_true", help="print JSON instead of the table")
    p = Parser(prog="nbk-compare")
    sub = p.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("compare", prog="nbk-compare", parents=[common], description=COMPARE_DESCRIPTION)
    c.add_argument("files", nargs="+", metavar="INPUT", help="Google Benchmark JSON, a program's JSON or a run folder")
    c.add_argument("--baseline", metavar="SPACE", help="space or column label (such as openmp@before) to compare "
                   f"with (default {cmpmod.DEFAULT_BASELINE})")
    c.add_argument("--label", action="append", default=[], metavar="NAME", help="label of each file, in order")
    r = sub.add_parser("regress", prog="nbk-compare regress", parents=[common], description=REGRESS_DESCRIPTION)
    r.add_argument("before", metavar="BEFORE", help="JSON file or run folder")
    r.add_argument("after", metavar="AFTER", help="JSON file or run folder")
    r.add_argument("--threshold", type=checked(float, lambda v: v >= 0, "must be 0 or more"), default=0.10,
                   metavar="F", help="slowdown tolerated, a fraction (default %(default)s)")
    return p


def open_inputs(paths, labels=()):
    for path, label in zip(paths, choose_labels([path_labels(p) for p in paths], labels)):
        yield open_compare_input(path, label)


def compare_main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv if argv[:1] in (["compare"], ["regress"]) else ["compare"] + argv)
    try:
        if args.mode == "regress":
            reg = cmpmod.Regression(*open_inputs([args.before, args.after]), threshold=args.threshold, alpha=args.alpha)
            text, doc, rc = cmpmod.render_regress_text(reg), cmpmod.regress_doc(reg), 1 if reg.failures else 0
        else:
            cmp = cmpmod.Comparison(list(open_inputs(args.files, args.label)), alpha=args.alpha,
                                    baseline=args.baseline or cmpmod.DEFAULT_BASELINE,
                                    baseline_required=bool(args.baseline))
            text, doc, rc = cmpmod.render_comparison_text(cmp), cmpmod.comparison_doc(cmp), 0
        sys.stdout.write(json.dumps(doc, indent=1) + "\n" if args.json else text)
        return rc
    except (InputError, cmpmod.UsageError) as e:
        print(f"nbk-compare{' regress' * (args.mode == 'regress')}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        sys.stderr.close()
        return 0
