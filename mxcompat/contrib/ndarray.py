"""``mx.contrib.ndarray``: the ``mx.nd.contrib`` operators."""
from ..ndarray.contrib import *  # noqa: F401,F403
