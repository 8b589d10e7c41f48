"""Attribute scoping support for symbolic API (``mx.AttrScope``)."""
import threading
from collections import defaultdict

from .base import string_types

__all__ = ['AttrScope']


class AttrScope:
    """Attribute manager for scoping.

    User can also inherit this object to change naming behavior.

    Parameters
    ----------
    kwargs
        The attributes to set for all symbol creations in the scope.
    """
    _current = threading.local()
    # how many control-flow subgraphs of each name were made (mx.sym.contrib.foreach, ...)
    _subgraph_names = defaultdict(int)

    def __init__(self, **kwargs):
        self._old_scope = None
        for value in kwargs.values():
            if not isinstance(value, string_types):
                raise ValueError('Attributes need to be string')
        self._attr = kwargs

    def get(self, attr):
        """Get the attribute dict given the attribute set by the symbol.

        Parameters
        ----------
        attr : dict of string to string
            The attribute passed in by user during symbol creation.

        Returns
        -------
        attr : dict of string to string
            Updated attributes to add other scope related attributes.
        """
        if self._attr:
            ret = self._attr.copy()
            if attr:
                ret.update(attr)
            return ret
        return attr if attr else {}

    def __enter__(self):
        if not hasattr(AttrScope._current, 'value'):
            AttrScope._current.value = AttrScope()
        self._old_scope = AttrScope._current.value
        attr = AttrScope._current.value._attr.copy()
        attr.update(self._attr)
        self._attr = attr
        AttrScope._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        assert self._old_scope
        AttrScope._current.value = self._old_scope


def current():
    """The AttrScope in effect."""
    if not hasattr(AttrScope._current, 'value'):
        AttrScope._current.value = AttrScope()
    return AttrScope._current.value


class _CurrentDescriptor:
    def __get__(self, obj, objtype=None):
        return current()


AttrScope.current = _CurrentDescriptor()
