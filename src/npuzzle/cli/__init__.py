"""The ``npuzzle`` command line: one typer app, one module per command group, one error mapper.

Every command returns through :func:`main`, which maps errors to exit codes in one place
(see :mod:`npuzzle.cli.common`): 0 success, 1 unsolvable, 2 bad input, 3 a limit was hit.
Command modules import heavy things (numba kernels, Pillow, FastAPI) inside the command functions,
so ``npuzzle --help`` stays fast and compiles nothing.
"""

from __future__ import annotations

import sys

import typer

from . import analysis_cmds, bank_cmds, board_cmds, pdb_cmds, picture_cmds, solve_cmds, web_cmds
from .common import HANDLED, error_line, exit_code_for

# typer >= 0.29 vendors click as typer._click; older releases raise click's own classes
_EXIT: tuple[type[BaseException], ...] = (typer.Exit,)
_ABORT: tuple[type[BaseException], ...] = (typer.Abort,)
_USAGE: tuple[type[BaseException], ...] = (getattr(typer, "TyperException", typer.Exit),)
try:
    import click

    _EXIT += (click.exceptions.Exit,)
    _ABORT += (click.exceptions.Abort,)
    _USAGE += (click.ClickException,)
except ImportError:  # pragma: no cover - click is optional with newer typer
    pass

app = typer.Typer(
    name="npuzzle",
    help="Sliding-tile puzzles on any WxH board: check, generate, solve, render, play.\n\n"
    "Directions are always where the TILE travels (U/D/L/R), the speed-solving convention.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)

for _module in (board_cmds, solve_cmds, pdb_cmds, picture_cmds, web_cmds, analysis_cmds, bank_cmds):
    _module.register(app)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    command = typer.main.get_command(app)
    args = [_not_an_option(a) for a in (sys.argv[1:] if argv is None else argv)]
    try:
        result = command.main(args=args, prog_name="npuzzle", standalone_mode=False)
    except _EXIT as exc:
        return int(getattr(exc, "exit_code", 0) or 0)
    except _ABORT:
        typer.echo("npuzzle: aborted", err=True)
        return 130
    except _USAGE as exc:
        exc.show()  # type: ignore[attr-defined]
        return 2
    except HANDLED as exc:
        typer.echo(f"npuzzle: {error_line(exc)}", err=True)
        return exit_code_for(exc)
    return result if isinstance(result, int) else 0


def _not_an_option(arg: str) -> str:
    """Board text that starts with a negative label (``'-1 2 3 / 4 5 6 / 7 8 0'``) would be read by click as an
    unknown option ``-1``; no option name holds a space, so such an argument gets a leading space (board and
    goal parsing strip it). Anything else is passed through unchanged."""
    if isinstance(arg, str) and len(arg) > 2 and arg[0] == "-" and arg[1].isdigit() and any(c.isspace() for c in arg):
        return " " + arg
    return arg


def run() -> None:
    """Console-script entry point."""
    _exit(main())


def _exit(code: int) -> None:
    """Exit with ``code``. With no other thread left, exit handlers run and the output is flushed, then the
    process ends without the interpreter's teardown of its ~800 modules (numba, LLVM: about 0.2 s of CPU,
    a seventh of a later 4x4 solve); anything else, or output that cannot be flushed, exits normally."""
    import atexit
    import os
    import threading

    if threading.active_count() > 1:
        sys.exit(code)
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe or stream: let the interpreter report it as usual
        sys.exit(code)
    os._exit(code)


__all__ = ["app", "main", "run"]
