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
