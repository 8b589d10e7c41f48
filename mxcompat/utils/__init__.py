"""mxcompat's own utilities: the ``mxnet`` import alias (``alias``); MXNet 1.9.1's API surface
and the NotImplementedError for the parts mxcompat lacks (``mxnet_api``)."""
from .alias import install, uninstall, is_installed

__all__ = ['install', 'uninstall', 'is_installed']
