"""SVRG optimization (``mx.contrib.svrg_optimization``): SVRGModule, a Module trained with
stochastic variance-reduced gradients, and the optimizer it installs."""
from . import svrg_module
from . import svrg_optimizer
