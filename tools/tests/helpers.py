"""Shared paths and a runner for the command-line tools, with the interpreter running the tests."""
import importlib.util
import os
import subprocess
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(TESTS)
REPO = os.path.dirname(TOOLS)
FIXTURES = os.path.join(TESTS, "fixtures")


def fixture(name):
    return os.path.join(FIXTURES, name)


def run_tool(tool, *args):
    """Runs tools/<tool> with this interpreter; returns (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, os.path.join(TOOLS, tool), *args], capture_output=True, text=True,
                          timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def have_matplotlib():
    return importlib.util.find_spec("matplotlib") is not None


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


GOLDEN = os.path.join(TESTS, "golden")
# NBK_GOLDEN=update python3 -m unittest (in tools/) writes the golden files anew from the tools' output.
UPDATE_GOLDEN = os.environ.get("NBK_GOLDEN") == "update"


def golden(test, name, text):
    """Asserts text equals tests/golden/<name>, or writes it there under NBK_GOLDEN=update."""
    path = os.path.join(GOLDEN, name)
    if UPDATE_GOLDEN:
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    test.maxDiff = None
    test.assertEqual(text, read(path), f"{name} differs from the tools' output (NBK_GOLDEN=update to rewrite it)")
