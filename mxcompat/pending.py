"""NDArrays whose values are computed later: the outputs of a deferred training step.

A deferred call (gluon/fused_step.py) returns NDArrays with no tensor yet (their ``_t`` slot is
unset) and registers them here, by ``id``, with the run that will compute them. Reading such an
array's tensor (``NDArray.__getattr__``, which Python calls only for an unset slot) computes the
run first, the ordinary way; ``autograd.backward`` on pending heads lets the run compute
forward and gradients together. A registered array stays alive in its run until the run has
computed it, so an id here never belongs to another object.
"""

PENDING = {}  # id(NDArray) -> the run that computes it


def compute(array):
    """Computes the run that ``array`` waits on, if any; returns whether there was one."""
    run = PENDING.get(id(array))
    if run is None:
        return False
    run.force()
    return True


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
