"""Every number the tools print, formatted once, and any text as Markdown text."""
import re

MISSING = "-"
UNITS = (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9))


def is_int(text):
    return re.fullmatch(r"-?\d+", text) is not None


def format_time(seconds, spec="#.4g"):
    """'1.234 ms' ('#.4g': four digits; 'g' for an axis' whole decades: '1 ms')."""
    if seconds is None:
        return MISSING
    for unit, scale in UNITS:
        if abs(seconds) >= scale * (1 - 1e-9) or unit == "ns":
            return f"{seconds / scale:{spec}}".rstrip(".") + f" {unit}"


def format_gbps(gbps):
    return MISSING if gbps is None else f"{gbps:.0f}" if gbps >= 100 else \
        f"{gbps:#.3g}".rstrip(".") if gbps >= 0.001 else f"{gbps:.2g}"


def format_ratio(ratio):
    return MISSING if ratio is None else next((f"{ratio:{spec}}x" for bound, spec in (
        (100, ".0f"), (10, ".1f"), (0.01, ".2f")) if ratio >= bound), f"{ratio:.2g}x")


def format_pct(fraction):
    return MISSING if fraction is None else f"{fraction * 100:.1f}%" if fraction < 0.1 else f"{fraction * 100:.0f}%"


def format_p(p):
    return MISSING if p is None else f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def format_size(size):
    """67108864 -> '2^26'; other integers as they are; several arguments joined by '/'."""
    return "/".join(f"2^{int(p).bit_length() - 1}" if is_int(p) and int(p) >= 1024 and int(p) & (int(p) - 1) == 0
                    else p for p in (size.split("/") if size else []))


def blas_text(context):
    """'OpenBLAS (/usr/lib/.../libopenblasp-r0.3.21.so, reports 1 thread(s))' of NumPy's context."""
    said = context.get("blas_threads")
    return (f"{context.get('blas') or 'unknown'} ({context.get('blas_library') or 'library not found'}"
            + (f", reports {said} thread(s)" if said is not None else "") + ")")


_MARKUP = re.compile(r"[\\`*\[\]|&<~\x00-\x1f\x7f]|(?<![^\W_])_|_(?![^\W_])")  # "_" but inside a word


def md_text(value):
    """A value as Markdown text (GitHub's and python3-markdown's): no markup, link, entity or line break of its own."""
    return _MARKUP.sub(lambda m: " " if m[0] < " " or m[0] == "\x7f" else f"&#{ord(m[0])};" if m[0] in "&<~"
                       else "\\" + m[0], str(value))
