"""``mx.contrib.symbol``: the ``mx.sym.contrib`` operators."""
from ..symbol.contrib import *  # noqa: F401,F403
