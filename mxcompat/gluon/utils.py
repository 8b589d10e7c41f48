"""Utilities of Gluon (``mx.gluon.utils``)."""
import collections
import weakref

__all__ = []


# ------------------------------------------------------------------ helpers of Block/Parameter
def _indent(s_, numSpaces):
    """Indent every line of ``s_`` but the first by ``numSpaces`` spaces."""
    lines = s_.split('\n')
    if len(lines) == 1:
        return s_
    return '\n'.join([lines[0]] + [(numSpaces * ' ') + line for line in lines[1:]])


def _brief_print_list(lst, limit=7):
    """Print at most `limit` elements of list."""
    lst = list(lst)
    if len(lst) > limit:
        return _brief_print_list(lst[:limit // 2], limit) + ', ..., ' + \
            _brief_print_list(lst[-limit // 2:], limit)
    return ', '.join(["'%s'" % str(i) for i in lst])


class HookHandle(object):
    """A handle that can attach/detach a hook."""

    def __init__(self):
        self._hooks_dict_ref = None
        self._id = None

    def attach(self, hooks_dict, hook):
        assert not self._hooks_dict_ref, 'The same handle cannot be attached twice.'
        self._id = id(hook)
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = weakref.ref(hooks_dict)

    def detach(self):
        hooks_dict = self._hooks_dict_ref()
        if hooks_dict is not None and self._id in hooks_dict:
            del hooks_dict[self._id]

    def __getstate__(self):
        return (self._hooks_dict_ref(), self._id)

    def __setstate__(self, state):
        if state[0] is None:
            self._hooks_dict_ref = weakref.ref(collections.OrderedDict())
        else:
            self._hooks_dict_ref = weakref.ref(state[0])
        self._id = state[1]

    def __enter__(self):
        return self

    def __exit__(self, ptype, value, trace):
        self.detach()


def shape_is_known(shape):
    """Check whether a shape is completely known (legacy shape semantics: 0 is unknown)."""
    if shape is None:
        return False
    if len(shape) == 0:
        return False
    for dim_size in shape:
        if dim_size == 0:
            return False
        assert dim_size > 0, 'shape dimension size cannot be less than 0, while received {}' \
            .format(dim_size)
    return True


def _check_same_symbol_type(symbols):
    """The class of the symbols (mxcompat has only the classic Symbol)."""
    from ..symbol import Symbol
    return Symbol


def _check_all_np_ndarrays(out):
    """NumPy arrays (mx.np) are not supported by mxcompat: nothing to check."""
    return None
