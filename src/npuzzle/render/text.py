"""Boards for the terminal (rich): an aligned grid, the tile about to move highlighted.

>>> from rich.console import Console
>>> from npuzzle.board import Board
>>> console = Console(width=40, color_system=None)
>>> with console.capture() as capture:
...     console.print(board_table(Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 0, 8]]), highlight=8))
>>> print(capture.get().rstrip())
┌───┬───┬───┐
│ 1 │ 2 │ 3 │
├───┼───┼───┤
│ 4 │ 5 │ 6 │
├───┼───┼───┤
│ 7 │ · │ 8 │
└───┴───┴───┘
"""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from ..board import Board

HIGHLIGHT_STYLE = "bold black on yellow"
HOME_STYLE = "green"  # tiles already on their goal cell, when a goal is given
BLANK_MARK = "·"


def board_table(
    board: Board,
    highlight: int | None = None,
    *,
    goal: Board | None = None,
    title: str | None = None,
) -> Table:
    """``board`` as a rich table with lines between cells, every column as wide as the widest label.

    ``highlight`` (a label) is drawn in :data:`HIGHLIGHT_STYLE`: use it for the tile about to move, or the
    one that just moved. With ``goal``, tiles already on their goal cell are drawn in :data:`HOME_STYLE`.
    """
    digits = max(len(str(label)) for label in board.tiles)
    table = Table(
        box=box.SQUARE,
        show_header=False,
        show_lines=True,
        padding=(0, 1),
        title=title,
        expand=False,
    )
    for _ in range(board.width):
        table.add_column(justify="right", min_width=digits, no_wrap=True)
    for row in board.rows():
        cells = []
        for label in row:
            if label == board.blank:
                cells.append(Text(BLANK_MARK.rjust(digits), style="dim"))
                continue
            style = ""
            if label == highlight:
                style = HIGHLIGHT_STYLE
            elif goal is not None and goal.tiles[board.cell_of(label)] == label:
                style = HOME_STYLE
            cells.append(Text(str(label), style=style))
        table.add_row(*cells)
    return table


__all__ = ["BLANK_MARK", "HIGHLIGHT_STYLE", "HOME_STYLE", "board_table"]
