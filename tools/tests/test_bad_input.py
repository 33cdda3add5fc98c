"""Bad input: one line on stderr naming the file, exit 2, nothing on stdout."""
import os
import tempfile
import unittest

from .helpers import fixture, run_tool

BAD = {
    "malformed.json": "malformed JSON",
    "truncated.json": "truncated JSON",
    "not_gbench.json": "no result row with a time",
    "no_context.json": "not Google Benchmark output",
    "empty_list.json": "no benchmarks",
    "does_not_exist.json": "no such file",
}


class BadInput(unittest.TestCase):
    def check(self, args, path, words):
        rc, out, err = run_tool("nbk-compare", *args)
        self.assertEqual(rc, 2, err)
        self.assertEqual(out, "")
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertIn(path, lines[0])
        self.assertIn(words, lines[0])

    def test_each_bad_file_alone(self):
        for name, words in BAD.items():
            with self.subTest(name):
                self.check([fixture(name)], fixture(name), words)

    def test_bad_file_beside_a_good_one(self):
        for name, words in BAD.items():
            with self.subTest(name):
                self.check([fixture("spaces.json"), fixture(name)], fixture(name), words)

    def test_regress_names_the_bad_side(self):
        for name, words in BAD.items():
            with self.subTest(name):
                self.check(["regress", fixture("before.json"), fixture(name)], fixture(name), words)

    def test_empty_file_and_directory(self):
        with tempfile.TemporaryDirectory() as tmp:
            empty = os.path.join(tmp, "empty.json")
            open(empty, "w").close()
            self.check([empty], empty, "empty file")
            self.check([tmp], tmp, "directory")

    def test_report_with_a_bad_explicit_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, out, err = run_tool("nbk-report", "--results", fixture("truncated.json"), "--out", tmp)
            self.assertEqual(rc, 2)
            self.assertEqual(len(err.strip().splitlines()), 1)
            self.assertIn("truncated.json", err)


if __name__ == "__main__":
    unittest.main()
