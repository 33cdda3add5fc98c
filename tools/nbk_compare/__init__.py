"""The comparison tools' package; require() is what each tool's launcher calls first."""
import importlib.util
import sys

DEBIAN = {"jinja2": "python3-jinja2", "markdown": "python3-markdown", "numpy": "python3-numpy",
          "scipy": "python3-scipy", "matplotlib": "python3-matplotlib"}


def require(prog, *modules):
    """One line naming the Debian package of each module this python3 lacks, and exit 2."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        print(f"{prog}: {sys.executable} lacks the Python module(s) {', '.join(missing)} (Debian: apt-get install "
              f"{' '.join(DEBIAN[m] for m in missing)}, for /usr/bin/python3)", file=sys.stderr)
        sys.exit(2)
