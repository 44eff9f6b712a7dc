"""Run Python code in a fresh interpreter with numba's compiler on or off.

With ``jit=False`` (``NUMBA_DISABLE_JIT=1``) every kernel runs as the plain Python it is written in, which is
how the tests check that compiled and interpreted kernels agree.
"""

from __future__ import annotations

import os
import subprocess
import sys


def run_python(code: str, *args: str, jit: bool = True, timeout: float = 300) -> str:
    """Standard output of ``python -c code args``; a failure raises with the child's standard error."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "0" if jit else "1"}
    # Interpreted, NumPy warns on the uint64 wrap-around that some kernels rely on (SplitMix64); not an error.
    argv = [sys.executable, "-W", "ignore::RuntimeWarning", "-c", code, *args]
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    if result.returncode != 0:
        raise AssertionError(f"the child interpreter failed (jit={jit}):\n{result.stderr}")
    return result.stdout
