"""The comparison tools; each tool's launcher calls require() first."""
import importlib.util
import sys

def require(prog, *modules):
    """One line naming the Debian package (python3-<module>) of each missing module, and exit 2."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        print(f"{prog}: {sys.executable} lacks the Python module(s) {', '.join(missing)} (Debian: apt-get install "
              f"{' '.join('python3-' + m for m in missing)}, for /usr/bin/python3)", file=sys.stderr)
        sys.exit(2)
