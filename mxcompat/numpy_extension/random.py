"""``mx.npx.random``: the NumPy extension's random functions (``seed`` is ``mx.random.seed``)."""
from ..random import seed

__all__ = ['seed']
