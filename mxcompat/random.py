"""Random number interface of MXNet (``mx.random``), on torch's generators."""
import numbers

import torch

from .base import MXNetError
from .context import Context, as_context
from .ndarray.random import *  # noqa: F401,F403


def seed(seed_state, ctx='all'):
    """Seeds the random number generators in MXNet.

    This affects the behavior of modules in MXNet that uses random number generators,
    like the dropout operator and `NDArray`'s random sampling operators.

    Parameters
    ----------
    seed_state : int
        The random number seed.
    ctx : Context
        The device context of the generator. The default is "all" which means seeding random
        number generators of all devices.
    """
    if not isinstance(seed_state, numbers.Integral):
        raise ValueError('seed_state must be int')
    seed_state = int(seed_state)
    if isinstance(ctx, str) and ctx == 'all':
        torch.manual_seed(seed_state)
        return
    ctx = ctx if isinstance(ctx, Context) else as_context(ctx)
    if ctx.device_typeid == 2:
        if not torch.cuda.is_available():
            raise MXNetError('seed: %s is not available' % ctx)
        with torch.cuda.device(ctx.device_id):
            torch.cuda.manual_seed(seed_state)
    else:
        torch.default_generator.manual_seed(seed_state)
