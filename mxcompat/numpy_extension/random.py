"""``mx.npx.random``: the NumPy extension's random functions."""
from .. import random as _random

__all__ = ['seed']


def seed(seed, ctx='all'):  # pylint: disable=redefined-outer-name
    """``mx.random.seed`` under the NumPy extension's argument name ``seed``."""
    _random.seed(seed_state=seed, ctx=ctx)
