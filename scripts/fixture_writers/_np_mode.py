"""Helpers of the NumPy-mode fixture writers: cases run in NumPy mode, arrays saved
atomically."""
import os

import numpy as onp


def run_cases(mx, *parts):
    """{case id: numpy array} that each ``part(mx, out)`` adds, run in NumPy mode
    (``npx.set_np()``, reset afterwards)."""
    out = {}
    mx.npx.set_np()
    try:
        for part in parts:
            part(mx, out)
    finally:
        mx.npx.reset_np()
    return out


def save_npz(outdir, name, arrays):
    """``arrays`` as ``outdir/name.npz``, written aside first and then renamed."""
    tmp = os.path.join(outdir, name + '.tmp.npz')
    onp.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, name + '.npz'))
