"""Ray as a batch engine: the same jobs as the local process pool, run as Ray tasks on one or many machines.

:func:`engine_executor` is what the CLI's ``--engine local|ray`` and ``--address`` become: ``None`` for the
local engine (:func:`~npuzzle.batch.runner.run_batch` then starts its own process pool), or a
:class:`RayExecutor` for Ray. The executor only adapts Ray to :class:`concurrent.futures.Executor`, the one
seam every engine plugs into, so results stream back as they finish and are written by this process (the
driver) through the same resumable writers as a local run: a results file or a puzzle bank.

Each task runs in a Ray worker process that Ray keeps and reuses, so the pattern tables a worker maps stay
mapped for every later task it runs (once per worker, not once per board). Without ``address`` Ray starts
locally (``ray.init()``); with ``address="auto"`` or ``"ray://host:port"`` it joins a running cluster
(docs/cluster.md).

Ray is an optional extra: ``pip install 'npuzzle[ray]'``. Importing this module does not import Ray.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager, suppress
from typing import Any

from ..errors import EngineUnavailableError

ENGINES = ("local", "ray")


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise EngineUnavailableError(
            "--engine ray needs Ray, which is not installed: pip install 'npuzzle[ray]'"
        ) from error
    return ray


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Runs in a Ray worker: the job function, as a process-pool worker would run it."""
    return fn(*args, **kwargs)


class RayExecutor(Executor):
    """A :class:`concurrent.futures.Executor` whose calls are Ray tasks of one CPU each."""

    def __init__(self, ray: Any) -> None:
        self._ray = ray
        self._remote = ray.remote(num_cpus=1, max_retries=2)(_call)
        self._refs: dict[Future[Any], Any] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        ref = self._remote.remote(fn, args, kwargs)
        future: Future[Any] = ref.future()
        self._refs[future] = ref
        future.add_done_callback(lambda done: self._refs.pop(done, None))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for ref in list(self._refs.values()):
                with suppress(Exception):  # already finished, or its worker gone: nothing left to stop
                    self._ray.cancel(ref, force=True)
        self._refs.clear()


def start_ray(address: str | None = None, n_jobs: int | None = None) -> Any:
    """Ray, started locally (``address`` None: ``n_jobs`` CPUs, default all) or joined to a cluster."""
    ray = _import_ray()
    if ray.is_initialized():
        return ray
    options: dict[str, Any] = {
        "ignore_reinit_error": True,
        "logging_level": "ERROR",
        "log_to_driver": False,
        "include_dashboard": False,
    }
    if address is None:
        options["num_cpus"] = n_jobs or len(os.sched_getaffinity(0))
    else:
        options["address"] = address
    try:
        ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError) as error:
        where = address or "this machine"
        raise EngineUnavailableError(f"could not start or reach Ray on {where}: {error}") from error
    return ray


@contextmanager
def engine_executor(engine: str, *, address: str | None = None, n_jobs: int | None = None) -> Iterator[Executor | None]:
    """The executor for ``--engine``: ``None`` for ``local``; a :class:`RayExecutor` for ``ray``.

    A Ray started here is shut down on leaving; one joined by ``address`` is only disconnected from.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if engine == "local":
        if address is not None:
            raise ValueError("--address is for --engine ray; the local engine runs on this machine")
        yield None
        return
    ray = _import_ray()
    started_here = not ray.is_initialized()
    start_ray(address, n_jobs)
    executor = RayExecutor(ray)
    try:
        yield executor
    finally:
        executor.shutdown(cancel_futures=True)
        if started_here:
            ray.shutdown()


__all__ = ["ENGINES", "EngineUnavailableError", "RayExecutor", "engine_executor", "start_ray"]
