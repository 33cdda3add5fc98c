#!/usr/bin/env python3
"""Holds README.md to being a front page: at most 12 KB, the two commands on its first screen
(its first 40 lines), a sample of a program's output, and every relative link of README.md and
docs/*.md resolving to a file (and to a heading, where it names one).

  scripts/check_docs.py REPO   exit 1, with what is wrong, if any of that fails
"""
import os
import re
import sys

LIMIT = 12 * 1024
FIRST_SCREEN = 40
COMMANDS = ("scripts/run-experiments.sh", "scripts/run-tests.sh")


def anchors(path):
    """GitHub's anchors of a Markdown file's headings."""
    found = set()
    for line in open(path, encoding="utf-8"):
        m = re.match(r"#+\s+(.*)", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            found.add(slug)
    return found


def main(repo):
    problems = []
    readme = os.path.join(repo, "README.md")
    text = open(readme, encoding="utf-8").read()
    size = len(text.encode("utf-8"))
    if size > LIMIT:
        problems.append(f"README.md is {size} bytes, more than {LIMIT}")
    screen = "\n".join(text.split("\n")[:FIRST_SCREEN])
    problems += [f"README.md: {c} is not on its first screen" for c in COMMANDS if c not in screen]
    if not re.search(r"\nvariant +\| space +\|", text):
        problems.append("README.md shows no sample of a program's table")
    docs = os.path.join(repo, "docs")
    files = [readme] + [os.path.join(docs, f) for f in sorted(os.listdir(docs)) if f.endswith(".md")]
    for path in files:
        body = re.sub(r"```.*?```", "", open(path, encoding="utf-8").read(), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", body):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            file, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            where = os.path.relpath(path, repo)
            if not os.path.exists(resolved):
                problems.append(f"{where}: link {target} names no file")
            elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                problems.append(f"{where}: link {target} names no heading of {file or where}")
    for p in problems:
        print(p)
    print(f"README.md: {size} bytes; {len(files)} files' links checked" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
