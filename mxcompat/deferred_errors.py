"""Kernel-time errors reported when the program reads the result, as MXNet's engine does.

In MXNet an operator's checks on values (a sampler's ``scale < 0``, ``take(mode='raise')`` with
an index out of range) run in the kernel, asynchronously: the call returns, the error is stored
on the outputs' engine variables, every operator that reads a failed variable passes the same
error on to its outputs instead of running, and the error is raised when the program waits for
a value (``asnumpy``, ``asscalar``, ``wait_to_read``, conversion to a Python value) or calls
``mx.nd.waitall()``. Raising clears it: for every array sharing that error after a read, for
all errors after ``waitall``.

An operator reports such an error with :func:`raise_at_read`. Its outputs become
:class:`PendingErrorTensor`, whose ``__torch_function__`` passes the error (one shared cell)
on to the results of every torch call that reads them, views and in-place writes included,
and raises it where a value leaves torch. Arrays without an error are plain tensors: the
normal path checks nothing.
"""
import torch

__all__ = ['raise_at_read', 'Resource', 'PARALLEL_RANDOM', 'RANDOM', 'rethrow', 'waitall',
           'any_true', 'carry', 'fail_gradients', 'PendingErrorTensor']


class _Pending:
    """The error shared by every tensor that an operator's failure reached (MXNet's
    ExceptionRef); ``error`` is None once raised."""
    __slots__ = ('error',)

    def __init__(self, error):
        self.error = error


# every error stored since the last waitall (MXNet's global exception refs)
_PENDING = []

_T = torch.Tensor
# torch calls that hand values over to numpy or Python: MXNet waits for the array there
_READS = frozenset([_T.numpy, _T.item, _T.tolist, _T.__bool__, _T.__float__, _T.__int__,
                    _T.__index__, _T.__complex__, _T.__array__, _T.__dlpack__])


def _raise(pending):
    error, pending.error = pending.error, None
    raise error


def _pending_of(args):
    """The first error pending on a tensor in ``args`` (one level of lists, as torch.cat's)."""
    for a in args:
        if type(a) is PendingErrorTensor:
            pending = a._mx_pending
            if pending.error is not None:
                return pending
            a.__class__ = _T  # raised already: a plain tensor again
        elif isinstance(a, (list, tuple)):
            pending = _pending_of(a)
            if pending is not None:
                return pending
    return None


def _mark(out, pending):
    """Make the tensors in ``out`` carry ``pending`` (in place: a destination written by an
    in-place call fails too, as MXNet's written variable does)."""
    if type(out) is _T or type(out) is PendingErrorTensor:
        out.__class__ = PendingErrorTensor
        out._mx_pending = pending
    elif isinstance(out, (list, tuple)):
        for o in out:
            _mark(o, pending)
    return out


class PendingErrorTensor(torch.Tensor):
    """A tensor whose value an operator failed to compute: torch calls on it give tensors that
    carry the same error; reading its values raises the error."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        pending = _pending_of(args)
        if pending is None and kwargs:
            pending = _pending_of(kwargs.values())
        if pending is not None and func in _READS:
            _raise(pending)
        with torch._C.DisableTorchFunctionSubclass():
            out = func(*args, **(kwargs or {}))
        if pending is None:
            return out
        if func is _T.__setitem__:  # the written tensor fails, as MXNet's written variable
            _mark(args[0], pending)
        return _mark(out, pending)


def _fail(error, outputs):
    first = outputs[0] if type(outputs) is tuple else outputs
    if first.device.type == 'meta':  # shape inference: MXNet runs no kernel there
        return None
    _PENDING[:] = [p for p in _PENDING if p.error is not None]
    pending = _Pending(error)
    _PENDING.append(pending)
    _mark(outputs, pending)
    return pending


def raise_at_read(error, *outputs):
    """Report an operator's kernel-time ``error`` the way MXNet's engine does: it is raised
    when one of ``outputs`` (or an array computed from them) is read, or at ``waitall``.

    Parameters
    ----------
    error : Exception
        The error to raise (MXNetError, or the type MXNet raises).
    outputs : torch.Tensor
        The operator's outputs, of their proper shapes and types (their values are undefined).

    Returns
    -------
    torch.Tensor or tuple of torch.Tensor
        ``outputs``, failed.
    """
    _fail(error, outputs)
    return outputs[0] if len(outputs) == 1 else outputs


class Resource:
    """An engine resource that operators hold while they run (MXNet's random number
    generators): once an operator holding it fails, every later operator holding it fails
    with the same error (MXNet skips them), until that error is raised."""
    __slots__ = ('pending',)

    def __init__(self):
        self.pending = None

    def hold(self, out, error=None):
        """The result ``out`` of an operator that held this resource, failed with ``error``
        (None: no error of its own; an input may still have failed)."""
        first = out[0] if type(out) is tuple else out
        if type(first) is PendingErrorTensor and first._mx_pending.error is not None:
            self.pending = first._mx_pending  # an input failed: its error, as MXNet's
        elif self.pending is not None and self.pending.error is not None:
            _mark(out, self.pending)
        elif error is not None:
            self.pending = _fail(error, out)
        return out


# MXNet's random generators: ResourceRequest::kParallelRandom (the samplers of mx.nd and
# Dropout) and kRandom (mx.np's samplers)
PARALLEL_RANDOM = Resource()
RANDOM = Resource()


def any_true(mask):
    """Whether the boolean tensor ``mask`` holds a True: an operator's check of its inputs'
    values. False where ``mask`` comes from a failed input: MXNet skips the operator, whose
    outputs carry the input's error instead."""
    if type(mask) is PendingErrorTensor and mask._mx_pending.error is not None:
        return False
    return bool(mask.any())


def rethrow(t):
    """Raise the error pending on tensor ``t``, if any (``NDArray.wait_to_read``)."""
    if type(t) is PendingErrorTensor and t._mx_pending.error is not None:
        _raise(t._mx_pending)


def waitall():
    """Raise the first error stored since the last ``waitall``, clearing all of them."""
    first = None
    for pending in _PENDING:
        if first is None:
            first = pending.error
        pending.error = None
    _PENDING.clear()
    if first is not None:
        raise first


def carry(dest, source):
    """``dest`` written from ``source`` through an alias (``x[:] = y``, ``out=``): ``dest``
    carries the error pending on ``source``, if any."""
    if type(source) is PendingErrorTensor and source._mx_pending.error is not None:
        _mark(dest, source._mx_pending)


def fail_gradients(heads, head_grads, grads=None):
    """After a backward pass from ``heads``: when a head or a head gradient carries an error,
    the gradients that the pass computed carry it too (MXNet's backward operators read the
    failed variables): ``grads`` where given (``autograd.grad``), else those it wrote."""
    if not _PENDING:  # (it holds every error not yet raised)
        return
    pending = _pending_of(heads) or _pending_of(head_grads)
    if pending is None:
        return
    if grads is not None:
        _mark(grads, pending)
        return
    seen = set()
    nodes = [h.grad_fn for h in heads]
    while nodes:
        node = nodes.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        leaf = getattr(node, 'variable', None)  # an AccumulateGrad node
        if leaf is not None and leaf.grad is not None:
            _mark(leaf.grad, pending)
        nodes.extend(n for n, _ in node.next_functions)
