"""Generate the ``mx.nd`` functions from the operator table.

Each operator becomes a Python function with MXNet's signature (inputs, then parameters, then
``out`` and ``name``), written out as source and compiled once, so that a call costs one Python
frame plus the torch call: inputs are unwrapped with ``x._t`` inside a zero-cost ``try``, and
parameters are only converted when their kind needs it.
"""
import collections
import keyword

import torch

from ..base import MXNetError, REQUIRED, DTYPE_NAMES, to_float, to_shape
from ..context import Context, current_context, operator_error
from ..autograd_history import ACTIVE, note
from ..ops import registry
from .ndarray import NDArray, _assign

__all__ = ['make_function', 'namespace_of', 'UFunc']

_CREATION_PARAMS = ('ctx',)
# the floating-point types: the generated functions test ``t.dtype in _FLOATING``, which costs
# less than ``t.is_floating_point()``
_FLOATING = frozenset(d for d in vars(torch).values()
                      if isinstance(d, torch.dtype) and d.is_floating_point)


def _bad_input(opname, argname, value):
    if value is None:
        raise MXNetError('Operator %s: required input %s is missing' % (opname, argname))
    if isinstance(value, torch.Tensor):
        return value
    raise MXNetError('Operator %s: argument %s must be an NDArray, got %s; wrap data with '
                     'mx.nd.array()' % (opname, argname, type(value).__name__))


def _in_opt(opname, argname, value):
    if value is None:
        return None
    try:
        return value._t
    except AttributeError:
        return _bad_input(opname, argname, value)


def _bad_param(op, pname, value, err):
    if value is REQUIRED:
        kind = op.params[pname][0]
        return MXNetError('Required parameter %s of %s is not presented, in operator '
                          '%s(name="")' % (pname, kind.name, op.name))
    return MXNetError('Invalid parameter %s=%r for operator %s: %s' % (pname, value, op.name, err))


def _bad_kwargs(op, kwargs):
    name = next(iter(kwargs))
    return registry.unknown_argument(op, name)


def _write_out(out, res):
    """Write results into the arrays given as ``out=`` and return them."""
    if isinstance(res, (tuple, list)):
        outs = out if isinstance(out, (list, tuple)) else [out]
        for o, r in zip(outs, res):
            _assign(o, r)
        return out
    _assign(out, res)
    return out


def _wrap_multi(res, nvis, ctx=None, cls=NDArray):
    outs = []
    for r in res[:nvis]:
        o = cls.__new__(cls)
        o._t = r
        o._ctx = ctx
        outs.append(o)
    return outs[0] if nvis == 1 else outs


def _result_context(ctx):
    """The Context of an array created on ``ctx`` where that is no Context: the current one for
    None (or ''), else None (the tensor's device tells it)."""
    return current_context() if ctx is None or ctx == '' else None


def _safe(name):
    return name + '_' if keyword.iskeyword(name) else name


# a Python int where the kind's converter makes a float or a shape of it: converted inline
_INT_INLINE = {to_float: 'float(%(p)s)', to_shape: '(%(p)s,)'}


class UFunc(collections.namedtuple('UFunc', 'on_other check_kwargs check_out inputs scalar',
                                   defaults=(None,))):
    """What makes a generated function a NumPy ufunc (``mx.np.exp``, ``mx.np.add``):
    ``on_other(*inputs, out)`` gives the result where an input is no array (NumPy's for a
    number, the scalar operator's for an array and a number), or NotImplemented for MXNet's
    error; ``check_kwargs(name, kwargs)`` checks NumPy's keyword arguments (``where``,
    ``casting``, ...), which the operator ignores; ``check_out(name, out)``, where not None,
    checks an array given as ``out=``; ``inputs`` are the ufunc's names of the inputs;
    ``scalar``, for a ufunc of two inputs, the table entry of an array and a Python number
    (``_npi_add_scalar``, parameters ``scalar`` and ``is_int``), which the function calls
    itself for an array and a float or an int (the other cases go to ``on_other``)."""
    __slots__ = ()


def make_function(op, func_name, array_cls=NDArray, module='mxcompat.ndarray', ufunc=None,
                  sequence=None, signature=None, doc=None):
    """Build the mx.nd function for ``op`` under the name ``func_name``; its results are
    ``array_cls`` arrays (``mx.np.ndarray`` for the NumPy front end).

    ``ufunc`` (a :class:`UFunc`) makes the function a NumPy ufunc over an operator without
    parameters. ``sequence``, for a variadic operator, names the first argument, which takes
    the inputs as one sequence (NumPy's ``concatenate(seq, axis=0, out=None)``) rather than one
    by one; the count of inputs is then no argument, and the function takes no ``name`` and no
    ``**kwargs`` (Python's TypeError for another argument, as MXNet's NumPy functions).

    ``signature``, for an operator with fixed inputs, gives the function a Python signature of
    its own (NumPy's ``sum(a, axis=None, dtype=None, out=None, keepdims=False)``): the names of
    the inputs, parameters and ``out`` in their order, ``'public=entry'`` where the function's
    name differs from the entry's (``'a=data'``); parameters left out keep the entry's
    defaults; inputs and required parameters are required arguments. Such a function takes no
    other argument (no ``name``, no ``**kwargs``: Python's TypeError for any other or a
    missing one, as MXNet's NumPy functions). ``doc`` is the function's docstring
    (default: the operator's).
    """
    g = {'_fn': op.fn, '_op': op, '_REQ': REQUIRED, '_bad_input': _bad_input,
         '_in_opt': _in_opt, '_operator_error': operator_error, '_bad_param': _bad_param, '_bad_kwargs': _bad_kwargs,
         '_write_out': _write_out, '_wrap_multi': _wrap_multi, 'MXNetError': MXNetError,
         '_NDArray': array_cls, '_new': NDArray.__new__, '_cls': array_cls,
         '_DTYPE_NAMES': DTYPE_NAMES, '_ACTIVE': ACTIVE, '_note': note,
         '_FLOATING': _FLOATING}
    sig, body = [], []
    call_args = []
    call_params = []  # (parameter name, local holding its value)
    inputs = op.inputs
    local = _signature_locals(op, signature)
    if ufunc is not None:
        if op.params or op.variadic or len(ufunc.inputs) != len(op.inputs):
            raise ValueError('%s: a ufunc front end needs an operator without parameters '
                             'and with %d inputs' % (op.name, len(ufunc.inputs)))
        inputs = ufunc.inputs
        g['_on_other'], g['_check_kwargs'], g['_check_out'] = ufunc[:3]
        body.append('    if kwargs: _check_kwargs(%r, kwargs)' % func_name)
        if ufunc.check_out is not None:
            body.append('    if out is not None: _check_out(%r, out)' % func_name)
    if op.params and signature is None and sequence is None:
        # MXNet ignores keyword arguments of operators that take no parameters; as MXNet's
        # parser, an unknown argument is reported before a missing input
        body.append('    if kwargs:')
        body.append('        kwargs.pop("attr", None)')
        body.append('        if kwargs: raise _bad_kwargs(_op, kwargs)')
    if op.variadic:
        vname = sequence or _safe(op.inputs[0][1:])
        sig.append(vname if sequence else '*' + vname)
        # up to two inputs are passed one by one: a call with *args and keywords costs more
        # (the call below picks its form by _n; -1: the tensors _in_opt gave, in _ts)
        body.append('    try:')
        body.append('        _n = len(%s)' % vname)
        body.append('        if _n == 2: _a0 = %s[0]._t; _a1 = %s[1]._t' % (vname, vname))
        body.append('        elif _n == 1: _a0 = %s[0]._t' % vname)
        body.append('        elif _n: _ts = [_x._t for _x in %s]' % vname)
        body.append('        _cx = %s[0]._ctx if _n else None' % vname)
        body.append('    except %s:' % ('(AttributeError, TypeError)' if sequence else 'AttributeError'))
        # (a sequence without len(), a generator: its items one by one)
        body.append('        _ts = [_in_opt(%r, %r, _x) for _x in %s]' % (op.name, vname, vname))
        body.append('        _n = -1')
        body.append('        _cx = None')
    else:
        names = [local(n) for n in inputs]
        for n in names:  # (required with a signature or in a ufunc, as in NumPy's)
            sig.append(n if signature or ufunc is not None else '%s=None' % n)
        if names:
            first = names[0]
            if ufunc is not None and ufunc.scalar is not None:
                # an array and a float or an int: the scalar entry's implementation, as its
                # generated function calls it (the namespace joins the entry's callers); tested
                # first, as the AttributeError of the number's ._t would cost more than the test
                g['_scalar'] = {'_fn': ufunc.scalar.fn}
                g['_scalar_op'] = ufunc.scalar
                ufunc.scalar.callers.append(g['_scalar'])
                body.append('    _tp = type(%s)' % names[1])
                body.append('    if (_tp is float or _tp is int) and type(%s) is _cls:' % first)
                scalar_call = ("_scalar['_fn'](%s._t, %s if _tp is float else float(%s), "
                               '_tp is int)' % (first, names[1], names[1]))
                if ufunc.scalar.kernel is None:
                    body.append('        _r = ' + scalar_call)
                else:  # a floating-point array: the kernel itself (see register's ``kernel``)
                    g['_scalar']['_k'] = ufunc.scalar.kernel
                    body.append('        _r = %s._t' % first)
                    body.append('        if _r.dtype in _FLOATING:')
                    body.append('            try:')
                    body.append("                _r = _scalar['_k'](_r, %s)" % names[1])
                    body.append('            except (RuntimeError, OverflowError):')
                    body.append('                _r = ' + scalar_call)
                    body.append('        else:')
                    body.append('            _r = ' + scalar_call)
                body.append('        if out is not None: return _write_out(out, _r)')
                body.append('        _o = _new(_NDArray)')
                body.append('        _o._t = _r')
                body.append('        _o._ctx = %s._ctx' % first)
                body.append("        if _ACTIVE[0]: _note((_o,), _scalar_op, (('scalar', "
                            'float(%s), None),), (%s,))' % (names[1], first))
                body.append('        return _o')
            body.append('    try:')
            body.append('        _a0 = %s._t' % first)
            body.append('        _cx = %s._ctx' % first)
            for i, n in enumerate(names[1:], 1):  # (a ufunc's inputs are all required)
                body.append('        _a%d = %s._t%s' % (
                    i, n, '' if ufunc is not None else ' if %s is not None else None' % n))
            body.append('    except AttributeError:')
            if ufunc is not None:
                body.append('        _u = _on_other(%s, out)' % ', '.join(names))
                body.append('        if _u is not NotImplemented: return _u')
            body.append('        _a0 = _bad_input(%r, %r, %s) if %s is None else _in_opt(%r, %r, %s)'
                        % (op.name, op.inputs[0], first, first, op.name, op.inputs[0], first))
            for i, n in enumerate(names[1:], 1):
                body.append('        _a%d = _in_opt(%r, %r, %s)' % (i, op.name, op.inputs[i], n))
            body.append('        _cx = None')
            call_args.extend('_a%d' % i for i in range(len(names)))
    conv_lines = []
    for pname, (kind, default) in op.params.items():
        p = local(pname)
        if p is None:  # not in the signature: the entry's default
            g['_d_' + pname] = default
            call_params.append((pname, '_d_' + pname))
            continue
        if op.variadic and pname == (op.key_var_num_args or 'num_args'):
            if not sequence:
                sig.append('%s=None' % p)
            conv_lines.append('        %s = %s' % (p, '_n if _n >= 0 else len(_ts)' if sequence
                                                    else 'len(%s)' % _safe(op.inputs[0][1:])))
            call_params.append((pname, p))
            continue
        dname = '_d_' + p
        g[dname] = default
        g['_c_' + p] = kind.convert
        if default is REQUIRED and signature is not None:
            sig.append(p)  # (a required argument of the signature: Python's TypeError)
        else:
            sig.append('%s=%s' % (p, dname))
            if default is REQUIRED:
                conv_lines.append('        if %s is _REQ: raise _bad_param(_op, %r, _REQ, '
                                  'None)' % (p, pname))
        if kind is not registry.Any:
            # values the converter would give back unchanged skip it (Kind.native)
            skip = ' and not (%s)' % (kind.native % {'p': p}) if kind.native else ''
            # (_pn, _pv: the parameter being converted, for the error message)
            conv = '_c_%s(%s)' % (p, p)
            inner = kind if kind.base is None else kind.base
            if kind.base is not None:  # no frame of Opt's wrapper for a value that is not
                g['_cb_' + p] = inner.convert  # None or a string (one that may spell None)
                conv = '(_cb_%s(%s) if %stype(%s) is not str else %s)' % (
                    p, p, '' if default is None else '%s is not None and ' % p, p, conv)
            if inner.convert in _INT_INLINE:
                conv = '(%s if type(%s) is int else %s)' % (
                    _INT_INLINE[inner.convert] % {'p': p}, p, conv)
            convert = '_pn = %r; _pv = %s; %s = %s' % (pname, p, p, conv)
            if default is None:
                conv_lines.append('        if %s is not None%s: %s' % (p, skip, convert))
            else:
                conv_lines.append('        if %s is not %s%s: %s' % (p, dname, skip, convert))
        call_params.append((pname, p))
    # (a ufunc's ``name=`` is one of its keyword arguments: MXNet's TypeError)
    sig += ['out=None'] if sequence else ['out=None', '**kwargs'] if ufunc is not None \
        else ['out=None', 'name=None', '**kwargs']
    if signature is not None:
        sig = _signature_of(signature, sig)
    if conv_lines:
        body.append('    try:')
        body.extend(conv_lines)
        body.append('    except (ValueError, TypeError) as _e:')
        body.append('        raise _bad_param(_op, _pn, _pv, str(_e)) from None')
    positional = op.takes_positionally()
    call_args += [p if positional else '%s=%s' % (pname, p) for pname, p in call_params]
    if op.writes_out:
        call_args.append('out_tensor=out._t if type(out) is _NDArray else None')
    body.append('    try:')
    # a kernel gives a tensor: the test for the entry's 1-tuple is made after the entry's calls
    unwrap = op.kernel is not None and op.num_outputs == 1 and op.num_visible_outputs in (None, 1)
    tuple_test = 'if type(_r) is tuple: _r = _r[0]'
    if op.variadic:
        indent = '        '
        if op.kernel is not None:
            # two inputs of one dtype: the kernel itself (see register's ``kernel``)
            g['_k'] = op.kernel
            count = op.key_var_num_args or 'num_args'
            body.append('        if _n == 2 and _a0.dtype is _a1.dtype:')
            body.append('            try:')
            # (the axis left out where it is 0, torch's default: torch's parser takes
            # ~0.07 us to read a given one)
            axis, = [p for pname, p in call_params if pname != count]
            body.append('                _r = _k((_a0, _a1)) if %s == 0 else _k((_a0, _a1), %s)'
                        % (axis, axis))
            body.append('            except (RuntimeError, IndexError, ValueError, TypeError):')
            body.append('                _r = _fn(%s)' % ', '.join(['_a0, _a1'] + call_args))
            if unwrap:
                body.append('                ' + tuple_test)
            body.append('        else:')
            indent = '            '
        for n, args in ((2, '_a0, _a1'), (1, '_a0'), (0, '')):
            body.append('%s%s _n == %d: _r = _fn(%s)' % (
                indent, 'if' if n == 2 else 'elif', n,
                ', '.join(([args] if args else []) + call_args)))
        body.append('%selse: _r = _fn(%s)' % (indent, ', '.join(['*_ts'] + call_args)))
        if unwrap:
            body.append(indent + tuple_test)
        tensors = '((_a0, _a1) if _n == 2 else (_a0,) if _n == 1 else () if _n == 0 else _ts)'
    elif op.kernel is not None and len(call_args) == 2:
        # inputs of one dtype: the kernel itself (see register's ``kernel``)
        g['_k'] = op.kernel
        body.append('        if _a0.dtype is _a1.dtype:')
        body.append('            try:')
        body.append('                _r = _k(_a0, _a1)')
        body.append('            except RuntimeError:')
        body.append('                _r = _fn(_a0, _a1)')
        if unwrap:
            body.append('                ' + tuple_test)
        body.append('        else:')
        body.append('            _r = _fn(_a0, _a1)')
        if unwrap:
            body.append('            ' + tuple_test)
        tensors = '(_a0, _a1)'
    elif op.kernel is not None and len(call_args) == 1:
        # floating-point input, or input that needs no gradient: the kernel itself (see
        # register's ``kernel``)
        g['_k'] = op.kernel
        body.append('        if %s:' % (
            '_a0.dtype in _FLOATING' if op.kernel_if == 'float' else 'not _a0.requires_grad'))
        body.append('            _r = _k(_a0)')
        body.append('        else:')
        body.append('            _r = _fn(_a0)')
        if unwrap:
            body.append('            ' + tuple_test)
        tensors = '(_a0,)'
    else:
        body.append('        _r = _fn(%s)' % ', '.join(call_args))
        tensors = '(%s,)' % ', '.join('_a%d' % i for i in range(len(op.inputs))) \
            if op.inputs else '()'
    body.append('    except RuntimeError as _e:')
    body.append('        raise _operator_error(%r, %s, _e)' % (op.name, tensors))
    if signature is None or 'out' in signature:
        body.append('    if out is not None: return _write_out(out, _r)')
    nout = op.num_outputs
    nvis = op.num_visible_outputs
    # outputs report the first input's Context (cpu(1) lives in host memory as cpu(0) does);
    # an operator that creates its output on ``ctx`` (without inputs), that Context
    cx = '_cx' if op.inputs else 'None'
    created = local('ctx') if 'ctx' in op.params else None
    if created is not None:
        g['_Context'], g['_result_context'] = Context, _result_context
        on_ctx = '(%s if type(%s) is _Context else _result_context(%s))' % ((created,) * 3)
        cx = on_ctx if not op.inputs else '(_cx if _n else %s)' % on_ctx if op.variadic \
            else cx
    # autograd.get_symbol's history, while some thread records
    recorded = vname if op.variadic else '(%s)' % ''.join('%s, ' % n for n in names)
    passed = ''.join('(%r, %s, %s), ' % (pname, p, '_d_' + p if '_d_' + p in g else 'None')
                    for pname, p in call_params if not p.startswith('_d_'))
    note_call = '_note(%%s, _op, (%s), %s)' % (passed, recorded)
    if nout == 1 and nvis in (None, 1):
        # the NDArray is built inline: one frame less on every call
        if not unwrap:
            body.append('    ' + tuple_test)
        body.append('    _o = _new(_NDArray)')
        body.append('    _o._t = _r')
        body.append('    _o._ctx = %s' % cx)
        body.append('    if _ACTIVE[0]: ' + note_call % '(_o,)')
        body.append('    return _o')
    else:
        body.append('    if not isinstance(_r, (tuple, list)): _r = (_r,); _nv = 1')
        if nvis is None:
            body.append('    else: _nv = len(_r)')
        elif callable(nvis):
            g['_nvis'] = nvis
            body.append('    else: _nv = _nvis(%s)' % _params_dict(call_params))
        else:
            body.append('    else: _nv = %d' % nvis)
        body.append('    _o = _wrap_multi(_r, _nv, %s, _cls)' % cx)
        body.append('    if _ACTIVE[0]: ' + note_call % '(_o,) if _nv == 1 else _o')
        body.append('    return _o')
    src = 'def %s(%s):\n%s\n' % (func_name, ', '.join(sig), '\n'.join(body))
    exec(compile(src, '<mx.nd.%s>' % func_name, 'exec'), g)
    op.callers.append(g)  # OpDef.rebind swaps g['_fn']
    fn = g[func_name]
    fn.__doc__ = op.doc if doc is None else doc
    fn.__module__ = module
    fn.__qualname__ = func_name
    return fn


def _signature_locals(op, signature):
    """The local name of each input and parameter of ``op`` in a generated function: the
    name in ``signature`` (None for one it leaves out), or the entry's name without one."""
    if signature is None:
        return _safe
    if op.variadic:
        raise ValueError('%s: a signature needs fixed inputs' % op.name)
    names = {}
    for item in signature:
        public, _, entry = item.partition('=')
        names[entry or public] = public
    unknown = set(names) - set(op.inputs) - set(op.params) - {'out'}
    if unknown:
        raise ValueError('%s: the signature names %s, which the entry does not have'
                         % (op.name, ', '.join(sorted(unknown))))
    return names.get


def _signature_of(signature, sig):
    """The parameters of a generated function with ``signature``, in its order, from the
    ones generated (``sig``: 'name=default' or 'name')."""
    generated = dict((s.partition('=')[0], s) for s in sig)
    return [generated[item.partition('=')[0]] for item in signature]


def _params_dict(call_params):
    """Source of the dict of an operator's parameters: {name: the local holding its value}."""
    return '{%s}' % ', '.join('%r: %s' % (pname, p) for pname, p in call_params)


# MXNet puts operators into sub-namespaces by name prefix
_PREFIXES = (('_contrib_', 'contrib'), ('_linalg_', 'linalg'), ('_sparse_', 'sparse'),
             ('_image_', 'image'), ('_random_', 'random'))


def namespace_of(name):
    """(namespace, public name) of an operator name, following MXNet's prefix rules.

    namespace is one of 'op' (top level), '_internal', 'contrib', 'linalg', 'sparse', 'image',
    'random'.
    """
    for prefix, ns in _PREFIXES:
        if name.startswith(prefix):
            return ns, name[len(prefix):]
    if name.startswith('_'):
        return '_internal', name
    return 'op', name


_NAMESPACES = None


def functions(namespace):
    """{public name: function} of one namespace ('op', '_internal', 'contrib', ...)."""
    global _NAMESPACES
    if _NAMESPACES is None:
        spaces = {}
        for name, op in registry.all_ops().items():
            ns, public = namespace_of(name)
            spaces.setdefault(ns, {})[public] = make_function(op, public)
            if ns != '_internal' and name.startswith('_'):
                # MXNet also keeps every prefixed operator reachable in _internal
                spaces.setdefault('_internal', {})[name] = spaces[ns][public]
        _NAMESPACES = spaces
    return _NAMESPACES.get(namespace, {})


def populate(module_globals, namespace):
    """Put the generated functions of ``namespace`` into a module's globals; returns names."""
    fns = functions(namespace)
    module_globals.update(fns)
    return sorted(fns)
