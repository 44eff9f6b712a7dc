"""``python -m npuzzle``."""

from npuzzle.cli import run

if __name__ == "__main__":
    run()
