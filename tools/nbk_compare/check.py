"""tools/nbk-check-ceilings: exit 1 naming every row of the runs that beats its ceiling (issue 58), 0 when none does.
A program that writes ceilings (its probes' "ceilings", its rows' "ceiling") is held to its own figures
(fraction_of_limit, ceiling.fraction, and its ceiling's bytes over its rate, each at most 1); every row is also held
to the tools' judging (summary.limit: an old record's rows without a ceiling say so, and pass)."""
import sys

from .fmt import format_pct, format_size
from .gbench import InputError
from .record import Parser
from .runs import TRANSFERS, RunRecord, positive
from .summary import limit

SLACK = 1e-9  # a fraction printed as 100% is not above it


def writes_ceilings(data):
    """Whether a program's file is of the format with ceilings (issue 58): held to its own fractions."""
    return any(isinstance(p, dict) and "ceilings" in p for p in (data.get("probes") or {}).values()) or any(
        isinstance(r, dict) and "ceiling" in r for r in data.get("results") or [])


def own_fractions(row):
    """[(field, value)] of a row's own fractions of its ceiling, as its program wrote them or as its ceiling's
    fields give them."""
    ceiling = row.get("ceiling") if isinstance(row.get("ceiling"), dict) else {}
    moved, rate, best = (positive(v) for v in (ceiling.get("bytes_moved_per_call"), ceiling.get("gb_per_s"),
                                               row.get("best_s")))
    floor = positive(ceiling.get("floor_s")) or 0
    chain = row.get("chain") if isinstance(row.get("chain"), dict) else {}
    found = [("fraction_of_limit", row.get("fraction_of_limit")), ("ceiling.fraction", ceiling.get("fraction")),
             ("chain.fraction", chain.get("fraction")),
             ("ceiling's max(floor_s, bytes_moved_per_call / gb_per_s) / best_s",
              moved and rate and best and max(floor, moved * 1e-9 / rate) / best)]
    return [(k, v) for k, v in found if positive(v)]


def offences(run):
    """[line] naming each verified row above its ceiling: workload, variant, space, size, % and level."""
    out = []
    for experiment, (path, data) in run.programs.items():
        rows = [r for r in data.get("results") or [] if isinstance(r, dict) and r.get("status") == "verified"]
        for row in rows if writes_ceilings(data) else []:
            level = row.get("limit_level") or (row.get("ceiling") or {}).get("level") or (
                f"the {row['fitting_probe']} probe" if row.get("fitting_probe") else "its limit")
            for field, value in own_fractions(row):
                if value > 1 + SLACK:
                    out.append(f"{path}: {experiment} {row.get('variant')} {row.get('space')} "
                               f"{format_size(str(row.get('size')))}: {format_pct(value)} of {level} ({field} "
                               f"{value:.3f})")
    for e in run.entries:
        if not e.is_reference and (found := limit(e)) and found.fraction is not None and found.fraction > 1 + SLACK:
            out.append(f"{run.path}: {e.experiment} {e.variant} {e.space} {format_size(e.size)}: "
                       f"{format_pct(found.fraction)} of {found.level} (the tools' judging)")
    return out


def tally(run):
    """'212 rows within their ceilings, 61 without one (each says why in nbk-report)'."""
    judged = [limit(e) for e in run.entries if not e.is_reference and not e.variant.endswith(TRANSFERS) and e.usable]
    bounded = sum(1 for j in judged if j and j.fraction is not None)
    return f"{bounded} rows within their ceilings, {len(judged) - bounded} without one (each says why in nbk-report)"


DESCRIPTION = """\
Check that no row of the runs beats its ceiling (docs/comparing.md, "How a row is judged").
RUN: a run folder (a main job's build/<preset>/runs/<run>/, a results/ record) or a
program's JSON. Exit 1 naming every row above its ceiling, 0 when none is; bad input: one
line, exit 2.
"""


def main(argv):
    p = Parser(prog="nbk-check-ceilings", description=DESCRIPTION)
    p.add_argument("runs", nargs="+", metavar="RUN", help="run folders (or program JSON files)")
    args = p.parse_args(argv)
    try:
        runs = [RunRecord(path) for path in args.runs]
    except InputError as e:
        print(f"nbk-check-ceilings: error: {e}", file=sys.stderr)
        return 2
    found = [line for run in runs for line in offences(run)]
    for line in found:
        print(line)
    for run in runs:
        print(f"nbk-check-ceilings: {run.path}: {tally(run)}", file=sys.stderr)
    if found:
        print(f"nbk-check-ceilings: {len(found)} row(s) above their ceiling: a bug, in the row or in its probe",
              file=sys.stderr)
    return 1 if found else 0
