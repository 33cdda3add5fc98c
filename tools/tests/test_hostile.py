"""Records are data: markup in any string of a run.json or a program's JSON reaches the page as
text, and a record whose fields have the wrong types is refused with one line naming the file and
the field (exit 2)."""
import html.parser
import json
import os
import tempfile
import unittest

from .helpers import read, run_tool
from .runs_fixtures import CPU_CONTEXT, GPU_CONTEXT, cpu_programs, gpu_programs, write_run

HOSTILE = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "[x](javascript:alert(3))",
           "<svg onload=alert(4)>", "![y](javascript:alert(5))", "<a href='javascript:alert(6)'>z</a>"]


def hostile(value, i=[0]):
    """Every string of a JSON value with a piece of markup appended (a different one each time), but
    sizes (checked at load: digits and x)."""
    if isinstance(value, dict):
        return {k: v if k == "size" else hostile(v) for k, v in value.items()}
    if isinstance(value, list):
        return [hostile(v) for v in value]
    if isinstance(value, str):
        i[0] += 1
        return value + HOSTILE[i[0] % len(HOSTILE)]
    return value


class Elements(html.parser.HTMLParser):
    """The tags and attributes of a page as the browser parses them."""

    def __init__(self):
        super().__init__()
        self.tags, self.attributes = set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes += [(tag, k, v or "") for k, v in attrs]


class HostileRecord(unittest.TestCase):
    def test_markup_from_records_is_text(self):
        with tempfile.TemporaryDirectory() as tmp:
            programs = [dict(p, experiment=p["experiment"]) for p in cpu_programs()]
            for p in programs:  # every string but the experiment's name (a file name, checked at load)
                for k in list(p):
                    if k != "experiment":
                        p[k] = hostile(p[k])
            cpu = write_run(os.path.join(tmp, "cpu"), hostile(dict(CPU_CONTEXT, command="x", cpu_model="c")),
                            programs)
            gpu = write_run(os.path.join(tmp, "gpu"), hostile(dict(GPU_CONTEXT)), gpu_programs())
            out = os.path.join(tmp, "report")
            rc, stdout, err = run_tool("nbk-report", cpu, gpu, "--out", out, "--no-plots")
            self.assertEqual(rc, 0, err)
            page = read(os.path.join(out, "index.html"))
            self.assertIn("&lt;script&gt;alert(2)&lt;/script&gt;", page)  # it is there, as text
            found = Elements()
            found.feed(page)
            self.assertFalse(found.tags & {"script", "svg", "iframe", "object", "embed"}, found.tags)
            self.assertEqual([a for a in found.attributes if a[1].startswith("on")], [])
            self.assertEqual([a for a in found.attributes if "javascript" in a[2].lower()], [])
            self.assertTrue({"table", "details", "summary"} <= found.tags, found.tags)


class Validation(unittest.TestCase):
    def refused(self, context, programs, *field):
        with tempfile.TemporaryDirectory() as tmp:
            run = write_run(os.path.join(tmp, "run"), context, programs)
            rc, _, err = run_tool("nbk-report", run, "--out", os.path.join(tmp, "out"), "--no-plots")
            self.assertEqual(rc, 2, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            for text in field:
                self.assertIn(text, err)
            rc, _, err = run_tool("nbk-compare", run)
            self.assertEqual(rc, 2, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_a_time_that_is_not_a_number(self):
        programs = cpu_programs()
        programs[0]["results"][1]["best_s"] = "fast"
        self.refused(CPU_CONTEXT, programs, "add_one.json", "results[1].best_s")

    def test_a_variant_that_is_not_a_string(self):
        programs = cpu_programs()
        programs[1]["results"][0]["variant"] = {"a": 1}
        self.refused(CPU_CONTEXT, programs, "maximum.json", "results[0].variant")

    def test_a_size_that_is_not_one_and_a_negative_time(self):
        programs = cpu_programs()
        programs[0]["results"][0]["size"] = "<b>big</b>"
        self.refused(CPU_CONTEXT, programs, "add_one.json", "results[0].size")
        programs = cpu_programs()
        programs[1]["results"][0]["best_s"] = -1.0
        self.refused(CPU_CONTEXT, programs, "maximum.json", "results[0].best_s")

    def test_an_experiment_name_that_is_a_path(self):
        programs = cpu_programs()
        programs[0]["experiment"] = "../../etc"
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "run")
            os.makedirs(run)
            with open(os.path.join(run, "add_one.json"), "w") as f:
                json.dump(programs[0], f)
            rc, _, err = run_tool("nbk-report", run, "--out", os.path.join(tmp, "out"), "--no-plots")
            self.assertEqual(rc, 2, err)
            self.assertIn("experiment", err)

    def test_run_json_fields(self):
        self.refused(dict(CPU_CONTEXT, host=["a"]), cpu_programs(), "run.json", "host")
        self.refused(dict(CPU_CONTEXT, gpus="one"), cpu_programs(), "run.json", "gpus")


if __name__ == "__main__":
    unittest.main()
