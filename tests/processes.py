"""Finding the processes a test started, children and grandchildren included (Linux /proc)."""

from __future__ import annotations

from pathlib import Path


def processes_tagged(tag: str) -> list[int]:
    """Pids of live processes whose environment holds ``NPUZZLE_TEST_TAG=tag``: a test sets the tag in the
    environment of what it starts, so the workers that process spawns can be found and checked after a kill."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if f"NPUZZLE_TEST_TAG={tag}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found
