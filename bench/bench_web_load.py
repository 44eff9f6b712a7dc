"""A bounded load check of the web API, on loopback only (127.0.0.1), in three phases.

Run from the repository root::

    python bench/bench_web_load.py                    # the figures recorded in BENCHMARKS.md
    python bench/bench_web_load.py --checks 100 --hard 4 --big-mb 10 --slow 50
    PYTHONPATH=/tmp/web-before/src python bench/bench_web_load.py   # another checkout's server

It starts ``npuzzle serve`` on a free port in a subprocess and waits for the kernels to compile, then:

1. **flood**: ``--hard`` hard 4×4 solves (Korf's hardest, classic goal, 5 s budget each) all at once, and
   meanwhile ``--checks`` trivial ``/api/check`` requests, ``--concurrency`` at a time; the check latencies
   (p50/p99/max) are the figure: a trivial request must not wait for the solves.
2. **big body**: one POST of ``--big-mb`` MB to ``/api/check`` while a probe sends a small check every 50 ms;
   the probe's worst latency says whether the big body froze the event loop, the server's peak resident
   memory (``VmHWM``) how much the body cost.
3. **slow clients**: ``--slow`` connections that send half a request line and then nothing; after
   ``--slow-seconds`` the count the server still holds open.

Every count and time is bounded; the server is terminated at the end. Prints Markdown for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

KORF = Path(__file__).resolve().parents[2] / "shared" / "data" / "korf100.txt"
N_CELLS_4X4 = 16
CHECK_BOARD = {"board": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15]}


@dataclass
class Result:
    kind: str
    status: int
    seconds: float


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def korf_hardest(count: int) -> list[list[int]]:
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
    return [tiles for _, tiles in rows[:count]]


def memory_mb(pid: int) -> dict[str, float]:
    """The process's resident memory now (``VmRSS``) and at its peak (``VmHWM``), in MB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024  # kB
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def statuses(results: list[Result]) -> str:
    codes = sorted({r.status for r in results})
    return ", ".join(f"{c}×{sum(1 for r in results if r.status == c)}" for c in codes)


async def timed(client: httpx.AsyncClient, kind: str, path: str, **kwargs: object) -> Result:
    began = time.perf_counter()
    try:
        response = await client.post(path, **kwargs)  # type: ignore[arg-type]
        status = response.status_code
    except httpx.HTTPError:
        status = 0  # connection dropped or timed out: counted apart
    return Result(kind, status, time.perf_counter() - began)


async def flood(base: str, hard: int, checks: int, concurrency: int) -> tuple[list[Result], float]:
    limits = httpx.Limits(max_connections=hard + concurrency + 10, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as client:
        began = time.perf_counter()
        solves = [
            asyncio.create_task(timed(client, "solve", "/api/solve", json={"board": tiles, "max_seconds": 5}))
            for tiles in korf_hardest(hard)
        ]
        await asyncio.sleep(0.2)  # the solves hold every slot before the checks start
        gate = asyncio.Semaphore(concurrency)

        async def one_check() -> Result:
            async with gate:
                return await timed(client, "check", "/api/check", json=CHECK_BOARD)

        results = await asyncio.gather(*(one_check() for _ in range(checks)))
        results += await asyncio.gather(*solves)
        return list(results), time.perf_counter() - began


async def post_raw(port: int, body: bytes) -> Result:
    """POST ``body`` to /api/check on a raw connection, reading the answer even when the server answers
    (and closes) before the body is sent: an HTTP client library would only report the broken pipe."""
    began = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    answer = asyncio.create_task(asyncio.wait_for(reader.readline(), 120))  # read while sending
    try:
        writer.write(head.encode())
        await asyncio.wait([answer], timeout=0.5)  # a server that refuses on the declared size does it now
        for i in range(0, len(body), 1 << 20):
            if answer.done():
                break  # answered before the whole body went: nothing more to send
            writer.write(body[i : i + (1 << 20)])
            await writer.drain()
    except (ConnectionError, OSError):
        pass  # the server stopped reading
    try:
        status_line = await answer
        status = int(status_line.split()[1]) if status_line else 0
    except (ConnectionError, OSError, IndexError, ValueError, TimeoutError):
        status = 0
    writer.close()
    return Result("big", status, time.perf_counter() - began)


async def big_body(base: str, port: int, megabytes: int) -> tuple[Result, list[Result]]:
    # a valid JSON list of small ints: the parser has to build every element
    body = b'{"board": [' + b"1," * (megabytes * 2**20 // 2) + b'0], "width": 2}'
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        task = asyncio.create_task(post_raw(port, body))
        probes = []
        while not task.done():
            probes.append(await timed(client, "probe", "/api/check", json=CHECK_BOARD))
            await asyncio.sleep(0.05)
        return await task, probes


def slow_clients(port: int, count: int, seconds: float) -> int:
    """Open ``count`` connections that send a partial request, wait, and count those still open."""
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sockets.append(s)
    time.sleep(seconds)
    still_open = 0
    for s in sockets:
        s.setblocking(False)
        try:
            still_open += s.recv(1) != b""  # b"": the server closed it
        except BlockingIOError:
            still_open += 1  # nothing to read and not closed
        except OSError:
            pass
        s.close()
    return still_open


def start_server(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "npuzzle", "serve", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_ready(base: str, seconds: float = 900) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            # a solve answers only after the warm-up has compiled (or loaded) the kernels it shares
            r = httpx.post(f"{base}/api/solve", json={"board": [1, 2, 3, 4, 5, 6, 0, 7, 8]}, timeout=seconds)
            if r.status_code == 200:  # and load the 4×4 tables / compile their kernel once
                near = [*range(1, 14), 14, 0, 15]
                httpx.post(f"{base}/api/solve", json={"board": near}, timeout=seconds)
                # a server with /api/status says when its start-up work (tables, kernels) is over
                while time.monotonic() < deadline:
                    status = httpx.get(f"{base}/api/status", timeout=seconds)
                    if status.status_code != 200 or status.json().get("warm") is not False:
                        return
                    time.sleep(1)
                raise SystemExit("the server's start-up work did not end in time")
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit("the server did not come up")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hard", type=int, default=16, help="concurrent hard 4x4 solves")
    parser.add_argument("--checks", type=int, default=400, help="/api/check requests during the solves")
    parser.add_argument("--concurrency", type=int, default=50, help="checks in flight at once")
    parser.add_argument("--big-mb", type=int, default=100, help="size of the one big POST (0: skip)")
    parser.add_argument("--slow", type=int, default=200, help="slow connections (0: skip)")
    parser.add_argument("--slow-seconds", type=float, default=15.0)
    args = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(port)
    try:
        wait_ready(base)
        before = memory_mb(server.pid)
        results, wall = asyncio.run(flood(base, args.hard, args.checks, args.concurrency))
        after_flood = memory_mb(server.pid)
        big, probes = (None, []) if args.big_mb <= 0 else asyncio.run(big_body(base, port, args.big_mb))
        after_big = memory_mb(server.pid)
        held = slow_clients(port, args.slow, args.slow_seconds) if args.slow > 0 else None
        alive = server.poll() is None
    finally:
        server.terminate()
        server.wait(10)

    checks = [r.seconds for r in results if r.kind == "check"]
    solves = [r for r in results if r.kind == "solve"]
    print(
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (at the end)"
    )
    print()
    print("| phase | requests | statuses | p50 s | p99 s | max s | server RSS peak MB |")
    print("|---|---:|---|---:|---:|---:|---:|")
    print(f"| idle after warm-up | - | - | - | - | - | {before['VmHWM']:.0f} (now {before['VmRSS']:.0f}) |")
    print(
        f"| flood: {args.checks} `/api/check`, {args.concurrency} at a time, during {args.hard} hard 4×4 "
        f"solves (wall {wall:.1f} s) | {args.checks} | {statuses([r for r in results if r.kind == 'check'])} "
        f"| {percentile(checks, 0.5):.3f} | {percentile(checks, 0.99):.3f} | {max(checks):.3f} "
        f"| {after_flood['VmHWM']:.0f} |"
    )
    print(
        f"| ... the {args.hard} hard solves | {len(solves)} | {statuses(solves)} "
        f"| {percentile([r.seconds for r in solves], 0.5):.2f} | {percentile([r.seconds for r in solves], 0.99):.2f} "
        f"| {max(r.seconds for r in solves):.2f} | |"
    )
    if big is not None:
        probe_s = [r.seconds for r in probes]
        print(
            f"| one {args.big_mb} MB POST: {big.status} after {big.seconds:.2f} s; small checks meanwhile "
            f"| {len(probes)} | {statuses(probes)} | {percentile(probe_s, 0.5):.3f} "
            f"| {percentile(probe_s, 0.99):.3f} | {max(probe_s, default=float('nan')):.3f} "
            f"| {after_big['VmHWM']:.0f} |"
        )
    if held is not None:
        print(
            f"| {args.slow} connections sending half a request line: still open after "
            f"{args.slow_seconds:g} s | {args.slow} | {held} held open | - | - | - | |"
        )
    print()
    print(f"server still running at the end: {alive}")


if __name__ == "__main__":
    main()
