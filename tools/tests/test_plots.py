"""The plotting step makes non-empty PNG images from a fixture (and degrades without matplotlib)."""
import os
import struct
import tempfile
import unittest
from unittest import mock

from nbk_compare import compare, plots
from nbk_compare.gbench import BenchFile

from .helpers import fixture, have_matplotlib


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


@unittest.skipUnless(have_matplotlib(), "matplotlib not importable by this interpreter (python3-matplotlib)")
class Plots(unittest.TestCase):
    def test_pngs_from_the_fixture(self):
        cmp = compare.Comparison([BenchFile(fixture("spaces.json"), "spaces")])
        with tempfile.TemporaryDirectory() as tmp:
            written = plots.write_plots(cmp, tmp)
            names = sorted(os.path.basename(p) for p, _ in written)
            # add_one/resident has two sizes: a sweep; probe has one size a space: none.
            self.assertEqual(names, ["bandwidth.png", "speedup.png", "sweep-add_one.png"])
            for path, title in written:
                self.assertGreater(os.path.getsize(path), 5000, path)
                width, height = png_size(path)
                self.assertGreater(width, 300)
                self.assertGreater(height, 200)
                self.assertTrue(title)

    def test_nothing_to_plot_writes_nothing(self):
        # A single space: no speed-up bars, no sweep; bandwidth still has bars.
        cmp = compare.Comparison([BenchFile(fixture("before_agg.json"), "agg")])
        with tempfile.TemporaryDirectory() as tmp:
            names = sorted(os.path.basename(p) for p, _ in plots.write_plots(cmp, tmp))
            self.assertEqual(names, ["bandwidth.png", "sweep-add_one.png"])


class WithoutMatplotlib(unittest.TestCase):
    def test_unavailable_is_an_explained_exception(self):
        with mock.patch.dict("sys.modules", {"matplotlib": None}):
            cmp = compare.Comparison([BenchFile(fixture("spaces.json"), "spaces")])
            with tempfile.TemporaryDirectory() as tmp, self.assertRaises(plots.PlotsUnavailable) as ctx:
                plots.write_plots(cmp, tmp)
            self.assertIn("python3-matplotlib", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
