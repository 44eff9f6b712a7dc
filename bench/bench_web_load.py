"""A bounded load check of the web API, on loopback only: many easy solves while a few hard ones run.

Run from the repository root::

    python bench/bench_web_load.py              # 200 3×3 solves + 4 of Korf's hardest 4×4 (classic goal)
    python bench/bench_web_load.py --easy 50 --hard 2

It starts ``npuzzle serve`` on 127.0.0.1 (a free port) in a subprocess, waits for the kernels to compile,
then fires the hard 4×4 requests first (so they hold the heavy lane) and immediately after them all the
3×3 requests at once, each on its own connection. Every request must get an answer (200, or a 4xx with a
reason); the figures are the latencies seen by the client. Prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from npuzzle.generate import generate
from npuzzle.goals import classic

KORF = Path(__file__).resolve().parents[2] / "shared" / "data" / "korf100.txt"
N_CELLS_4X4 = 16


@dataclass
class Result:
    kind: str
    status: int
    seconds: float
    body: dict


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def korf_hardest(count: int) -> list[tuple[int, list[int]]]:
    """Korf's hardest instances, turned to the classic goal (blank last): rotate the board half a turn
    and relabel tile k as 16 - k. A half turn maps moves to moves, so optimal lengths are unchanged."""
    rows = []
    for line in KORF.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            length, *tiles = map(int, line.split())
            rotated = [0] * N_CELLS_4X4
            for cell, tile in enumerate(tiles):
                rotated[N_CELLS_4X4 - 1 - cell] = 0 if tile == 0 else N_CELLS_4X4 - tile
            rows.append((length, rotated))
    rows.sort(key=lambda r: -r[0])
    return rows[:count]


async def post(client: httpx.AsyncClient, kind: str, payload: dict) -> Result:
    began = time.perf_counter()
    response = await client.post("/api/solve", json=payload)
    return Result(kind, response.status_code, time.perf_counter() - began, response.json())


async def run(base: str, easy: int, hard: int, seed: int) -> tuple[list[Result], float]:
    easy_boards = generate(classic(3, 3), "shuffle", count=easy, seed=seed)
    hard_boards = korf_hardest(hard)
    limits = httpx.Limits(max_connections=easy + hard + 10, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as client:
        began = time.perf_counter()
        tasks = [
            asyncio.create_task(post(client, f"4x4 ({length} moves)", {"board": tiles, "max_seconds": 5}))
            for length, tiles in hard_boards
        ]
        await asyncio.sleep(0.05)  # the hard ones are in the heavy lane before the crowd arrives
        tasks += [asyncio.create_task(post(client, "3x3", {"board": list(b.tiles)})) for b in easy_boards]
        results = await asyncio.gather(*tasks)
        return list(results), time.perf_counter() - began


def start_server(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "npuzzle", "serve", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_ready(base: str, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            # a solve answers only after the warm-up has compiled (or loaded) the kernels it shares
            r = httpx.post(f"{base}/api/solve", json={"board": [1, 2, 3, 4, 5, 6, 0, 7, 8]}, timeout=seconds)
            if r.status_code == 200:  # and load the 4×4 tables / compile their kernel once
                near = [*range(1, 14), 14, 0, 15]
                httpx.post(f"{base}/api/solve", json={"board": near}, timeout=seconds)
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit("the server did not come up")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--easy", type=int, default=200, help="concurrent 3x3 solves")
    parser.add_argument("--hard", type=int, default=4, help="concurrent hard 4x4 solves (Korf's hardest)")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(port)
    try:
        wait_ready(base)
        results, wall = asyncio.run(run(base, args.easy, args.hard, args.seed))
    finally:
        server.terminate()
        server.wait(10)

    easy = [r for r in results if r.kind == "3x3"]
    hard = [r for r in results if r.kind != "3x3"]
    answered = sum(1 for r in results if r.status < 500 or r.status == 503)
    print(
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{len(results)} requests, {answered} answered, wall {wall:.2f} s; statuses: "
        + ", ".join(
            f"{s}×{sum(1 for r in results if r.status == s)}" for s in sorted({r.status for r in results})
        )
    )
    print()
    print("| requests | answered 200 | median s | p95 s | max s |")
    print("|---|---:|---:|---:|---:|")
    times = [r.seconds for r in easy]
    ok = sum(1 for r in easy if r.status == 200)
    optimal = sum(1 for r in easy if r.status == 200 and r.body.get("optimal"))
    print(
        f"| {len(easy)} × 3×3 (uniform shuffles) | {ok} ({optimal} optimal) | {statistics.median(times):.3f} | "
        f"{percentile(times, 0.95):.3f} | {max(times):.3f} |"
    )
    print()
    print("| hard 4×4 (classic goal) | status | seconds | answer |")
    print("|---|---:|---:|---|")
    for r in hard:
        if r.status == 200:
            answer = f"{r.body['length']} moves, {'optimal' if r.body['optimal'] else 'not optimal'} ({r.body['algorithm']})"
        else:
            answer = r.body.get("detail", "")[:80]
        print(f"| {r.kind} | {r.status} | {r.seconds:.2f} | {answer} |")


if __name__ == "__main__":
    main()
