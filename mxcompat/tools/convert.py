"""``mxcompat convert``: MXNet checkpoints to plain PyTorch artifacts.

Inputs (``INPUT...``):

* a parameter file: Gluon ``save_parameters`` (structural names such as ``features.0.weight``)
  or ``collect_params().save`` (prefixed names such as ``resnetv10_conv0_weight``), a Module
  checkpoint's ``-NNNN.params`` (``arg:``/``aux:`` keys), or any ``mx.nd.save`` file (a dict,
  or a list whose arrays are named ``0``, ``1``, ...);
* a model: ``-symbol.json`` with its ``-NNNN.params`` (in either order), or a checkpoint
  ``prefix`` with ``--epoch N``.

The output's format follows its extension (or ``--format``):

``.safetensors`` (the default: without ``-o`` the output is the parameter file's name with
this extension)
    the arrays, through the ``safetensors`` package;
``.pt`` / ``.pth``
    a torch ``state_dict`` (an ordered dict of tensors) written by ``torch.save``;
``.pt2``
    a ``torch.export`` program of the model (needs the symbol) that runs in a process importing
    only torch: ``torch.export.load(path).module()(*data)``, taking the graph's data inputs (its
    inputs without a value in the parameter file) positionally, in the order of the symbol's
    inputs, and returning a tuple of its outputs;
``.onnx``
    the same program through ``torch.onnx`` (needs the ``onnx`` package).

Names of the arrays in ``.safetensors`` and ``.pt`` outputs (``--names``):

``mxnet`` (default)
    exactly the keys of the parameter file, ``arg:``/``aux:`` prefixes included: nothing is
    lost, and a ``.pt`` state_dict keeps the file's order, so that
    ``mx.nd.save(path, {k: mx.nd.from_torch(v) for k, v in torch.load(out).items()})`` writes
    the original file again, byte for byte (safetensors stores the arrays sorted by name);
``torch``
    PyTorch's names for the same layers: ``arg:``/``aux:`` dropped, ``gamma`` -> ``weight``,
    ``beta`` -> ``bias``, ``alpha`` (PReLU) -> ``weight``, ``moving_mean``/``moving_var`` ->
    ``running_mean``/``running_var``, Gluon RNN layers' ``_unfused.0.l_cell.i2h_weight`` /
    ``l0_i2h_weight`` -> ``weight_ih_l0`` (``h2h`` -> ``hh``, ``h2r`` -> ``hr``, the reverse
    direction ``r`` gets the suffix ``_reverse``; a cell's ``i2h_weight`` -> ``weight_ih``),
    and the separator before the parameter's own name in a prefixed name becomes a dot
    (``resnetv10_conv0_weight`` -> ``resnetv10_conv0.weight``). Layouts agree between the two
    frameworks for these layers (Dense/Linear, Convolution, BatchNorm, LayerNorm, Embedding,
    PReLU, LSTM/GRU/RNN), so the dict loads into the equivalent ``torch.nn`` modules. Other
    names are kept.

``--rename REGEX=REPL`` rules (``re.sub``, repeatable) then apply in order; a literal ``=`` in
REGEX is written ``\\=``. Two arrays ending up with one name is an error. ``--dtype`` casts the
floating-point arrays (integer arrays keep their type).

A model's ``-symbol.json`` is read only for ``.pt2`` and ``.onnx`` outputs. Files are written
atomically (a hidden temporary file next to the output, renamed over it when complete): an
error, Ctrl-C or a killed process never leaves a partial output (a killed process leaves its
temporary file, which the next conversion to that output removes). For ``.safetensors`` and
``.pt`` outputs the arrays of the parameter file are memory-mapped (:func:`read_params`) and
handed to the writer as they are, so that converting reads every byte once and copies it once,
into the output, with memory for the file's pages alone; for programs the file is read whole.
"""
import collections
import os
import re
import sys

import numpy as np
import torch

from ..base import MXNetError

__all__ = ['read_params', 'load_model', 'state_dict', 'torch_name', 'convert', 'check',
           'add_arguments', 'run', 'FORMATS']

FORMATS = collections.OrderedDict([('.safetensors', 'safetensors'), ('.pt', 'pt'),
                                   ('.pth', 'pt'), ('.pt2', 'pt2'), ('.onnx', 'onnx')])
"""Output file extensions and the format each selects."""
DTYPES = {'float16': torch.float16, 'bfloat16': torch.bfloat16, 'float32': torch.float32,
          'float64': torch.float64}
PROGRESS_BYTES = 256 * 2 ** 20
"""Files at least this large get a progress bar even when stderr is not a terminal."""
_PROGRAMS = ('pt2', 'onnx')


def _progress(total, desc, quiet):
    """A tqdm bar over ``total`` bytes, or None: shown unless ``quiet``, on a terminal or for
    files of at least PROGRESS_BYTES (without tqdm installed, none)."""
    if quiet or not (total >= PROGRESS_BYTES or sys.stderr.isatty()):
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit='B', unit_scale=True, unit_divisor=1024,
                file=sys.stderr, leave=False)


def read_params(path, quiet=True, mapped=False):
    """Read an MXNet NDArray file (``.params``, ``mx.nd.save``).

    Parameters
    ----------
    path : str
        The file.
    quiet : bool, default True
        False shows a progress bar on a terminal or for large files.
    mapped : bool, default False
        Give the arrays as tensors over a private memory map of the file instead of reading
        them (``ParamsFile.arrays(mapped=True)``): for arrays that go straight to a writer,
        which then reads each page once; the file must not change while they live.

    Returns
    -------
    (list of str, or None; list of torch.Tensor)
        The keys (None for a list file) and the arrays, in file order.
    """
    from ..ndarray.serialization import ParamsFile
    with ParamsFile(path) as pf:  # checks the whole structure before reading an array
        bar = _progress(os.path.getsize(path), 'reading ' + os.path.basename(path), quiet)
        tensors = []
        for _, t in pf.arrays(mapped=mapped):
            tensors.append(t)
            if bar is not None:
                bar.update(t.numel() * t.element_size())
        if bar is not None:
            bar.close()
        return pf.keys, tensors


# ------------------------------------------------------------------------------- inputs
def load_model(inputs, epoch=None):
    """Resolve ``convert``'s inputs to ``(symbol file or None, params file)``.

    Parameters
    ----------
    inputs : list of str
        One parameter file; a ``-symbol.json`` and a ``.params`` file; or, with ``epoch``, a
        checkpoint prefix.
    epoch : int, optional
        With a prefix: the checkpoint's epoch (``prefix-symbol.json``, ``prefix-%04d.params``).
    """
    if epoch is not None:
        if len(inputs) != 1:
            raise MXNetError('--epoch takes one checkpoint prefix as INPUT, not %d inputs'
                             % len(inputs))
        return '%s-symbol.json' % inputs[0], '%s-%04d.params' % (inputs[0], epoch)
    if len(inputs) == 1:
        if inputs[0].endswith('.json'):
            raise MXNetError('%s is a symbol file: give its parameter file too (INPUT '
                             'prefix-symbol.json prefix-NNNN.params)' % inputs[0])
        return None, inputs[0]
    if len(inputs) == 2:
        symbols = [p for p in inputs if p.endswith('.json')]
        if len(symbols) == 1:
            return symbols[0], [p for p in inputs if p is not symbols[0]][0]
    raise MXNetError('INPUT must be one parameter file, a -symbol.json file and its .params '
                     'file, or a checkpoint prefix with --epoch; got %s' % ' '.join(inputs))


# ------------------------------------------------------------------------------- names
_TORCH_PARAM = {'weight': 'weight', 'bias': 'bias', 'gamma': 'weight', 'beta': 'bias',
                'alpha': 'weight', 'moving_mean': 'running_mean', 'moving_var': 'running_var',
                'running_mean': 'running_mean', 'running_var': 'running_var'}
_CONN = {'i2h': 'ih', 'h2h': 'hh', 'h2r': 'hr'}
_RNN_NAMES = (  # Gluon 1.9's save_parameters, its prefixed names, and a single cell
    re.compile(r'^(?P<pre>.*?)_unfused\.(?P<layer>\d+)\.(?:(?P<dir>[lr])_cell\.)?'
               r'(?P<conn>i2h|h2h|h2r)_(?P<kind>weight|bias)$'),
    re.compile(r'^(?:(?P<pre>.*)[._])?(?P<dir>[lr])(?P<layer>\d+)_(?P<conn>i2h|h2h|h2r)_'
               r'(?P<kind>weight|bias)$'),
    re.compile(r'^(?:(?P<pre>.*)[._])?(?P<conn>i2h|h2h|h2r)_(?P<kind>weight|bias)$'))
_PARAM_NAME = re.compile(r'^(?:(?P<pre>.*?)[._])?(?P<param>%s)$' % '|'.join(
    sorted(_TORCH_PARAM, key=len, reverse=True)))


def _join(pre, name):
    pre = (pre or '').rstrip('._')
    return pre + '.' + name if pre else name


def torch_name(name):
    """PyTorch's name for the MXNet parameter ``name`` (see the module docstring).

    Examples
    --------
    >>> torch_name('aux:bn1_moving_var')
    'bn1.running_var'
    >>> torch_name('encoder._unfused.1.r_cell.h2h_bias')
    'encoder.bias_hh_l1_reverse'
    """
    if name.startswith(('arg:', 'aux:')):
        name = name[4:]
    for pattern in _RNN_NAMES:
        m = pattern.match(name)
        if m:
            g = m.groupdict()
            new = '%s_%s' % (g['kind'], _CONN[g['conn']])
            if g.get('layer') is not None:
                new += '_l' + g['layer']
            if g.get('dir') == 'r':
                new += '_reverse'
            return _join(g['pre'], new)
    m = _PARAM_NAME.match(name)
    if m:
        return _join(m.group('pre'), _TORCH_PARAM[m.group('param')])
    return name


def _rename_rule(rule):
    """(compiled regex, replacement) of a ``REGEX=REPL`` rule (``\\=`` is a literal '=')."""
    m = re.match(r'^((?:[^=\\]|\\.)*)=(.*)$', rule, re.S)
    if not m or not m.group(1):
        raise MXNetError('--rename %r: expected REGEX=REPL' % rule)
    try:
        return re.compile(m.group(1)), m.group(2)
    except re.error as err:
        raise MXNetError('--rename %r: bad regular expression: %s' % (rule, err)) from None


def _float_cast(t, dtype):
    return t.to(dtype) if dtype is not None and t.is_floating_point() else t


def state_dict(keys, tensors, names='mxnet', rename=(), dtype=None):
    """The arrays of a parameter file as an ordered ``{name: torch.Tensor}``.

    Parameters
    ----------
    keys : list of str, or None
        The file's keys (None: a list file, whose arrays are named '0', '1', ...).
    tensors : list of torch.Tensor
        The file's arrays.
    names : {'mxnet', 'torch'}
        Keep the file's keys, or use PyTorch's names (:func:`torch_name`).
    rename : list of str
        ``REGEX=REPL`` rules applied in order after ``names``.
    dtype : str, optional
        Cast floating-point arrays to this type ('float16', 'bfloat16', 'float32',
        'float64').
    """
    if names not in ('mxnet', 'torch'):
        raise MXNetError("names must be 'mxnet' or 'torch', not %r" % (names,))
    rules = [_rename_rule(r) for r in rename]
    cast = _dtype(dtype)
    keys = keys if keys is not None else [str(i) for i in range(len(tensors))]
    out = collections.OrderedDict()
    origin = {}
    for key, t in zip(keys, tensors):
        new = torch_name(key) if names == 'torch' else key
        for regex, repl in rules:
            try:
                new = regex.sub(repl, new)
            except (re.error, IndexError) as err:
                raise MXNetError('--rename %s=%s on %r: %s' % (regex.pattern, repl, new, err)) \
                    from None
        if new in origin:
            raise MXNetError('arrays %r and %r would both be named %r: add a --rename rule '
                             'that keeps them apart' % (origin[new], key, new))
        origin[new] = key
        out[new] = _float_cast(t, cast)
    return out


def _dtype(dtype):
    if dtype is None:
        return None
    if dtype not in DTYPES:
        raise MXNetError('--dtype %s: expected one of %s' % (dtype, ', '.join(DTYPES)))
    return DTYPES[dtype]


# ------------------------------------------------------------------------------- outputs
def _write_safetensors(tensors, path):
    try:
        from safetensors.torch import save_file
    except ImportError:
        raise MXNetError('writing %s needs the safetensors package: pip install '
                         '"mxcompat[convert]"' % path) from None
    from ..utils import fileio
    fd, tmp = fileio.open_aside(path)
    try:
        mode = os.fstat(fd).st_mode
        os.close(fd)
        save_file(tensors, tmp, metadata={'format': 'pt'})
        os.chmod(tmp, mode)  # safetensors recreates the file with mode 0600
        fileio.commit(tmp, path)
    finally:
        fileio.discard(tmp)


def _write_pt(tensors, path):
    from ..utils.fileio import atomic_writer
    with atomic_writer(path) as f:
        torch.save(tensors, f)


def _program_args(symbol, params, shapes, data):
    """(data input names, {name: shape}) of the program: the symbol's inputs without a value
    in ``params``, their shapes from ``shapes``, the ``data`` arrays, the symbol's __shape__
    attributes or, for the rest (labels), shape inference."""
    names = [n for n in symbol.list_inputs() if n not in params]
    unknown = set(shapes) - set(names)
    if unknown:
        raise MXNetError('--shape %s: not a data input of the symbol (its data inputs: %s)'
                         % (', '.join(sorted(unknown)), ', '.join(names) or 'none'))
    given = dict(shapes)
    given.update({n: a.shape for n, a in zip(names, data)})
    args, _, _ = symbol.infer_shape_partial(**given)
    inferred = dict(zip(symbol.list_arguments(), args or []))
    out = {}
    for n in names:
        shape = given.get(n) or inferred.get(n)
        if not shape or 0 in shape:
            raise MXNetError('the shape of data input %r is unknown: give it as --shape '
                             '%s=N,C,... (or an input array with --check)' % (n, n))
        out[n] = tuple(shape)
    return names, out


def _symbol_params(keys, tensors, params_path, symbol, symbol_path):
    """``{name: tensor}`` of a model's parameter file, ``arg:``/``aux:`` prefixes dropped; every
    array must be an input of ``symbol``, and every input named like a parameter must have an
    array."""
    from ..visualization import _WEIGHT_SUFFIXES
    if keys is None:
        raise MXNetError('%s holds a list of unnamed arrays: a model needs named parameters'
                         % params_path)
    params = {k[4:] if k.startswith(('arg:', 'aux:')) else k: t for k, t in zip(keys, tensors)}
    inputs = symbol.list_inputs()
    extra = [k for k in params if k not in set(inputs)]
    if extra:
        raise MXNetError('%s holds arrays that are no inputs of %s (%s%s): give the .params '
                         'file saved with the symbol (HybridBlock.export or save_checkpoint), '
                         'not save_parameters\'s' % (params_path, symbol_path,
                                                     ', '.join(extra[:3]),
                                                     ', ...' if len(extra) > 3 else ''))
    missing = [n for n in inputs if n not in params and n.endswith(_WEIGHT_SUFFIXES)]
    if missing:
        raise MXNetError('%s lacks parameters of %s: %s' % (params_path, symbol_path,
                                                           ', '.join(missing)))
    return params


def convert(inputs, output=None, epoch=None, fmt=None, names='mxnet', rename=(), dtype=None,
            dynamic_batch=True, shapes=None, check_inputs=(), quiet=True):
    """Convert an MXNet checkpoint to a PyTorch artifact (see the module docstring).

    Parameters
    ----------
    inputs : list of str
        A parameter file; a ``-symbol.json`` file and its ``.params`` file; or, with
        ``epoch``, a checkpoint prefix.
    output : str, optional
        The file to write; its extension picks the format. Default: the parameter file with
        the extension ``.safetensors``.
    epoch : int, optional
        The checkpoint's epoch, with a prefix as input.
    fmt : {'safetensors', 'pt', 'pt2', 'onnx'}, optional
        The format, whatever the extension.
    names, rename, dtype
        Naming and casting of the arrays (:func:`state_dict`); ``dtype`` also casts programs.
    dynamic_batch : bool, default True
        Whether dimension 0 of a program's data inputs may vary.
    shapes : dict of str to tuple, optional
        Shapes of the data inputs to trace a program with.
    check_inputs : list of str
        ``.npy`` files for the data inputs in order (inputs left out, such as labels, are
        zeros of their inferred shape): run the model through mxcompat's Executor and the
        written program on them and report the errors (:func:`check`).
    quiet : bool, default True
        False shows progress bars.

    Returns
    -------
    (str, list of (str, float, float))
        The output file, and for each output of the model with ``check_inputs`` its name and
        largest absolute and relative errors.
    """
    symbol_file, params_file = load_model(list(inputs), epoch)
    if output is None:
        output = os.path.splitext(params_file)[0] + '.safetensors'
    fmt = fmt or FORMATS.get(os.path.splitext(output)[1].lower())
    if fmt not in FORMATS.values():
        raise MXNetError('cannot tell the format of %s from its extension: name it *%s, or '
                         'give --format' % (output, ', *'.join(FORMATS)))
    for src in (symbol_file, params_file):
        if src and os.path.exists(src) and os.path.exists(output) and \
                os.path.samefile(src, output):
            raise MXNetError('the output %s is an input file: choose another -o' % output)
    program = fmt in _PROGRAMS
    if not program and (check_inputs or shapes):
        raise MXNetError('--check and --shape apply to .pt2 and .onnx outputs, not %s'
                         % output)
    if program and symbol_file is None:
        raise MXNetError('a %s output is a program: give the model\'s -symbol.json with %s '
                         '(HybridBlock.export writes both)' % (fmt, params_file))
    if program and (names != 'mxnet' or rename):
        raise MXNetError('--names and --rename apply to .safetensors and .pt outputs; a '
                         'program\'s parameters are inside it')
    _dtype(dtype)
    if program:
        from .. import symbol as sym
        symbol = sym.load(symbol_file)
        data = [_read_npy(p) for p in check_inputs]
    # the arrays of a state dict go straight to its writer; a program's are copied into it
    keys, tensors = read_params(params_file, quiet, mapped=not program)
    if program:
        params = _symbol_params(keys, tensors, params_file, symbol, symbol_file)
        data_names, data_shapes = _program_args(symbol, params, shapes or {}, data)
        if len(data) > len(data_names):
            raise MXNetError('%d --check arrays for %d data inputs (%s)'
                             % (len(data), len(data_names), ', '.join(data_names)))
    else:
        sd = state_dict(keys, tensors, names, rename, dtype)
    del keys, tensors
    try:
        if program:
            from ..symbol import export
        if fmt == 'safetensors':
            _write_safetensors(sd, output)
        elif fmt == 'pt':
            _write_pt(sd, output)
        elif fmt == 'pt2':
            export.save_program(export.export_program(
                symbol, params, data_shapes, dynamic_batch=dynamic_batch, dtype=dtype), output)
        else:
            export.save_onnx(symbol, params, data_shapes, output, dynamic_batch=dynamic_batch,
                             dtype=dtype)
    except OSError as err:
        raise MXNetError('cannot write "%s": %s' % (output, err.strerror or err)) from None
    if not check_inputs:
        return output, []
    data += [np.zeros(data_shapes[n], np.float32) for n in data_names[len(data):]]
    return output, check(symbol, params, dict(zip(data_names, data)), output, fmt)


def _read_npy(path):
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as err:
        raise MXNetError('--check %s: not a readable .npy array: %s' % (path, err)) from None


def check(symbol, params, data, path, fmt):
    """Run ``symbol`` with ``params`` through mxcompat's Executor and the program written to
    ``path`` (``fmt`` 'pt2' or 'onnx') on ``data`` ({input name: numpy array}, in the
    program's input order).

    Returns
    -------
    list of (str, float, float)
        Each output's name, largest absolute error and largest relative error (the largest
        absolute error over the largest magnitude of mxcompat's output).
    """
    from .. import context, nd
    aux_names = set(symbol.list_auxiliary_states())
    cpu = context.cpu()  # where the program runs, whatever the default context
    args = {k: nd.array(v, ctx=cpu) for k, v in data.items()}
    args.update({k: nd.from_torch(t) for k, t in params.items() if k not in aux_names})
    aux = {k: nd.from_torch(t) for k, t in params.items() if k in aux_names}
    exe = symbol.bind(cpu, args, grad_req='null', aux_states=aux)
    want = [o.asnumpy() for o in exe.forward(is_train=False)]
    if fmt == 'pt2':
        program = torch.export.load(path).module()
        with torch.no_grad():
            got = program(*[torch.from_numpy(np.ascontiguousarray(v)) for v in data.values()])
        got = [g.float().numpy() if g.is_floating_point() else g.numpy() for g in got]
    else:
        try:
            import onnxruntime
        except ImportError:
            raise MXNetError('--check of %s needs onnxruntime: pip install "mxcompat[onnx]"'
                             % path) from None
        session = onnxruntime.InferenceSession(path, providers=['CPUExecutionProvider'])
        feeds = {i.name: v for i, v in zip(session.get_inputs(), data.values())}
        got = session.run(None, feeds)
    report = []
    for name, w, g in zip(symbol.list_outputs(), want, got):
        w = w.astype(np.float64)
        err = np.abs(np.asarray(g, np.float64) - w)
        abs_err = float(err.max()) if err.size else 0.0
        scale = float(np.abs(w).max()) if w.size else 0.0
        report.append((name, abs_err, abs_err / scale if scale else abs_err))
    return report


# ------------------------------------------------------------------------------- command
def _shape_arg(text):
    name, _, dims = text.partition('=')
    try:
        shape = tuple(int(d) for d in dims.split(','))
    except ValueError:
        shape = ()
    if not name or not shape or min(shape) < 1:
        raise MXNetError('--shape %r: expected NAME=D1,D2,... with positive sizes' % text)
    return name, shape


def _one_line(err):
    """An exception as one line of text."""
    text = str(err) if isinstance(err, MXNetError) else '%s: %s' % (type(err).__name__, err)
    return ' '.join(text.split())


def add_arguments(parser):
    """Add ``mxcompat convert``'s arguments to ``parser``."""
    parser.add_argument('inputs', nargs='+', metavar='INPUT',
                        help='a .params file; or prefix-symbol.json and prefix-NNNN.params; '
                             'or a checkpoint prefix with --epoch')
    parser.add_argument('-o', '--output', metavar='OUT',
                        help='output file: .safetensors, .pt/.pth, .pt2 or .onnx (default: '
                             'the .params file with the extension .safetensors)')
    parser.add_argument('--epoch', type=int, metavar='N',
                        help="INPUT is a checkpoint prefix; read prefix-symbol.json and "
                             "prefix-NNNN.params of epoch N")
    parser.add_argument('--format', dest='fmt', choices=sorted(set(FORMATS.values())),
                        help="the output's format, whatever OUT's extension")
    parser.add_argument('--names', choices=('mxnet', 'torch'), default='mxnet',
                        help="array names: the file's keys (default), or PyTorch's (weight, "
                             "bias, running_mean, weight_ih_l0, ...)")
    parser.add_argument('--rename', action='append', default=[], metavar='REGEX=REPL',
                        help='rename arrays with re.sub, after --names (repeatable, applied '
                             'in order)')
    parser.add_argument('--dtype', choices=sorted(DTYPES),
                        help='cast floating-point arrays (and programs) to this type')
    batch = parser.add_mutually_exclusive_group()
    batch.add_argument('--dynamic-batch', dest='dynamic_batch', action='store_true',
                       default=True, help='programs take any batch size (dimension 0 of '
                                          'every data input; the default)')
    batch.add_argument('--static-batch', dest='dynamic_batch', action='store_false',
                       help='programs take only the traced batch size')
    parser.add_argument('--shape', action='append', default=[], metavar='NAME=D1,D2,...',
                        help='shape of a data input to trace a program with (repeatable)')
    parser.add_argument('--check', action='append', default=[], metavar='INPUT.npy',
                        help='run the model through mxcompat and the written program on '
                             'these arrays (data inputs in order; inputs left out, such as '
                             'labels, are zeros) and print the largest absolute and relative '
                             'errors')
    parser.add_argument('-q', '--quiet', action='store_true', help='no progress bar')


def run(args):
    """Run ``mxcompat convert`` with parsed ``args``; returns the exit status."""
    try:
        shapes = dict(_shape_arg(s) for s in args.shape)
        out, report = convert(args.inputs, args.output, args.epoch, args.fmt, args.names,
                              args.rename, args.dtype, args.dynamic_batch, shapes, args.check,
                              args.quiet)
    except (MXNetError, OSError, NotImplementedError) as err:
        sys.stderr.write('mxcompat convert: error: %s\n' % _one_line(err))
        return 1
    except KeyboardInterrupt:
        sys.stderr.write('mxcompat convert: interrupted (nothing written)\n')
        return 130
    if not args.quiet:
        sys.stderr.write('wrote %s\n' % out)
    for name, abs_err, rel_err in report:
        print('%s: max abs error %.3g, max rel error %.3g' % (name, abs_err, rel_err))
    return 0
