"""Analysis: distance distributions (full BFS or published counts), exact-length generation, difficulty of a
board, and the generation-method simulation (mean optimal length against walk length / iterations).

Submodules load numba and matplotlib only when their functions run; importing this package is light.
"""
