"""Run folders for the tests: a CPU run and a GPU run whose files have the same names."""
import copy
import json
import os

from .helpers import FIXTURES

RESULTS = os.path.join(FIXTURES, "results")


def load(name):
    with open(os.path.join(RESULTS, name), encoding="utf-8") as f:
        return json.load(f)


def write_run(folder, context, programs):
    """folder/run.json (unless context is None) and folder/<experiment>.json for each program's data."""
    os.makedirs(folder, exist_ok=True)
    if context is not None:
        with open(os.path.join(folder, "run.json"), "w", encoding="utf-8") as f:
            json.dump(context, f)
    for data in programs:
        with open(os.path.join(folder, f"{data['experiment']}.json"), "w", encoding="utf-8") as f:
            json.dump(data, f)
    return folder


def cpu_programs():
    """add_one and maximum of an openmp build: no device rows; maximum sweeps its host space
    (5 times slower than the fixture's host)."""
    add_one = load("add_one.json")
    maximum = load("maximum.json")
    maximum["results"] = [r for r in maximum["results"] if r["space"] != "cuda"]
    maximum["sweep"] = dict(maximum["sweep"], device_space="", device_wins_from_resident=None)
    for p in maximum["sweep"]["points"]:
        p["device_resident_s"] = p["device_with_transfers_s"] = None
        p["host_s"] *= 5
    return [add_one, maximum]


def gpu_programs():
    """The same experiments from a cuda build: add_one's resident row on cuda 15x faster than the
    CPU run's openmp; managed with transfers; maximum as the fixture has it (a sweep whose device
    wins from 2^12 against this run's host, from 2^10 against the CPU run's)."""
    add_one = copy.deepcopy(load("add_one.json"))
    add_one["probes"]["cuda"] = {"memcpy_gb_per_s": 2000.0, "copy_gb_per_s": 1700.0}
    add_one["results"] = [
        dict(add_one["results"][0], space="openmp", best_s=0.1, gb_per_s=150.0),
        {"variant": "resident", "space": "cuda", "size": "2147483648", "elements": 2147483648, "status": "verified",
         "check": "ok", "first_s": 0.05, "best_s": 0.02, "median_s": 0.02, "gb_per_s": 850.0},
        {"variant": "managed", "space": "cuda", "size": "2147483648", "elements": 2147483648, "status": "verified",
         "check": "ok", "first_s": 3.0, "best_s": 2.4, "median_s": 2.5, "gb_per_s": 7.2, "fraction_of_link": 0.25},
    ]
    maximum = copy.deepcopy(load("maximum.json"))
    return [add_one, maximum]


CPU_CONTEXT = {"format": "nbk-run 1", "name": "ws-openmp-abc1234-20261124-100000", "host": "ws", "preset": "openmp",
               "git_revision": "abc1234", "git_dirty": False, "started_utc": "2026-11-24T10:00:00Z"}
GPU_CONTEXT = {"format": "nbk-run 1", "name": "gpu-cuda-abc1234-20261124-110000", "host": "gpu", "preset": "cuda",
               "git_revision": "abc1234", "git_dirty": False, "gpus": ["Fixture GPU"],
               "started_utc": "2026-11-24T11:00:00Z"}


def cpu_and_gpu_runs(tmp):
    return (write_run(os.path.join(tmp, "cpu"), CPU_CONTEXT, cpu_programs()),
            write_run(os.path.join(tmp, "gpu"), GPU_CONTEXT, gpu_programs()))


NUMPY_CONTEXT = {"host_name": "ws", "cpu_model": "Fixture CPU", "execution_spaces": ["numpy"], "threads": 1,
                 "numpy_version": "1.24.2", "python_version": "3.11.2", "blas": "OpenBLAS",
                 "blas_library": "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so",
                 "blas_threads": 1, "OMP_NUM_THREADS": "1", "tool": "tools/nbk-numpy", "label": "numpy"}


def numpy_programs():
    """tools/nbk-numpy's files of add_one and maximum (space numpy, the programs' variant names):
    add_one's resident row at 2^31 takes 200 ms, faster than every CPU variant of cpu_programs()
    (a reference, never the best CPU); maximum's only row at 32x32x32 is a variant the programs
    lack."""
    def row(variant, size, elements, best_s):
        return {"variant": variant, "space": "numpy", "size": size, "elements": elements, "status": "verified",
                "check": "ok", "first_s": best_s, "best_s": best_s, "median_s": best_s, "gb_per_s": 1.0,
                "expression": "np.add(x, 1, out=x)"}
    probes = {"numpy": {"memcpy_gb_per_s": 12.0}}
    return [{"experiment": "add_one", "tool": "nbk-numpy", "context": NUMPY_CONTEXT, "probes": probes,
             "results": [row("resident", "2147483648", 2147483648, 0.2)]},
            {"experiment": "maximum", "tool": "nbk-numpy", "context": NUMPY_CONTEXT, "probes": probes,
             "results": [row("flat", "32x32x32", 32768, 8e-6)]}]


def cpu_run_with_numpy(tmp):
    """A CPU run of the main job with tools/nbk-numpy's files in its numpy/ folder."""
    run = write_run(os.path.join(tmp, "cpu"), CPU_CONTEXT, cpu_programs())
    write_run(os.path.join(run, "numpy"), None, numpy_programs())
    return run
