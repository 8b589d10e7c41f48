"""``torch.export`` programs and ONNX files from Symbol graphs.

A Symbol graph is lowered once (symbol/lowering.py) to a ``torch.fx.GraphModule`` that calls the
operator table's implementations; :func:`export_program` wraps that module with the graph's
parameters as buffers and traces it with ``torch.export.export``. Tracing runs every
implementation on fake tensors, so the program holds only ATen operators: it loads and runs
with ``torch.export.load(path).module()(x)`` in a process that has neither MXNet nor mxcompat.
The program takes the graph's data inputs (the inputs that are not parameters) positionally
and returns the tuple of the graph's outputs; it computes in predict mode (BatchNorm with its
running statistics, Dropout off), as ``Module.predict`` and a Gluon forward outside
``autograd.record`` do.
"""
import operator
import os

import torch

from ..autograd import pause
from ..base import MXNetError, dtype_torch
from .inference import consumer_sized_params
from ..gluon.parameter import _as_tensor
from ..utils import fileio
from .lowering import Lowered, _NODE

__all__ = ['export_program', 'save_program', 'save_onnx']


class _Program(torch.nn.Module):
    """A lowered graph with its parameters as buffers; ``forward`` takes the data inputs.

    ``slots`` holds, per graph input in ``list_inputs()`` order, the position of a data input
    (int) or the name of a buffer (str)."""

    def __init__(self, graph, slots, buffers):
        super().__init__()
        self.graph = graph
        for name, tensor in buffers.items():
            self.register_buffer(name, tensor)
        self._slots = slots

    def forward(self, *data):
        return tuple(self.graph(*[data[s] if s.__class__ is int else getattr(self, s)
                                  for s in self._slots]))


def _buffer_names(names):
    """Buffer names for parameter names: the MXNet name where torch allows it, else pN."""
    out, used = {}, set()
    for k, name in enumerate(names):
        ok = name.isidentifier() and name not in used and \
            not hasattr(torch.nn.Module, name) and name not in ('graph', 'forward')
        out[name] = name if ok else 'p%d' % k
        used.add(out[name])
    return out


def _batch_sized(symbol, shapes, data_names, lead):
    """(parameters by id(node) as ``consumer_sized_params`` gives them, {id(node): {dim
    index: multiple of the batch size}}) for the operators without inputs whose shape
    inference takes from their consumers (the zero states of an RNN: MXNet's
    ``zeros(shape=(L, 0, H))``), found by inferring at two batch sizes."""
    one = consumer_sized_params(symbol, shapes)
    if not one:
        return None, {}
    two = consumer_sized_params(symbol, {n: (s[0] + 1,) + tuple(s[1:]) if n in data_names
                                          else s for n, s in shapes.items()}) or {}
    batch = shapes[lead][0]
    scaled = {}
    for key, p in one.items():
        q = two.get(key)
        if q is None or 'shape' not in p:
            continue
        dims = {i: b - a for i, (a, b) in enumerate(zip(p['shape'], q['shape']))
                if a != b and a == (b - a) * batch}
        if dims:
            scaled[key] = dims
    return one, scaled


def _size_by_batch(lowered, scaled, placeholder):
    """Rewrite the ``shape`` of the nodes in ``scaled`` (see _batch_sized) so that their
    batch-sized dims read the batch size of the data input ``placeholder`` when it runs."""
    inputs = {}  # the graphs' values of the data input
    for graph, fxn in list(lowered.calls()):
        node = fxn.meta[_NODE]
        if id(node) not in scaled:
            continue
        data = inputs.get(graph)
        if data is None:
            data = inputs[graph] = lowered.outer_value(graph, placeholder)
        with graph.inserting_before(fxn):
            size = graph.call_method('size', (data, 0))
            dims = scaled[id(node)]
            if 'shape' in fxn.kwargs:
                old = fxn.kwargs['shape']
            else:
                at = len(node.op.inputs) + list(node.op.params).index('shape')
                old = fxn.args[at]
            shape = tuple((size if dims[i] == 1 else graph.call_function(
                operator.mul, (size, dims[i]))) if i in dims else d for i, d in enumerate(old))
        if 'shape' in fxn.kwargs:
            fxn.kwargs = dict(fxn.kwargs, shape=shape)
        else:
            fxn.args = fxn.args[:at] + (shape,) + fxn.args[at + 1:]
    lowered.recompile()


def _program(symbol, params, data_names, data_shapes, dynamic_batch, dtype, data_dtypes):
    """(the _Program module, its Lowered graph, its example inputs, their dynamic shapes)
    for ``symbol``."""
    names = symbol.list_inputs()
    missing = [n for n in data_names if n not in data_shapes]
    if missing:
        raise MXNetError('export: data_shapes has no shape for the data input(s) %s; pass '
                         'data_shapes={%s}' % (', '.join(missing), ', '.join(
                             '%r: (batch, ...)' % n for n in missing)))
    extra = [n for n in data_shapes if n not in data_names]
    if extra:
        raise MXNetError('export: data_shapes names %s, which %s not data inputs of the graph '
                         '(its data inputs are %s)' % (', '.join(extra), 'is' if len(extra) == 1
                                                        else 'are', ', '.join(data_names)))
    tdtype = dtype_torch(dtype)
    buffers = {}
    for name in names:
        if name in params:
            t = _as_tensor(params[name]).clone()
            if tdtype is not None and t.is_floating_point():
                t = t.to(tdtype)
            buffers[name] = t
    shapes = {n: tuple(int(d) for d in data_shapes[n]) for n in data_names}
    if dynamic_batch:
        # torch.export specialises a size of 0 or 1: trace a batch of at least 2
        shapes = {n: (max(s[0], 2),) + s[1:] if s else s for n, s in shapes.items()}
    known = dict(shapes)
    known.update((n, tuple(t.shape)) for n, t in buffers.items())
    # the data input whose batch size the zero states of an RNN take
    lead = next((n for n in data_names if shapes[n]), None)
    if dynamic_batch and lead is not None:
        sized, scaled = _batch_sized(symbol, known, data_names, lead)
    else:
        sized, scaled = consumer_sized_params(symbol, known), {}
    lowered = Lowered(symbol, sized)
    if scaled:
        _size_by_batch(lowered, scaled, lowered.input_value(names.index(lead)))
    bnames = _buffer_names([n for n in names if n in buffers])
    position = {n: k for k, n in enumerate(data_names)}
    slots = [position[n] if n in position else bnames[n] for n in names]
    module = _Program(lowered.module, slots, {bnames[n]: buffers[n] for n in buffers})
    data_dtypes = data_dtypes or {}
    example = tuple(torch.zeros(shapes[n], dtype=tdtype or dtype_torch(data_dtypes.get(n)) or
                                torch.float32) for n in data_names)
    dynamic = None
    if dynamic_batch:
        batch = torch.export.Dim('batch', min=1)
        dynamic = (tuple({0: batch} if shapes[n] else None for n in data_names),)
    return module, lowered, example, dynamic


def export_program(symbol, params, data_shapes, dynamic_batch=True, dtype=None,
                   data_names=None, data_dtypes=None):
    """Export a Symbol graph with its parameters as a ``torch.export.ExportedProgram``.

    The program takes the graph's data inputs (its inputs that are not in ``params``)
    positionally, in ``symbol.list_inputs()`` order, and returns the tuple of the graph's
    outputs, computed in predict mode. It holds only ATen operators: save it with
    :func:`save_program` and run it where only torch is installed with
    ``torch.export.load(path).module()(x)``.

    Parameters
    ----------
    symbol : Symbol
        The graph.
    params : dict of str to NDArray, torch.Tensor or numpy.ndarray
        Arguments and auxiliary states by MXNet name (no ``arg:``/``aux:`` prefixes).
    data_shapes : dict of str to tuple of int
        The shape of every data input, used to trace the graph.
    dynamic_batch : bool, default True
        Whether dim 0 of every data input is dynamic (one ``torch.export.Dim`` for all), so the
        program accepts any batch size.
    dtype : str or numpy.dtype, optional
        Cast the floating-point parameters and the data inputs to this type.
    data_names : list of str, optional
        The order of the program's inputs, when other than ``list_inputs()``'s.
    data_dtypes : dict of str to dtype, optional
        The type of data inputs other than float32 (when ``dtype`` is not given).

    Returns
    -------
    torch.export.ExportedProgram
        The program, with the parameters in its state dict under their MXNet names.
    """
    inputs = symbol.list_inputs()
    if data_names is None:
        data_names = [n for n in inputs if n not in params]
    else:
        unknown = [n for n in inputs if n not in params and n not in data_names]
        if unknown:
            raise MXNetError('export: the graph input(s) %s are neither in params nor data '
                             'inputs; pass their values in params' % ', '.join(unknown))
    module, lowered, example, dynamic = _program(symbol, params, list(data_names), data_shapes,
                                                 dynamic_batch, dtype, data_dtypes)
    try:
        with pause(), torch.no_grad():
            return torch.export.export(module, example, dynamic_shapes=dynamic)
    except MXNetError:
        raise
    except Exception as err:
        node = lowered._failed_node(err.__traceback__)
        where = 'operator %s(name="%s")' % (node.op.name, node.name) if node is not None \
            else 'the graph'
        raise MXNetError('export: torch.export cannot trace %s: %s: %s%s' % (
            where, type(err).__name__, str(err).split('\n\n')[0],
            '; export with dynamic_batch=False for a program of fixed shapes'
            if dynamic_batch else '')) from err


def save_program(program, path):
    """Write a ``torch.export.ExportedProgram`` to ``path`` (``.pt2``) atomically: the file
    is written aside and renamed into place, so an error or a kill leaves no partial file.

    Parameters
    ----------
    program : torch.export.ExportedProgram
        The program (from :func:`export_program` or ``HybridBlock.export_program``).
    path : str
        The output file.
    """
    with fileio.atomic_writer(path) as f:
        torch.export.save(program, f)


def save_onnx(symbol, params, data_shapes, path, dynamic_batch=True, dtype=None):
    """Write a Symbol graph with its parameters as an ONNX model, through ``torch.onnx``.

    The model's inputs are the graph's data inputs, named as in the graph, and its outputs
    the graph's outputs; see :func:`export_program` for the parameters. The file is written
    atomically. Needs the ``onnx`` and ``onnxscript`` packages
    (``pip install onnx onnxscript``).

    Parameters
    ----------
    symbol : Symbol
        The graph.
    params : dict of str to NDArray, torch.Tensor or numpy.ndarray
        Arguments and auxiliary states by MXNet name.
    data_shapes : dict of str to tuple of int
        The shape of every data input.
    path : str
        The output file (``.onnx``).
    dynamic_batch : bool, default True
        Whether dim 0 of every data input is dynamic.
    dtype : str or numpy.dtype, optional
        Cast the floating-point parameters and the data inputs to this type.
    """
    try:
        import onnx  # noqa: F401  (torch.onnx's exporter needs both)
        import onnxscript  # noqa: F401
    except ImportError:
        raise MXNetError('save_onnx: ONNX output needs the onnx and onnxscript packages; '
                         'install them with `pip install onnx onnxscript`') from None
    program = export_program(symbol, params, data_shapes, dynamic_batch, dtype)
    data_names = [n for n in symbol.list_inputs() if n not in params]
    onnx_program = torch.onnx.export(program, input_names=data_names,
                                     output_names=symbol.list_outputs(), dynamo=True,
                                     verbose=False)
    fd, tmp = fileio.open_aside(path)
    os.close(fd)
    try:
        onnx_program.save(tmp)
        fileio.commit(tmp, path)
    finally:
        fileio.discard(tmp)
