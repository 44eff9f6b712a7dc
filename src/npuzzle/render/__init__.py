"""Pictures of boards and solutions, and reading boards from screenshots.

* :mod:`~npuzzle.render.text`: rich grids for the terminal (``board_table``)
* :mod:`~npuzzle.render.image`: a board as a PNG, numbered or cut from a picture (``render_board``)
* :mod:`~npuzzle.render.animate`: per-step PNGs, contact sheet, GIF, MP4 (``export_solution``)
* :mod:`~npuzzle.render.vision`: a screenshot back to a Board (``read_screenshot``; the grid found by
  :mod:`~npuzzle.render.locate`, numbers by :mod:`~npuzzle.render.ocr`, pictures without a reference
  reassembled by :mod:`~npuzzle.render.jigsaw`)

Names are loaded on first use, so importing this package does not import Pillow, NumPy or SciPy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .animate import ExportResult, Timing, export_solution, write_gif, write_mp4, write_sheet, write_steps
    from .image import BoardPainter, PictureError, Theme, cut_picture, load_picture, render_board, save_tiles
    from .text import board_table
    from .vision import (
        AmbiguousTilesError,
        PictureReassemblyError,
        ReadingTimeoutError,
        ScreenshotReading,
        read_screenshot,
    )

_HOMES = {
    "board_table": "text",
    "BoardPainter": "image",
    "PictureError": "image",
    "Theme": "image",
    "cut_picture": "image",
    "load_picture": "image",
    "render_board": "image",
    "save_tiles": "image",
    "ExportResult": "animate",
    "Timing": "animate",
    "export_solution": "animate",
    "write_gif": "animate",
    "write_mp4": "animate",
    "write_sheet": "animate",
    "write_steps": "animate",
    "AmbiguousTilesError": "vision",
    "PictureReassemblyError": "vision",
    "ReadingTimeoutError": "vision",
    "ScreenshotReading": "vision",
    "read_screenshot": "vision",
}

__all__ = [
    "AmbiguousTilesError",
    "BoardPainter",
    "ExportResult",
    "PictureError",
    "PictureReassemblyError",
    "ReadingTimeoutError",
    "ScreenshotReading",
    "Theme",
    "Timing",
    "board_table",
    "cut_picture",
    "export_solution",
    "load_picture",
    "read_screenshot",
    "render_board",
    "save_tiles",
    "write_gif",
    "write_mp4",
    "write_sheet",
    "write_steps",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
