"""The documented differences between mxcompat and MXNet 1.9.1, by design.

These APIs are supported, but a program that uses them does not reproduce MXNet's results
exactly. ``DIFFERENCES`` maps an mxcompat module or object (dotted path; a module covers
everything in it) to the difference; ``of_operator`` says which entries of the operator table
carry one. The README's "Known differences" section describes the same list, and
``mxcompat scan`` reports each use of these APIs as supported with a documented difference.
"""

RANDOM = ("random numbers come from torch's generators: mx.random.seed(n) makes runs "
          "repeatable, but the values differ from the ones MXNet draws with the same seed "
          "(the distributions are the same)")
SYNC = ("execution is synchronous, as in eager PyTorch: waiting synchronises CUDA streams "
        "and raises operators' kernel-time errors, as MXNet's engine does")

SPARSE = ("sparse arrays keep their values densely: data/indices/indptr are those of the "
          "non-zero values, operators on them return dense arrays, gradients are dense")

DIFFERENCES = {
    'mxcompat.ndarray.sparse': SPARSE,
    'mxcompat.random': RANDOM,
    'mxcompat.ndarray.random': RANDOM,
    'mxcompat.symbol.random': RANDOM,
    'mxcompat.initializer.Uniform': RANDOM,
    'mxcompat.initializer.Normal': RANDOM,
    'mxcompat.initializer.Orthogonal': RANDOM,
    'mxcompat.initializer.Xavier': RANDOM,
    'mxcompat.initializer.MSRAPrelu': RANDOM,
    'mxcompat.ndarray.waitall': SYNC,
    'mxcompat.ndarray.NDArray.wait_to_read': SYNC,
}


def of_operator(op):
    """The documented difference of an operator-table entry (an ``OpDef``), or None: the
    operators that draw random numbers (those of ``ops/random_ops.py`` except the density
    functions ``_random_pdf_*``, the ``_image_random_*`` augmentations, Dropout)."""
    name = op.name
    if (op.fn.__module__ == 'mxcompat.ops.random_ops' and not name.startswith('_random_pdf_')) \
            or name.startswith('_image_random_') or name == 'Dropout':
        return RANDOM
    return None


def of_path(path):
    """The documented difference of the mxcompat object at dotted ``path`` (or of a module
    that contains it), or None."""
    while path:
        diff = DIFFERENCES.get(path)
        if diff is not None:
            return diff
        path = path.rpartition('.')[0]
    return None
