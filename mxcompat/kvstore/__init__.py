"""Key-value store for data-parallel training (``mx.kv``)."""
from .kvstore import KVStore
from .base import KVStoreBase, create

__all__ = ['KVStore', 'KVStoreBase', 'create']
