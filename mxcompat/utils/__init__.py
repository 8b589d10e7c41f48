"""mxcompat's own utilities: the ``mxnet`` import alias (``alias``)."""
from .alias import install, uninstall, is_installed

__all__ = ['install', 'uninstall', 'is_installed']
