"""How wide a text prints, and how to make it fit a box: wrap it, or shrink its font.

The print pages place every box in millimetres, so a name longer than its cell would run
into the next cell or be cut by the box. Nothing on paper may be cut silently: a long
name, club, contract or penalty reason is broken into lines or set smaller instead. This
module measures texts with the advance widths of the font the print stylesheet uses (DejaVu
Sans, the file fontconfig resolves for WeasyPrint), read once with fontTools (a WeasyPrint
dependency). WeasyPrint sets text with the same advance widths; kerning, ignored here, only
ever makes DejaVu text narrower, so the estimate is never short. Without the font file
every character counts as wide as DejaVu Sans Bold's wide letters, which is safe too.

Pure Python: no Django import.
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

PT_MM = 25.4 / 72  # one point in millimetres
FALLBACK_EM = 0.78  # width of a character (in em) when the font is not available
MISSING_EM = 1.0  # a character the font lacks: drawn by a fallback font, e.g. CJK

FONT_FILES = {
    False: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
    ),
    True: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    ),
}


def _font_file(bold: bool) -> str | None:
    """The file fontconfig picks for "DejaVu Sans" (what WeasyPrint draws with), else one of
    the usual places."""
    fc_match = shutil.which("fc-match")
    if fc_match is not None:
        pattern = "DejaVu Sans:bold" if bold else "DejaVu Sans"
        try:
            found = subprocess.run(
                [fc_match, "-f", "%{file}", pattern],
                capture_output=True, text=True, timeout=10, check=False,
            ).stdout.strip()  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            found = ""
        if "DejaVuSans" in found:
            return found
    return next((path for path in FONT_FILES[bold] if os.path.exists(path)), None)


@lru_cache(maxsize=2)
def _advances(bold: bool) -> dict[int, float] | None:
    """Code point to advance width in em, or None without the font."""
    path = _font_file(bold)
    if path is None:
        return None
    try:
        from fontTools.ttLib import TTFont

        with TTFont(path) as font:
            units = font["head"].unitsPerEm
            metrics = font["hmtx"].metrics
            advances = {
                code: metrics[glyph][0] / units for code, glyph in font.getBestCmap().items()
            }
    except Exception:  # a broken or unreadable font file: measure conservatively
        return None
    # The parsed font leaves reference cycles behind; left to the collector's oldest
    # generation they made WeasyPrint's PDF writing in this process measurably slower.
    gc.collect()
    return advances


def text_width(text: str, size_pt: float, bold: bool = False, tracking: float = 0.0) -> float:
    """The printed width of ``text`` in millimetres at ``size_pt`` (never less than
    WeasyPrint's); ``tracking``: letter spacing in em."""
    return (_em(text, bold) + tracking * len(text)) * size_pt * PT_MM


@lru_cache(maxsize=8192)
def _em(text: str, bold: bool) -> float:
    """The width of ``text`` in em (line breaking measures the same pieces many times)."""
    advances = _advances(bold)
    if advances is None:
        return FALLBACK_EM * len(text)
    return sum(advances.get(ord(c), MISSING_EM) for c in text)


# A line may break after a space, or after a hyphen or slash between two letters (not in
# "-3"). Spaces at a break disappear; a hyphen stays at the end of its line.
_PIECES = re.compile(r"[^\s/-]+[-/]+(?=[^\s/-])|\S*?(?:\s+|$)")
_WORDS = re.compile(r"\S*(?:\s+|$)")


def wrap(
    text: str, width_mm: float, size_pt: float, bold: bool = False, tracking: float = 0.0
) -> list[str]:
    """Line breaking of ``text`` into lines no wider than ``width_mm``: at spaces if that
    takes no more lines than breaking after hyphens too (so a hyphenated name stays whole
    where it can). A word wider than the line on its own is cut between letters (never
    dropped), which is avoided where breaking after a hyphen helps."""
    text = " ".join(text.split())
    if not text or text_width(text, size_pt, bold, tracking) <= width_mm:
        return [text]
    candidates = []
    for rank, pattern in enumerate((_WORDS, _PIECES)):
        pieces = [p for p in pattern.findall(text) if p]
        lines, cuts = _greedy(pieces, width_mm, size_pt, bold, tracking)
        candidates.append(((cuts, len(lines), rank), lines))
    return min(candidates)[1]


def _greedy(
    pieces: list[str], width_mm: float, size_pt: float, bold: bool, tracking: float
) -> tuple[list[str], int]:
    """Lines filled piece by piece; and how often a word had to be cut between letters."""
    lines: list[str] = []
    line = ""
    for piece in pieces:
        candidate = line + piece
        if not line or text_width(candidate.rstrip(), size_pt, bold, tracking) <= width_mm:
            line = candidate
            continue
        lines.append(line.rstrip())
        line = piece
    lines.append(line.rstrip())
    result = [
        part for line in lines for part in _split_word(line, width_mm, size_pt, bold, tracking)
    ]
    return result, len(result) - len(lines)


def _split_word(
    line: str, width_mm: float, size_pt: float, bold: bool, tracking: float
) -> Iterator[str]:
    """A line that is still too wide (one long word), cut between letters."""
    while text_width(line, size_pt, bold, tracking) > width_mm and len(line) > 1:
        cut = len(line) - 1
        while cut > 1 and text_width(line[:cut], size_pt, bold, tracking) > width_mm:
            cut -= 1
        yield line[:cut]
        line = line[cut:]
    yield line


@dataclass(frozen=True, slots=True)
class Fit:
    """A text made to fit a box: its lines and the font size to print them at."""

    lines: tuple[str, ...]
    size: float  # pt
    changed: bool  # False: one line at the box's own font size (nothing to do)
    leading: float = 1.2  # line height of a text of several lines, times the size

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def style(self) -> str:
        """CSS declarations for the box: its font size, and the line height when the text
        has several lines; empty when nothing changed."""
        if not self.changed:
            return ""
        style = f"font-size:{self.size:g}pt"
        if len(self.lines) > 1:
            style += f";line-height:{self.size * self.leading * PT_MM:.2f}mm"
        return style


def _round_down(size: float) -> float:
    return int(size * 10) / 10


def fit(
    text: str,
    width_mm: float,
    size_pt: float,
    *,
    bold: bool = False,
    max_lines: int = 2,
    height_mm: float | None = None,
    leading: float = 1.2,
    min_pt: float = 0.0,
    shrink_first: float = 0.85,
    tracking: float = 0.0,
) -> Fit:
    """Make ``text`` fit ``width_mm`` (and ``height_mm``, if given, for all its lines at
    ``leading`` times the font size): as it is if it fits; else set smaller on one line
    down to ``shrink_first`` times the size; else broken into up to ``max_lines`` lines,
    set smaller where even those are too wide or too many for the height; whichever keeps
    the larger font. ``min_pt`` only prefers one option over another: the text always fits,
    however small it must get. ``tracking``: the box's letter spacing in em."""
    text = " ".join(text.split())
    width = text_width(text, size_pt, bold, tracking)
    if width <= width_mm or not text:
        return Fit((text,), size_pt, False, leading)
    one_line = _round_down(size_pt * width_mm / width)
    if one_line >= size_pt * shrink_first or max_lines < 2:
        return Fit((text,), one_line, True, leading)
    best = Fit((text,), one_line, True, leading)
    for lines in range(2, max_lines + 1):
        candidate = _fit_lines(text, width_mm, size_pt, bold, lines, height_mm, leading, tracking)
        if candidate is not None and candidate.size > best.size:
            best = candidate
        if best.size >= max(min_pt, size_pt * shrink_first):
            break
    return best


def _fit_lines(
    text: str, width_mm: float, size_pt: float, bold: bool, count: int,
    height_mm: float | None, leading: float, tracking: float,
) -> Fit | None:  # fmt: skip
    """The largest size (up to ``size_pt``) at which ``text`` breaks into at most ``count``
    lines that fit; None if it does not break into more than one line."""
    size = size_pt
    if height_mm is not None:
        size = min(size, height_mm / (count * leading * PT_MM))
    for _ in range(40):
        lines = wrap(text, width_mm, size, bold, tracking)
        if len(lines) <= count:
            if len(lines) < 2:
                return None
            return Fit(tuple(lines), _round_down(size), True, leading)
        size *= 0.95
    return None
