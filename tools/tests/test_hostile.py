"""Records are data (issue 50): markup in any string of a run.json or a program's JSON reaches the
page as text (the page parsed as a browser does: no element or attribute from a record), a record
past the tools' bounds (nesting, a field's length, file size, items) or with a field of the wrong
type or a time that is not > 0 is refused with one line naming the file and the field (exit 2), a
folder's unreadable file and a workload run.json names but the folder lacks are said on stderr,
and each tool ends within 10 s on every one of these inputs."""
import html.parser
import json
import os
import re
import resource
import shutil
import tempfile
import unittest

import markdown

from .helpers import fixture, read, run_tool
from .runs_fixtures import CPU_CONTEXT, GPU_CONTEXT, cpu_programs, gpu_programs, write_run

# Raw HTML, Markdown links and images (javascript: plain, entity-encoded, with &colon;), emphasis, code,
# an autolink, strike-through and an entity: each must be shown as the characters it is.
HOSTILE = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "[x](javascript:alert(3))",
           "<svg onload=alert(4)>", "![y](javascript:alert(5))", "<a href='javascript:alert(6)'>z</a>",
           "[h](&#106;avascript:alert(7))", "[j](java&#115;cript:alert(8))", "[k](javascript&colon;alert(9))",
           "**bold10**", "_em11_", "`code12`", '![e](x" onerror=alert(13))', "<https://example.com/14>",
           "~~del15~~", "&lt;b16&gt;", "| pipe17 |", "line\n# heading18"]


def hostile(value, i=[0]):
    """Every string of a JSON value with a piece of markup appended (the next one each time), but sizes
    (checked at load: digits and x)."""
    if isinstance(value, dict):
        return {k: v if k == "size" else hostile(v) for k, v in value.items()}
    if isinstance(value, list):
        return [hostile(v) for v in value]
    if isinstance(value, str):
        i[0] += 1
        return value + HOSTILE[i[0] % len(HOSTILE)]
    return value


class Page(html.parser.HTMLParser):
    """A page as the browser parses it: its elements' attributes, its text, and the text inside markup."""
    INLINE = {"a", "strong", "em", "code", "del", "s", "img", "script", "svg", "b", "i"}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.attributes, self.text, self.inline, self.headings, self.open = set(), [], [], [], [], []
        self.feed(text)
        self.text = "".join(self.text)

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes += [(tag, k, v or "") for k, v in attrs]
        if tag not in ("br", "img", "hr"):
            self.open.append(tag)
        if re.fullmatch(r"h\d", tag):
            self.headings.append("")

    def handle_endtag(self, tag):
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]

    def handle_data(self, data):
        self.text.append(data)
        if self.INLINE & set(self.open) and "pre" not in self.open:  # a pre block shows a record as it is
            self.inline.append(data)
        if any(re.fullmatch(r"h\d", t) for t in self.open):
            self.headings[-1] += data


def child_seconds():
    """CPU seconds the finished child processes took: a tool's own time, whatever else runs (CI's
    ctest -j2 on two cores doubled the wall time); a hang still ends at run_tool's 120 s timeout."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(test, tool, *args):
    start = child_seconds()
    rc, out, err = run_tool(tool, *args)
    test.assertLess(child_seconds() - start, 10, f"{tool} {args}: {err}")
    test.assertNotIn("Traceback", err)
    return rc, out, err


class HostileStrings(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        programs = cpu_programs()
        for p in programs:  # every string but the experiment's name (a file name, checked at load)
            for k in [k for k in p if k != "experiment"]:
                p[k] = hostile(p[k])
        context = dict(CPU_CONTEXT, command="".join(HOSTILE), cpu_model="c", host="**host**", label=None)
        cls.cpu = write_run(os.path.join(cls.tmp, "cpu"), hostile(context), programs)
        cls.gpu = write_run(os.path.join(cls.tmp, "gpu"), hostile(dict(GPU_CONTEXT)), gpu_programs())
        cls.cpu2 = shutil.copytree(cls.cpu, os.path.join(cls.tmp, "cpu2"))
        cls.out, start = os.path.join(cls.tmp, "report"), child_seconds()
        cls.result, cls.seconds = run_tool("nbk-report", cls.cpu, cls.gpu, "--out", cls.out), child_seconds() - start

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def no_markup_from_records(self, page, written=()):
        self.assertFalse(page.tags & {"script", "svg", "iframe", "object", "embed", "del", "s", "em"}, page.tags)
        self.assertEqual([a for a in page.attributes if a[1].startswith("on")], [])
        self.assertEqual([a for a in page.attributes if a[1] in ("href", "src") and a[2] not in written], [])
        self.assertEqual([t for t in page.inline if any(h in t for h in ("alert", "bold10", "em11", "code12"))], [])

    def test_the_page_shows_every_string_as_text(self):
        rc, _, err = self.result
        self.assertEqual(rc, 0, err)
        self.assertLess(self.seconds, 10)
        page = Page(read(os.path.join(self.out, "index.html")))
        self.no_markup_from_records(page, [n for n in os.listdir(self.out) if n.endswith(".png")])
        for text in HOSTILE[:-2] + ["**host**"]:
            self.assertIn(text, page.text)
        self.assertIn("pipe17", page.text)
        self.assertTrue({"table", "details", "summary", "h1", "h2"} <= page.tags, page.tags)
        self.assertEqual([h for h in page.headings if h.startswith("heading18")], [])

    def test_index_md_holds_no_markup_of_a_record(self):
        md = read(os.path.join(self.out, "index.md"))
        self.assertLessEqual(set(re.findall(r"<[^>]*>", re.sub(r"`[^`\n]*`", "", md))),  # code spans aside
                             {'<details markdown="1">', "<summary>", "</summary>", "</details>", "<br>"})
        self.assertEqual(set(re.findall(r"(?<!\\)\]\(([^)]*)\)", md)) - set(os.listdir(self.out)), set())
        self.assertNotRegex(md, r"(?m)^#+ heading18")
        self.no_markup_from_records(Page(markdown.markdown(md, extensions=["tables", "fenced_code"])),
                                    os.listdir(self.out))

    def test_compare_shows_them_as_text(self):
        for form in ("text", "md"):
            rc, out, err = timed(self, "nbk-compare", self.cpu, self.cpu2, "--all", "--format", form)
            self.assertEqual(rc, 0, err)
            self.assertLessEqual(max(map(len, out.splitlines())), 100 if form == "text" else 1000)
            if form == "md":
                page = Page(markdown.markdown(out, extensions=["tables"]))
                self.no_markup_from_records(page)
                self.assertIn("<a href='javascript:alert(6)'>z</a>", page.text)


def refused(test, path, *words, tools=("nbk-report", "nbk-compare")):
    """Each tool on `path` (a run folder or a file): exit 2, one line naming the file and `words`, under 10 s."""
    for tool in tools:
        with test.subTest(tool=tool, path=os.path.basename(path)):
            extra = ["--out", os.path.join(os.path.dirname(path), "out"), "--no-plots"] * (tool == "nbk-report")
            rc, out, err = timed(test, tool, path, *extra)
            test.assertEqual(rc, 2, err)
            test.assertEqual(len(err.strip().splitlines()), 1, err)
            for text in words:
                test.assertIn(text, err)


class Bounds(unittest.TestCase):
    def program(self, tmp, name, text):
        """A run folder holding the CPU programs, one of them replaced by `text`."""
        run = write_run(os.path.join(tmp, "run"), CPU_CONTEXT, cpu_programs())
        with open(os.path.join(run, name), "w", encoding="utf-8") as f:
            f.write(text)
        return run

    def test_deep_nesting(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = self.program(tmp, "add_one.json", "[" * 100_000 + "]" * 100_000)
            refused(self, run, "add_one.json", "nested deeper than 32 levels")
            data = {"experiment": "add_one", "results": [{"variant": "v", "x": json.loads("[" * 40 + "]" * 40)}]}
            run = self.program(tmp, "add_one.json", json.dumps(data))
            refused(self, run, "add_one.json", "results[0].x", "nested deeper than 32 levels")

    def test_a_50_mb_field(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = cpu_programs()[0]
            data["results"][0]["variant"] = "v" * 50_000_000
            run = self.program(tmp, "add_one.json", json.dumps(data))
            refused(self, run, "add_one.json", "results[0].variant: 50,000,000 characters (at most 16,384)")
            refused(self, os.path.join(run, "add_one.json"), "results[0].variant", tools=["nbk-compare"])

    def test_too_many_items_and_a_control_character(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = cpu_programs()[0]
            data["results"] = data["results"][:1] * 100_001
            refused(self, self.program(tmp, "add_one.json", json.dumps(data)), "results: 100,001 items")
            data = cpu_programs()[0]
            data["context"]["host"] = "\x1b]0;title\x07"
            refused(self, self.program(tmp, "add_one.json", json.dumps(data)), "context.host: a control character")

    def test_times_not_above_zero(self):
        for value, where in ((0.0, "results[1].best_s"), (-1.0, "results[1].best_s"), ("NaN", "results[1].best_s"),
                             (0, "results[1].with_transfers.best_s")):
            with tempfile.TemporaryDirectory() as tmp:
                data = cpu_programs()[0]
                row = data["results"][1]
                if "with_transfers" in where:
                    row["with_transfers"] = {"best_s": value}
                else:
                    row["best_s"] = float(value)
                refused(self, self.program(tmp, "add_one.json", json.dumps(data)), "add_one.json", where,
                        "expected a finite number > 0")

    def test_a_benchmark_without_a_time(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(fixture("spaces.json"), encoding="utf-8") as f:
                data = json.load(f)
            data["benchmarks"][1]["real_time"] = 0
            path = os.path.join(tmp, "bench.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            refused(self, path, "benchmarks[1].real_time: expected a time > 0", tools=["nbk-compare"])


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


class UnreadableFiles(unittest.TestCase):
    def test_named_by_both_tools_and_nothing_else_lost(self):
        with tempfile.TemporaryDirectory() as tmp:
            context = dict(CPU_CONTEXT, programs=["add_one.json", "maximum.json", "pi.json"],
                           exit_codes={"add_one": 0, "maximum": 0, "sum": 1})
            a = write_run(os.path.join(tmp, "a"), context, cpu_programs())
            b = write_run(os.path.join(tmp, "b"), context, cpu_programs())
            for name, text in (("maximum.json", '{"experiment": "maximum", "results": ['), ("hypot.json", ""),
                               ("gaussian.json", "\x00\xff garbage")):
                with open(os.path.join(b, name), "w", encoding="latin-1") as f:
                    f.write(text)
            for tool, args in (("nbk-report", [a, b, "--out", os.path.join(tmp, "r"), "--no-plots", "--quiet"]),
                               ("nbk-compare", [a, b])):
                rc, out, err = timed(self, tool, *args)
                self.assertEqual(rc, 0, err)
                for words in ("maximum.json: truncated JSON", "hypot.json: empty file", "gaussian.json: not JSON",
                              os.path.join(a, "pi.json") + ": named by run.json, not in the folder",
                              os.path.join(b, "sum.json") + ": named by run.json"):
                    self.assertIn(words, err)
            self.assertIn("1 row(s) of one run only", out)  # a's maximum


if __name__ == "__main__":
    unittest.main()
