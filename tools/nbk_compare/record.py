"""Run records (tools/nbk-run-record): a folder <host>-<preset>-<revision>-<UTC date>, never reused, and
its run.json (docs/comparing.md)."""
import argparse
import contextlib
import datetime
import json
import os
import re
import socket
import subprocess
import sys

RUN_FILE = "run.json"
NUMPY_FOLDER = "numpy"  # tools/nbk-numpy --out RUN/numpy
NUMPY_KEYS = ("numpy_version", "python_version", "threads", "blas", "blas_library", "blas_threads")
FORMAT = "nbk-run 1"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line, exit 2, and whose descriptions keep their lines."""

    def __init__(self, **kwargs):
        super().__init__(formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def checked(convert, ok, rule):
    """An argparse type: convert(text) where ok(value) holds, else the error '<rule>: '<text>''."""
    def check(text):
        try:
            value = convert(text.strip())
        except ValueError:
            value = None
        if value is None or not ok(value):
            raise argparse.ArgumentTypeError(f"{rule}: '{text}'")
        return value
    return check


def experiments():
    try:
        with open(os.path.join(REPO, "experiments.txt"), encoding="utf-8") as f:
            return [line.strip() for line in f if re.fullmatch(r"\w+", line.strip())]
    except OSError:
        return []


def _safe(text):
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", text).strip("_") or "unknown"


def run_name(host, preset, revision, when):
    """'vm-openmp-9b98cfc-20261124-101500' (pass '9b98cfc+' for a checkout with uncommitted changes)."""
    return "-".join([_safe(host), _safe(preset), _safe(revision), when.strftime("%Y%m%d-%H%M%S")])


def new_run_dir(root, name):
    """Creates root/name, or root/name-2, -3, ... when it exists."""
    os.makedirs(root, exist_ok=True)
    for path in (os.path.join(root, name if n == 1 else f"{name}-{n}") for n in range(1, 10000)):
        try:
            os.mkdir(path)
            return path
        except FileExistsError:
            pass
    raise OSError(f"{root}: 9999 runs named {name} already")


def _command(args, timeout=20):
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def git_revision(repo=REPO):
    """(short revision, dirty) of the checkout; ('unknown', None) outside git."""
    rev = _command(["git", "-C", repo, "rev-parse", "--short", "HEAD"])
    if not rev:
        return "unknown", None
    return rev, bool(_command(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no"]))


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), None)
    except OSError:
        return None


def gpus():
    out = _command(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"])
    return [line.strip() for line in out.splitlines() if line.strip()] if out else []


def _cached(build_dir, name):
    """An entry of the build folder's CMakeCache.txt, or None."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8", errors="replace") as f:
            found = re.search(rf"^{name}:\w+=(.+)$", f.read(), re.M)
    except OSError:
        return None
    return found and found.group(1).strip()


def compiler(build_dir):
    version = (path := _cached(build_dir, "CMAKE_CXX_COMPILER")) and _command([path, "--version"])
    return f"{path}: {version.splitlines()[0]}" if version else path


def kokkos_version(build_dir):
    """The Kokkos a build folder was configured with (its KokkosConfigVersion.cmake), or None."""
    try:
        with open(os.path.join(_cached(build_dir, "Kokkos_DIR"), "KokkosConfigVersion.cmake"), encoding="utf-8") as f:
            version = re.search(r'set\(PACKAGE_VERSION "([^"]+)"\)', f.read())
    except (OSError, TypeError):
        return None
    return version.group(1) if version else None


def _utc_text(when):
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def build_facts(preset, build_dir):
    """What a build knows and a machine that only runs it does not (scripts/pack-device.sh packs it as built.json)."""
    rev, dirty = git_revision()
    return {"preset": preset, "git_revision": rev, "git_dirty": dirty, "compiler": compiler(build_dir),
            "kokkos_version": kokkos_version(build_dir)}


def start(root, preset, command, build_dir, into=None, built=None):
    """A new run folder under root (or the folder `into`, as it is) and its run.json; `built`: build_facts()
    written where the programs were built, for a machine without the checkout (.device/run.sh)."""
    when = datetime.datetime.now(datetime.timezone.utc)
    facts = dict(built) if built else build_facts(preset, build_dir)
    facts.setdefault("preset", preset)
    host = socket.gethostname()
    name = run_name(host, facts["preset"] or preset, (facts.get("git_revision") or "unknown") +
                    ("+" if facts.get("git_dirty") else ""), when)
    path = into if into else new_run_dir(root, name)
    write_context(path, {"format": FORMAT, "name": name if into else os.path.basename(path), "host": host,
                         "cpu_model": cpu_model(), "cpu_count": os.cpu_count(), "gpus": gpus(), **facts,
                         "command": command, "started_utc": _utc_text(when)})
    return path


def json_files(folder):
    """A folder's JSON files but run.json, sorted; [] where there is no folder."""
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".json") and n != RUN_FILE)


def _program_contexts(path):
    files = {os.path.basename(file): _json(file) for file in json_files(path)}
    return {name: data["context"] for name, data in files.items() if isinstance(data, dict)
            and isinstance(data.get("experiment"), str) and isinstance(data.get("context"), dict)}


def _json(path):
    from .gbench import InputError, load_json
    try:
        return load_json(path)
    except InputError:
        return None


def numpy_record(path, code):
    contexts = _program_contexts(os.path.join(path, NUMPY_FOLDER))
    first = next(iter(contexts.values()), {})
    return {"tool": "tools/nbk-numpy", "exit_code": code, "ran": bool(contexts), "files": sorted(contexts),
            **{k: first[k] for k in NUMPY_KEYS if k in first}}


def _text(value, default="?"):
    return value if isinstance(value, str) else default


def _row_text(row):
    """'builtin on serial at 1000' or 'the sweep f32 against f32-device' of a key in a program's "interrupted"."""
    if not isinstance(row, dict):
        return None
    if isinstance(sweep := row.get("sweep"), dict):
        return f"the sweep {_text(sweep.get('host_variant'))} against {_text(sweep.get('device_variant'))}"
    return f"{_text(row.get('variant'))} on {_text(row.get('space'))} at {_text(row.get('size'))}"


def _list(value):
    return value if isinstance(value, list) else []


def missing_rows(doc):
    """What a program's JSON says a signal left unmeasured, one line each: the row or sweep in progress, the rows
    and sweeps not run ([] for a program that finished; the file is untrusted, so anything malformed is skipped)."""
    stop = doc.get("interrupted") if isinstance(doc, dict) else None
    if not isinstance(stop, dict):
        return []
    signal = _text(stop.get("signal"), "a signal")
    out = [f"{text}: in progress when {signal} stopped it, not finished"
           for text in [_row_text(stop.get("in_progress"))] if text]
    rows = _list(stop.get("not_run")) + [{"sweep": s} for s in _list(stop.get("sweeps_not_run"))]
    return out + [f"{text}: not run ({signal})" for text in map(_row_text, rows) if text]


def unwritten(context):
    """The programs run.json says a signal stopped before they wrote their JSON (untrusted: names only)."""
    stop = context.get("interrupted") if isinstance(context, dict) else None
    return [e for e in _list(stop.get("unwritten")) if isinstance(e, str)] if isinstance(stop, dict) else []


def missing_programs(context):
    """What run.json says the main job did not run when a signal stopped it: (experiment or 'numpy', line) each."""
    stop = context.get("interrupted") if isinstance(context, dict) else None
    if not isinstance(stop, dict):
        return []
    signal = _text(stop.get("signal"), "a signal")
    out = [(e, f"not run: the main job was stopped by {signal}")
           for e in _list(stop.get("not_run")) if isinstance(e, str)]
    out += [(e, f"stopped by {signal} before it wrote a row (no {e}.json)") for e in unwritten(context)]
    if stop.get("numpy") in ("stopped", "not run"):
        out.append((NUMPY_FOLDER, f"the NumPy reference: {stop['numpy']} ({signal})"))
    return out


def exit_codes(context):
    """run.json's exit codes, {experiment: int}, anything else in them dropped (run.json is untrusted)."""
    codes = context.get("exit_codes") if isinstance(context, dict) else None
    return {k: v for k, v in codes.items() if isinstance(k, str) and type(v) is int} if isinstance(codes, dict) else {}


STOPPED = 128  # an exit code above it: ended by a signal (stopped, or a crash)


def finish(path, statuses=(), numpy=None, signal=None):
    """run.json completed with the programs' facts and exit codes (added to those of an earlier, resumed, part); with
    `signal` (the main job was stopped): "interrupted" says which programs it stopped and which it never ran."""
    context = read_context(path) or {"format": FORMAT, "name": os.path.basename(path)}
    programs = _program_contexts(path)
    codes = {**exit_codes(context), **dict(statuses)}
    first = next(iter(programs.values()), {})
    config = first.get("kokkos_configuration")
    context.update({
        "kokkos_version": first.get("kokkos_version") or context.get("kokkos_version"),
        "kokkos_execution_spaces": first.get("execution_spaces"),
        "kokkos_configuration": str(config) if config else None,
        "omp": {k: first.get(k) for k in ("OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS") if k in first},
        "host_concurrency": first.get("host_concurrency"), "programs": sorted(programs),
        "exit_codes": codes, "finished_utc": _utc_text(datetime.datetime.now(datetime.timezone.utc))})
    if numpy is not None:
        context["numpy"] = numpy_record(path, numpy)
    numpy_code = context["numpy"].get("exit_code") if isinstance(context.get("numpy"), dict) else None
    stopped = sorted(e for e, c in codes.items() if c > STOPPED)
    # A program the signal reached before its own handler was set (in its start-up) dies with no JSON.
    context["interrupted"] = None if not signal else {
        "signal": signal, "stopped": stopped,
        "unwritten": [e for e in stopped if not os.path.isfile(os.path.join(path, e + ".json"))],
        "not_run": [e for e in experiments() if e not in codes],
        "numpy": "not run" if type(numpy_code) is not int else "stopped" if numpy_code > STOPPED else "done"}
    write_context(path, context)
    return context


def resume(path, command):
    """What `scripts/run-experiments.sh --resume` runs into the record `path`: (preset, the experiments whose rows are
    not all there, whether the NumPy reference runs). A program whose JSON says it was interrupted runs again whole
    (docs/comparing.md says why). Records the resume in run.json."""
    context = read_context(path)
    if not context or context.get("format") != FORMAT or not isinstance(context.get("preset"), str):
        raise OSError(f"{path}: not a run record (no {RUN_FILE} of format '{FORMAT}')")
    revision, _ = git_revision()
    if "unknown" not in (revision, context.get("git_revision", "unknown")) and revision != context["git_revision"]:
        raise OSError(f"{path}: a record of revision {context['git_revision']}, this checkout is {revision}: "
                      "resume it with the revision that started it")
    codes = exit_codes(context)

    def complete(experiment):
        data = _json(os.path.join(path, experiment + ".json"))
        return 0 <= codes.get(experiment, STOPPED + 1) <= STOPPED and isinstance(data, dict) and not missing_rows(data)
    numpy_code = context["numpy"].get("exit_code") if isinstance(context.get("numpy"), dict) else None
    context["resumed"] = _list(context.get("resumed")) + [
        {"utc": _utc_text(datetime.datetime.now(datetime.timezone.utc)), "command": command}]
    write_context(path, context)
    return (context["preset"], [e for e in experiments() if not complete(e)],
            type(numpy_code) is not int or numpy_code > STOPPED)


@contextlib.contextmanager
def written_whole(path):
    """A temporary path beside `path` for the block to write, renamed to `path` when the block ends (synced), removed
    when it fails: at any instant, a SIGKILL included, `path` is its old file, the new one whole, or absent."""
    temporary = f"{path}.tmp-{os.getpid()}"
    try:
        yield temporary
        with open(temporary, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_whole(path, text):
    """Writes `text` to `path` whole or not at all (written_whole)."""
    with written_whole(path) as temporary, open(temporary, "w", encoding="utf-8") as f:
        f.write(text)


def write_context(path, context):
    write_whole(os.path.join(path, RUN_FILE), json.dumps(context, indent=1) + "\n")


def read_context(path):
    """run.json as a dict, {} when absent, None when unreadable."""
    if not os.path.exists(file := os.path.join(path, RUN_FILE)):
        return {}
    return data if isinstance(data := _json(file), dict) else None


def _built(path):
    """--built FILE: a JSON object (nbk-run-record built's output)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise argparse.ArgumentTypeError(f"cannot read build facts '{path}': {e}")
    if not isinstance(data, dict):
        raise argparse.ArgumentTypeError(f"not a JSON object: '{path}'")
    return data


def _status(text):
    name, sep, code = text.partition("=")
    if not sep or not code.lstrip("-").isdigit():
        raise argparse.ArgumentTypeError(f"not EXPERIMENT=CODE: '{text}'")
    return name, int(code)


def main(argv=None):
    p = Parser(prog="nbk-run-record", description=__doc__)
    sub = p.add_subparsers(dest="step", required=True)
    s = sub.add_parser("start", help="create a run folder under ROOT and print its path")
    where = s.add_mutually_exclusive_group(required=True)
    where.add_argument("--root", help="folder of the runs (build/<preset>/runs)")
    where.add_argument("--into", help="an existing folder to hold run.json (.device/run.sh's results)")
    s.add_argument("--preset", required=True)
    s.add_argument("--build-dir", default="", help="CMake build folder (for the compiler)")
    s.add_argument("--built", type=_built, help="the build's facts (the 'built' step's JSON), where there is no "
                   "checkout or build folder")
    s.add_argument("--command", default="", help="the command line of the run")
    b = sub.add_parser("built", help="print the build's facts (revision, compiler, Kokkos) as JSON, for --built")
    b.add_argument("--preset", required=True)
    b.add_argument("--build-dir", required=True, help="CMake build folder")
    f = sub.add_parser("finish", help="add the programs' context and exit codes to RUN/run.json")
    f.add_argument("run")
    f.add_argument("--status", type=_status, action="append", default=[], metavar="EXPERIMENT=CODE")
    f.add_argument("--numpy", type=int, metavar="CODE", help="tools/nbk-numpy ran into RUN/numpy, exiting with CODE")
    f.add_argument("--signal", metavar="NAME", help="the main job was stopped by this signal (SIGINT, SIGTERM)")
    r = sub.add_parser("resume", help="print what RUN lacks: 'preset P', then 'program EXPERIMENT' and 'numpy' lines")
    r.add_argument("run")
    r.add_argument("--command", default="", help="the command line of the resume")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.step == "start":
            if args.into and not os.path.isdir(args.into):
                raise OSError(f"{args.into}: no such folder")
            print(start(args.root, args.preset, args.command, args.build_dir, args.into, args.built))
        elif args.step == "built":
            print(json.dumps(build_facts(args.preset, args.build_dir), indent=1))
        else:
            if not os.path.isdir(args.run):
                raise OSError(f"{args.run}: no such run folder")
            if args.step == "finish":
                finish(args.run, args.status, args.numpy, args.signal)
            else:
                preset, programs, numpy = resume(args.run, args.command)
                print("\n".join([f"preset {preset}", *(f"program {e}" for e in programs), *["numpy"] * numpy]))
    except OSError as e:
        print(f"nbk-run-record: error: {f'{e.filename}: {e.strerror}' if e.strerror else e}", file=sys.stderr)
        return 2
    return 0
