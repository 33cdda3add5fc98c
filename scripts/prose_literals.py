#!/usr/bin/env python3
"""Finds prose string literals longer than one line in C++ sources: a string literal (adjacent
literals concatenate) whose text runs past one line, a line break inside it and more text after,
or a raw string spanning lines. A message or a format wrapped in the source but printed as one
line is not one. Prose belongs in a text file beside the code (lib/nbk/<workload>/notes.md,
embedded at build time).

  scripts/prose_literals.py DIR...   lists each one found, exit 1 if any
"""
import os
import re
import sys

LITERAL = r'"(?:[^"\\\n]|\\.)*"'
RUN = re.compile(LITERAL + r'(?:\s*' + LITERAL + r')*')
RAW = re.compile(r'R"([^(\s]*)\((.*?)\)\1"', re.S)


def strip_comments(text):
    """The text with comments blanked (line breaks kept), strings left as they are."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text[i] == '"':
            m = re.compile(LITERAL).match(text, i)
            j = m.end() if m else i + 1
            out.append(text[i:j])
            i = j
        elif text[i] == "'":
            m = re.compile(r"'(?:[^'\\\n]|\\.)*'").match(text, i)
            j = m.end() if m else i + 1
            out.append(text[i:j])
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def findings(path):
    text = strip_comments(open(path, encoding="utf-8").read())
    for m in RUN.finditer(text):
        value = "".join(piece[1:-1] for piece in re.findall(LITERAL, m.group(0)))
        inner = re.sub(r"^(\\n)+|(\\n)+$", "", value.replace("\\\\", ""))
        if "\\n" in inner:  # a line break with text before and after it
            yield text.count("\n", 0, m.start()) + 1, m.group(0).split("\n")[0].strip()[:70]
    for m in RAW.finditer(text):
        if "\n" in m.group(2).rstrip("\n"):
            yield text.count("\n", 0, m.start()) + 1, m.group(0).split("\n")[0].strip()[:70]


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    found = 0
    for root in sys.argv[1:]:
        for folder, _, files in os.walk(root):
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp", ".h", ".cc", ".in")):
                    path = os.path.join(folder, name)
                    for line, start in findings(path):
                        found += 1
                        print(f"{path}:{line}: {start}")
    print(f"{found} prose literals longer than one line" if found else "none")
    sys.exit(1 if found else 0)
