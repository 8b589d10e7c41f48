"""Utility functions of ``mx.nd``: save and load in MXNet's binary format."""
from .serialization import save, load, load_frombuffer

__all__ = ['save', 'load', 'load_frombuffer']
