"""Optimizer API of MXNet (``mx.optimizer``), plus :class:`TorchOptimizer`, which runs any of
these update rules as a ``torch.optim.Optimizer``."""
from . import optimizer, contrib
from .optimizer import Optimizer, register, create, Test
from .sgd import SGD, ccSGD, NAG, Signum, LARS, LBSGD, DCASGD, SGLD
from .adaptive import Adam, AdaGrad, RMSProp, AdaDelta, Ftrl, FTML, Adamax, Nadam, LAMB
from .updater import Updater, get_updater
from .torch_optim import TorchOptimizer
from ..ndarray import abs as NDabs  # noqa: N812  (exported by MXNet's optimizer module)

__all__ = ['AdaDelta', 'AdaGrad', 'Adam', 'Adamax', 'DCASGD', 'FTML', 'Ftrl', 'LARS', 'LBSGD',
           'NAG', 'NDabs', 'Nadam', 'Optimizer', 'RMSProp', 'SGD', 'SGLD', 'Signum', 'LAMB',
           'Test', 'Updater', 'ccSGD', 'create', 'get_updater', 'register', 'contrib',
           'TorchOptimizer']
