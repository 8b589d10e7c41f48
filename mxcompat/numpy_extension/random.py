"""``mx.npx.random``: the NumPy extension's random functions."""
from ..util import set_module

__all__ = ['seed']


@set_module('mxnet.numpy_extension.random')
def seed(seed, ctx='all'):  # pylint: disable=redefined-outer-name
    """Seeds the random number generators in MXNet (``mx.random.seed``).

    Parameters
    ----------
    seed : int
        The random number seed.
    ctx : Context
        The device context of the generator. The default is "all" which means seeding random
        number generators of all devices.
    """
    from .. import random
    random.seed(seed, ctx)
