"""Golden-image comparison shared by the deck and sheet golden tests.

A whole-page mean lets a single changed digit through; the largest mean
difference of any small pixel block does not, and still ignores
anti-aliasing. (Importable from any test: pytest puts tests/, the folder of
the root conftest.py, on the import path.)
"""

from __future__ import annotations

from PIL import Image, ImageChops, ImageFilter

#: Block size in pixels (about 1 mm at 72 dpi).
BLOCK = 3
#: The largest mean difference (0–255) a block may show.
BLOCK_TOLERANCE = 14.0


def worst_block(a: Image.Image, b: Image.Image, block: int = BLOCK) -> float:
    """The largest mean difference (0–255) of any ``block`` × ``block`` pixel block."""
    if a.size != b.size:
        return 255.0
    diff = ImageChops.difference(a, b).convert("L")
    return float(diff.filter(ImageFilter.BoxBlur(block / 2)).getextrema()[1])
