"""tools/nbk-numpy: the NumPy peer of the programs (reference.py)."""
