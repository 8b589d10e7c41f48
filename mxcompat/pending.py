"""NDArrays whose values are computed later: the outputs of a deferred training step.

A deferred call (gluon/fused_step.py) returns :class:`PendingNDArray` objects, NDArrays with no
tensor yet (their ``_t`` slot is unset), and registers them here, by ``id``, with the run that
will compute them. Reading such an array's tensor computes the run first, the ordinary way;
``autograd.backward`` on pending heads lets the run compute forward and gradients together.
A computed array becomes a plain NDArray (``__class__`` changes: the layouts are one), so
arrays never pending pay nothing, and fast paths that test ``type(x) is NDArray`` leave
pending ones to the general path. A registered array stays alive in its run until the run
has computed it, so an id here never belongs to another object.
"""
from .ndarray.ndarray import NDArray

PENDING = {}  # id(PendingNDArray) -> the run that computes it


class PendingNDArray(NDArray):
    """An NDArray that a deferred call has not computed yet."""
    __slots__ = ()

    def __getattr__(self, name):
        # only for an unset slot
        if name == '_t':
            run = PENDING.get(id(self))
            if run is not None:
                run.force()
                return self._t
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))


def settle():
    """Computes every pending run (before parameters change: a deferred forward reads the
    values the parameters had at its call)."""
    while PENDING:
        next(iter(PENDING.values())).force()


def backward(heads, head_grads, retain_graph):
    """``autograd.backward`` on pending ``heads``: whether one run that computes them all took
    the pass (forward and gradients at once). Otherwise the heads are read, which computes
    their runs, and the ordinary backward pass follows."""
    if retain_graph:
        return False
    if not isinstance(heads, (list, tuple)):
        heads = [heads]
        if head_grads is not None and not isinstance(head_grads, (list, tuple)):
            head_grads = [head_grads]
    run = PENDING.get(id(heads[0])) if heads else None
    if run is None or any(PENDING.get(id(h)) is not run for h in heads):
        return False
    return run.backward(heads, head_grads)
