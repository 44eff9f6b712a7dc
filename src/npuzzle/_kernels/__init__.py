"""Numba kernels: the only package that imports numba.

Conventions shared by every kernel (see STYLE.md):

* A position is a 1-D ``np.int8``/``np.uint8`` array ``state`` of length ``n_cells = width * height``,
  in *canonical* form: ``state[cell]`` is the goal cell (home) of the tile standing in ``cell``.
  The goal is therefore ``np.arange(n_cells)``, and the blank is the value ``blank_home`` (the goal's
  blank cell), passed explicitly. ``cell = row * width + col``.
* Moves returned by kernels are *cells the blank moves to* (equivalently, the cell of the tile that slides),
  recorded before the move; wrappers map them back to user labels.
* Kernels are pure module-level functions over arrays and scalars; they never import from the rest of
  npuzzle, and npuzzle's top-level import never imports this package.
"""

import sys as _sys


def _load_numba_without_blas() -> None:
    """Import numba's array maths with SciPy's BLAS hidden, once, before any kernel runs.

    numba's first compile or cache load imports ``numba.np.arraymath``, which probes for BLAS by importing
    ``scipy.linalg`` (about 0.2 s of CPU: a fifth of a later 4x4 solve's start-up). No kernel calls
    ``np.dot`` or ``np.linalg``, so the probe is answered "absent" (numba then never reaches for BLAS) and
    SciPy stays importable for the modules that use it (``render.vision``).
    """
    blas = "scipy.linalg.cython_blas"
    if "numba.np.arraymath" in _sys.modules or blas in _sys.modules:
        return
    _sys.modules[blas] = None  # type: ignore[assignment]  # import of it raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if blas in _sys.modules and _sys.modules[blas] is None:
            del _sys.modules[blas]


_load_numba_without_blas()
