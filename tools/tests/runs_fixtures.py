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


def _ceiling_row(variant, space, n, level, moved_per_element, rate, fraction, **extra):
    """A row of add (f32: 12 bytes counted an element) whose ceiling is `level`'s "add" rate, at `fraction` of it."""
    moved, counted = moved_per_element * n, 12 * n
    best = moved * 1e-9 / (rate * fraction)
    return {"variant": variant, "space": space, "size": str(n), "elements": n, "status": "verified", "check": "ok",
            "first_s": best * 2, "best_s": best, "median_s": best, "bytes_per_call": counted,
            "gb_per_s": counted * 1e-9 / best, "fitting_probe": "copy", "judged_on": space,
            "fraction_of_limit": fraction, "limit_level": level,
            "ceiling": {"level": level, "kind": "add", "kind_text": "2 reads 1 write", "working_set_bytes": counted,
                        "bytes_moved_per_call": moved, "gb_per_s": rate, "fraction": fraction}, **extra}


def ceilings_program():
    """add in the format with ceilings (issue 58): openmp's L1, L2, L3 and DRAM, cuda's L2 and HBM and theoretical
    peak; rows at 81% of L1 and of L2, 94% of DRAM (a CPU's store reads its line first: 16 bytes moved an element),
    90% of HBM (12 bytes), and one whose L1 probe the run could not take (ceiling null)."""
    def level(name, capacity, add, **rates):
        return {"level": name, "capacity_bytes": capacity, "probe_bytes": capacity and capacity // 2,
                "gb_per_s": {"add": add, **rates}, "by": {"add": "Kokkos a = b + c"}}
    openmp = {"concurrency": 2, "copy_gb_per_s": 20.0, "memcpy_gb_per_s": 22.0, "fma_f32_gflop_per_s": 100.0,
              "ceilings": {"levels": [level("L1", 98304, 260.0, read=400.0), level("L2", 2097152, 190.0),
                                      level("L3", 33554432, 90.0), level("DRAM", None, 32.0, read=40.0)],
                           "sweep": [{"bytes": 16384, "kind": "add", "gb_per_s": 250.0}]}}
    cuda = {"copy_gb_per_s": 3700.0, "fma_f32_gflop_per_s": 59000.0,
            "ceilings": {"levels": [level("L2", 62914560, 9000.0), level("HBM", None, 4100.0, read=4300.0)],
                         "theoretical": {"memory_gb_per_s": 4812.0, "fp32_gflop_per_s": 66900.0,
                                         "from": "device attributes"}}}
    rows = [_ceiling_row("f32", "openmp", 4096, "L1", 16, 260.0, 0.81),
            _ceiling_row("f32", "openmp", 32768, "L2", 16, 190.0, 0.81),
            _ceiling_row("f32", "openmp", 16777216, "DRAM", 16, 32.0, 0.94),
            _ceiling_row("f32", "cuda", 16777216, "HBM", 12, 4100.0, 0.90),
            dict(_ceiling_row("i64", "openmp", 4096, "L1", 16, 260.0, 0.5), ceiling=None, fraction_of_limit=None)]
    return {"experiment": "add", "context": {"host_name": "ws", "cpu_model": "Fixture CPU"},
            "probes": {"openmp": openmp, "cuda": cuda}, "results": rows}


def ceilings_run(folder, above=False):
    """A run of ceilings_program(); `above`: its L2 row at 130% of its ceiling, as a probe too weak would leave it."""
    data = ceilings_program()
    if above:
        row = data["results"][1]
        row.update(best_s=row["best_s"] * 0.81 / 1.3, fraction_of_limit=1.3, ceiling=dict(row["ceiling"], fraction=1.3))
    return write_run(folder, GPU_CONTEXT, [data])


def old_gpu_run(folder):
    """A record of today's format on a GPU machine: device_info.json's attributes (an H200's: L2 60 MiB, 4.8 TB/s
    theoretical), bench.json's host caches (L3 300 MiB shared), DRAM-sized probes, rows at L2, above the probes but
    below the theoretical peak, at L3 and at DRAM."""
    attributes = {"L2_CACHE_SIZE": 62914560, "MEMORY_CLOCK_RATE": 3201000, "GLOBAL_MEMORY_BUS_WIDTH": 6016}
    device_info = {"experiment": "device_info", "results": [],
                   "cuda": {"devices": [{"name": "Fixture GPU", "attributes": attributes}]}}
    probes = {"cuda": {"copy_gb_per_s": 3700.0, "in_place_gb_per_s": 3800.0, "triad_gb_per_s": 4200.0},
              "openmp": {"concurrency": 16, "copy_gb_per_s": 100.0, "in_place_gb_per_s": 140.0}}

    def row(space, n, best_s):  # add_one: 8 bytes counted an element, read and written in place
        return {"variant": "resident", "space": space, "size": str(n), "elements": n, "status": "verified",
                "check": "ok", "first_s": best_s, "best_s": best_s, "median_s": best_s, "bytes_per_call": 8 * n,
                "gb_per_s": 8 * n * 1e-9 / best_s, "fitting_probe": "in_place", "judged_on": space}
    add_one = {"experiment": "add_one", "probes": probes, "results": [
        row("cuda", 2 ** 31, 8 * 2 ** 31 * 1e-9 / 4500.0), row("cuda", 2 ** 20, 8 * 2 ** 20 * 1e-9 / 1000.0),
        row("openmp", 2 ** 24, 8 * 2 ** 24 * 1e-9 / 300.0), row("openmp", 2 ** 28, 8 * 2 ** 28 * 1e-9 / 70.0)]}
    write_run(folder, GPU_CONTEXT, [device_info, add_one])
    with open(os.path.join(folder, "bench.json"), "w", encoding="utf-8") as f:
        json.dump({"context": {"host_name": "gpu", "caches": [
            {"type": "Data", "level": 1, "size": 49152, "num_sharing": 1},
            {"type": "Unified", "level": 2, "size": 2097152, "num_sharing": 1},
            {"type": "Unified", "level": 3, "size": 314572800, "num_sharing": 16}]},
            "benchmarks": [{"name": "add_one/resident/serial/8", "real_time": 10.0, "time_unit": "ns"}]}, f)
    return folder
