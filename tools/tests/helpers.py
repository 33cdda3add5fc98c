"""Shared paths and a runner for the command-line tools, with the interpreter running the tests."""
import importlib.util
import os
import subprocess
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(TESTS)
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
