"""The comparison tools' package; require() is what each tool's launcher calls first."""
import importlib.util
import sys

def require(prog, *modules):
    """One line naming the Debian package (python3-<module>) of each module this python3 lacks, and exit 2."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        print(f"{prog}: {sys.executable} lacks the Python module(s) {', '.join(missing)} (Debian: apt-get install "
              f"{' '.join('python3-' + m for m in missing)}, for /usr/bin/python3)", file=sys.stderr)
        sys.exit(2)
