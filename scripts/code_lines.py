#!/usr/bin/env python3
"""Counts the code lines of C++ files: neither blank, nor comment, nor only string literals.

  scripts/code_lines.py FILE...              one line per file: its count and its path
  scripts/code_lines.py --at-most N FILE...  the same, and exit 1 if any file has more than N
"""
import re
import sys

STRING_ONLY = re.compile(r'("(?:[^"\\]|\\.)*"\s*)+[;,)]*')


def code_lines(text):
    count, in_comment = 0, False
    for line in text.split("\n"):
        s = line.strip()
        if in_comment:
            in_comment = "*/" not in s
            continue
        if s.startswith("/*"):
            in_comment = "*/" not in s
            continue
        if s and not s.startswith("//") and not STRING_ONLY.fullmatch(s):
            count += 1
    return count


if __name__ == "__main__":
    args = sys.argv[1:]
    limit = None
    if args[:1] == ["--at-most"]:
        limit, args = int(args[1]), args[2:]
    if not args:
        sys.exit(__doc__)
    over = 0
    for path in args:
        n = code_lines(open(path).read())
        over += limit is not None and n > limit
        print(f"{n:4d} {path}" + (f"  (more than {limit})" if limit is not None and n > limit else ""))
    sys.exit(1 if over else 0)
