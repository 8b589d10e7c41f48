"""THE operator table.

Each MXNet operator is registered exactly once, here, with:

* its MXNet name and aliases (``FullyConnected``, ``broadcast_plus`` = ``broadcast_add``, ...);
* its inputs, in MXNet's order (a leading ``*`` marks a variadic input, as in ``Concat``);
  names listed in ``aux`` are auxiliary states (BatchNorm's moving statistics);
* its parameters with MXNet's kinds and defaults (``REQUIRED`` for a parameter without one);
* a torch implementation: ``fn(*input_tensors, **params) -> Tensor | tuple of Tensors``.
  Inputs that are absent arrive as ``None``; parameters arrive converted to Python values.

``mx.nd.X``, ``mx.sym.X``, the ``F`` of ``hybrid_forward`` and the symbol-JSON loader are all
generated from these entries; nothing else defines an operator.
"""
import inspect

from ..base import (REQUIRED, to_int, to_float, to_bool, to_str, to_shape, to_float_tuple,
                    to_dtype, to_any, optional, MXNetError)
from ..utils.mxnet_api import missing_argument, missing_operator

__all__ = ['OpDef', 'register', 'get', 'all_ops', 'REQUIRED', 'Int', 'Float', 'Bool', 'Str',
           'Shape', 'FloatTuple', 'DType', 'Any', 'Opt', 'AtLeast']


class Kind:
    """A parameter kind: a converter from Python values and MXNet attribute strings; ``base``
    is the kind an optional kind (``Opt``) wraps. ``native``, where not None, is a Python
    expression over ``%(p)s`` (the value) that is true exactly for values the converter gives
    back unchanged: the generated front ends (ndarray/register.py) skip the converter for
    them. A kind whose converter checks or rounds such values (bounds, float32) leaves it
    None, or narrows it, as ``AtLeast`` does."""
    __slots__ = ('name', 'convert', 'base', 'native')

    def __init__(self, name, convert, base=None, native=None):
        self.name = name
        self.convert = convert
        self.base = base
        self.native = native

    def __repr__(self):
        return self.name


# (``_DTYPE_NAMES``: the front ends' set of dtype names)
Int = Kind('int', to_int, native='type(%(p)s) is int')
Float = Kind('float', to_float, native='type(%(p)s) is float')
Bool = Kind('boolean', to_bool, native='%(p)s is True or %(p)s is False')
Str = Kind('string', to_str)
Shape = Kind('Shape(tuple)', to_shape)
FloatTuple = Kind('tuple of <float>', to_float_tuple)
DType = Kind('dtype', to_dtype, native='type(%(p)s) is str and %(p)s in _DTYPE_NAMES')
Any = Kind('any', to_any)


def Opt(kind):
    """The same kind, also accepting None."""
    return Kind(kind.name + ' or None', optional(kind.convert), kind, kind.native)


def AtLeast(kind, low):
    """The same kind with every integer (each dimension of a shape) at least ``low``: MXNet's
    lower bounds (``set_lower_bound``, and the shape checks that reject, e.g., a zero stride),
    enforced when parameters are parsed, so a bad value from a symbol file or a call never
    reaches a kernel."""
    optional = kind.name.endswith(' or None')

    def convert(v):
        out = kind.convert(v)
        if out is None and not optional:
            raise ValueError('a value is required, got %r' % (v,))
        for x in (out if isinstance(out, tuple) else (out,)):
            if x is not None and x < low:
                raise ValueError('must be at least %d, got %r' % (low, v))
        return out
    native = None if kind.native is None else '(%s) and %%(p)s >= %d' % (kind.native, low)
    return Kind(kind.name, convert, native=native)


def Enum(*choices):
    """A string parameter restricted to ``choices`` (MXNet's enum parameters)."""
    def convert(v):
        if v is None and None in choices:
            return None
        s = to_str(v) if not isinstance(v, str) else v
        s = s.strip().strip("'\"")
        if s not in choices:
            raise ValueError('expected one of %s, got %r'
                             % (', '.join(repr(c) for c in choices if c is not None), v))
        return s
    # MXNet lists an enum's choices sorted (None first), in documents and in errors alike
    listed = sorted(choices, key=lambda c: (c is not None, str(c)))
    # (a set display of constants in ``in`` compiles to a frozenset constant)
    native = 'type(%%(p)s) is str and %%(p)s in {%s}' % ', '.join(
        repr(c) for c in listed if isinstance(c, str))
    return Kind('{%s}' % ', '.join(repr(c) for c in listed), convert, native=native)


class OpDef:
    """One operator of the table. See the module docstring."""
    __slots__ = ('name', 'fn', 'inputs', 'params', 'aliases', 'aux', 'num_outputs',
                 'num_visible_outputs', 'output_names', 'variadic', 'doc', 'key_var_num_args',
                 'input_rule', 'infer_shape', 'differentiable', 'mutate', 'input_init',
                 'writes_out', 'callers', 'input_dtypes', 'float32_params', 'dtype_output',
                 'keeps_size', 'concat_fill', 'merges', 'named_outputs', 'monitor_prefix',
                 'infer_type', 'same_type', 'view', 'kernel', 'kernel_if', 'zero_grad')

    def __init__(self, name, fn, inputs, params, aliases, aux, num_outputs, num_visible_outputs,
                 output_names, doc, key_var_num_args, input_rule, infer_shape, differentiable,
                 mutate, input_init=None, writes_out=False, input_dtypes=None,
                 float32_params=False, dtype_output=False, keeps_size=False, concat_fill=0,
                 merges=True, named_outputs=False, monitor_prefix=None, infer_type=None,
                 same_type=False, inplace_identity=None, kernel=None, kernel_if='float',
                 zero_grad=False):
        self.name = name
        self.fn = fn
        self.inputs = tuple(inputs)
        self.variadic = bool(self.inputs) and self.inputs[0].startswith('*')
        self.params = params
        self.aliases = tuple(aliases)
        self.aux = tuple(aux)
        self.num_outputs = num_outputs
        self.num_visible_outputs = num_visible_outputs
        self.output_names = output_names
        self.doc = doc
        self.key_var_num_args = key_var_num_args
        self.input_rule = input_rule
        self.infer_shape = infer_shape
        self.differentiable = differentiable
        self.mutate = mutate
        self.input_init = dict(input_init or {})
        self.writes_out = writes_out
        self.callers = []
        self.input_dtypes = dict(input_dtypes or {})
        self.float32_params = float32_params
        self.dtype_output = dtype_output
        self.keeps_size = keeps_size
        self.concat_fill = concat_fill
        self.merges = merges
        self.named_outputs = named_outputs
        self.monitor_prefix = monitor_prefix
        # type rule of an operator whose types its own code decides (Custom):
        # (input torch dtypes, None where unknown), params -> (input dtypes, output dtypes)
        self.infer_type = infer_type
        self.same_type = same_type
        # what a lowered graph calls for a node of an operator whose output may share its
        # input's memory there (see register's inplace_identity)
        self.view = None if inplace_identity is None else _with_result(fn, inplace_identity)
        self.kernel = kernel
        self.kernel_if = kernel_if
        self.zero_grad = zero_grad

    def rebind(self, fn, imperative_fn=None):
        """Make ``fn`` the operator's implementation (``mx.contrib.amp.init`` does, to run it
        in mixed precision): the table entry, and so every graph built from now on, and every
        generated ``mx.nd`` function of the operator call it; those call ``imperative_fn``
        instead where one is given. A call costs what it cost before: the front ends hold the
        implementation in a variable, which this rebinds."""
        self.fn = fn
        self.view = None  # graphs call fn itself
        for namespace in self.callers:
            namespace['_fn'] = fn if imperative_fn is None else imperative_fn
            if '_k' in namespace:  # (the kernel too: the new implementation decides)
                namespace['_k'] = self._as_kernel(namespace['_fn'])

    def _as_kernel(self, fn):
        """``fn`` called as the operator's kernel is (see register's ``kernel``): a variadic
        operator's kernel takes the tensors as one sequence and its axis, if not 0;
        that of an array and a Python number (parameters ``scalar``
        and ``is_int``), the array and the number as given."""
        if 'is_int' in self.params:
            return lambda data, number: fn(data, float(number), type(number) is int)
        if not self.variadic:
            return fn
        count = self.key_var_num_args or 'num_args'
        axis, = [p for p in self.params if p != count]

        def kernel(tensors, dim=0):
            return fn(*tensors, **{axis: dim, count: len(tensors)})
        return kernel

    def convert_params(self, kwargs):
        """Convert raw parameter values (Python values or attribute strings) to their kinds,
        filling in defaults. Raises MXNetError naming the operator and the argument."""
        for pname in kwargs:  # as MXNet, an unknown argument is reported before a missing one
            if pname not in self.params:
                raise unknown_argument(self, pname)
        out = {}
        for pname, (kind, default) in self.params.items():
            v = kwargs.get(pname)
            if v is None and pname in kwargs and default is REQUIRED:
                try:  # an optional kind takes None as a value
                    out[pname] = kind.convert(None)
                    continue
                except (ValueError, TypeError):
                    pass
            if v is not None:
                try:
                    out[pname] = kind.convert(v)
                except (ValueError, TypeError) as err:
                    raise MXNetError('Invalid parameter %s=%r for operator %s: %s'
                                     % (pname, v, self.name, err)) from None
            elif default is REQUIRED:
                raise MXNetError('Required parameter %s of %s is not presented, in operator '
                                 '%s(name="")' % (pname, kind.name, self.name))
            else:
                out[pname] = default
        return out

    def list_inputs(self, attrs):
        """Input names for given (converted) parameters, as ``list_arguments`` shows them."""
        if self.input_rule is not None:
            return list(self.input_rule(attrs))
        if self.variadic:
            n = attrs.get(self.key_var_num_args or 'num_args', 0) or 0
            base = self.inputs[0][1:]
            return ['%s%d' % (base, i) for i in range(n)]
        return list(self.inputs)

    def monitor_inputs(self, attrs):
        """Input names as MXNet's monitor callbacks show them (``<node name>_<input name>``
        with ``monitor_all``): the names of the operator's ``FListInputNames`` attribute,
        ``input0``, ``input1``, ... for an operator without one."""
        names = self.list_inputs(attrs)
        prefix = self.monitor_prefix
        if prefix is None:
            return names
        return ['%s%d' % (prefix, i) for i in range(len(names))]

    def call_positions(self, attrs):
        """Positions in the implementation's signature of the inputs ``list_inputs`` names,
        or None when they are exactly the signature's inputs in order (or the op is
        variadic)."""
        if self.variadic:
            return None
        names = self.list_inputs(attrs)
        pos = [self.inputs.index(n) for n in names]
        if len(pos) == len(self.inputs) and pos == list(range(len(pos))):
            return None
        return pos

    def takes_positionally(self):
        """Whether the implementation takes exactly the inputs and then the parameters, in
        the table's order, as positional-or-keyword arguments (a positional call binds faster
        than keywords)."""
        code = getattr(self.fn, '__code__', None)
        if self.variadic or code is None or code.co_kwonlyargcount or \
                code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
            return False
        names = tuple(self.inputs) + tuple(self.params)
        if self.view is not None:  # (inplace_identity's keyword, last)
            names += ('result',)
        return code.co_varnames[:code.co_argcount] == names

    def output_label(self, attrs, k):
        """How MXNet's graph passes label output k in a node name: its name for an operator
        that names its outputs (FullyConnected's 'output'), its index for any other."""
        if not self.named_outputs:
            return str(k)
        names = self.output_names(attrs) if callable(self.output_names) else self.output_names
        return (names or ['output'])[k]

    def outputs(self, attrs):
        """Number of outputs the implementation returns for given parameters."""
        n = self.num_outputs
        return n(attrs) if callable(n) else n

    def visible_outputs(self, attrs):
        """Number of outputs visible to the user (MXNet hides e.g. BatchNorm's saved stats)."""
        n = self.num_visible_outputs
        if n is None:
            return self.outputs(attrs)
        return n(attrs) if callable(n) else n

    def __repr__(self):
        return '<OpDef %s>' % self.name


def unknown_argument(op, pname):
    """The error for an argument ``pname`` that ``op`` does not take: MXNetError, or
    UnsupportedOperatorError (a NotImplementedError too) when MXNet 1.9.1's operator takes
    it."""
    return missing_argument(op.name, pname, "Cannot find argument '%s' for operator %s: its "
                            "arguments are %s" % (pname, op.name, ', '.join(
                                list(op.inputs) + list(op.params)) or '(none)'))


_OPS = {}


def _with_result(fn, result):
    """``fn`` with its keyword ``result`` set to ``result``."""
    def call(*args, **kwargs):
        return fn(*args, result=result, **kwargs)
    call.__name__ = call.__qualname__ = fn.__name__
    return call


def register(name, inputs=('data',), params=None, aliases=(), aux=(), num_outputs=1,
             num_visible_outputs=None, output_names=None, key_var_num_args=None,
             input_rule=None, infer_shape=None, differentiable=True, mutate=(), input_init=None,
             doc=None, writes_out=False, input_dtypes=None, float32_params=False,
             dtype_output=False, keeps_size=False, concat_fill=0, merges=True,
             named_outputs=False, monitor_prefix=None, same_type=False, inplace_identity=None,
             kernel=None, kernel_if='float', zero_grad=False):
    """Register a torch implementation as MXNet operator ``name``.

    Parameters
    ----------
    name : str
        MXNet's operator name, e.g. 'FullyConnected', '_plus_scalar', '_contrib_box_nms'.
    inputs : tuple of str
        Input names in MXNet's order; '*data' marks a variadic input.
    params : dict of name -> (Kind, default)
        MXNet's parameters; use ``REQUIRED`` as the default of a required one.
    aliases : tuple of str
        Other names MXNet registers for the operator.
    aux : tuple of str
        Inputs that are auxiliary states.
    num_outputs, num_visible_outputs : int or callable(params) -> int
    output_names : tuple of str or callable(params), optional
        Output names as ``list_outputs`` shows them (default 'output').
    key_var_num_args : str, optional
        The parameter that counts variadic inputs ('num_args').
    input_rule : callable(params) -> list of str, optional
        Input names when they depend on parameters (e.g. no_bias drops 'bias').
    infer_shape : callable, optional
        Shape rule used by symbols to fill in unknown parameter shapes.
    differentiable : bool
    zero_grad : bool
        MXNet registers the operator's gradient as zero (MakeZeroGradNodes) although its
        outputs are computed from its inputs (``np.std``, ``np.percentile``, ``np.unique``):
        recorded, its outputs reach its inputs with zero gradient (``fn`` runs through
        ``indexing.zero_grad_outputs``), and a graph's backward stops at it
        (``symbol.passes``).
    mutate : tuple of str or callable(params)
        Inputs the operator updates in place (the optimizer update ops' state arrays).
    input_init : dict of str -> str, optional
        The ``__init__`` attribute MXNet gives an input variable that a symbol creates for it
        (BatchNorm's moving statistics, PReLU's gamma), as initializer JSON.
    doc : str, optional
        The operator's documentation, where it is not ``fn``'s docstring (``fn`` may be a
        torch function that serves several operators).
    writes_out : bool
        ``fn`` takes a keyword ``out_tensor``: the tensor of the array an ``mx.nd`` call passes
        as ``out=`` (None otherwise). It may write its result there and return that tensor
        (the optimizer updates write into their weight so, instead of copying a new one in).
    input_dtypes : dict of str -> str, optional
        Inputs whose type the operator fixes whatever the others are (MXNet's type rule gives
        it to an input of unknown type): input name -> MXNet dtype name.
    float32_params : bool
        The inputs after the data are float32 when the data is float16 or bfloat16, and of
        the data's type otherwise (MXNet's BatchNormType).
    dtype_output : bool
        The output's type is the ``dtype`` parameter, whatever the input's (a cast).
    keeps_size : bool
        The output has the input's number of elements (Reshape): shape inference solves one
        unknown input dimension from a known output shape.
    concat_fill : int
        The operator joins its inputs along ``dim``: shape inference fills up to this many
        inputs of unknown size along it from the output's, sharing what is left equally.
    merges : bool
        Whether MXNet's common-subexpression pass merges two nodes of the operator with the
        same inputs and attributes (it never merges stateful operators, legacy
        OperatorProperty operators, which declare mutable inputs, and random ones).
    named_outputs : bool
        The operator names its outputs (registers FListOutputNames, as every legacy
        OperatorProperty operator does): MXNet's graph passes name a node after such an
        output by its name ('fc1_output'), after an output of any other operator by its
        index ('relu1_0').
    monitor_prefix : str, optional
        How MXNet's monitor callbacks name the inputs (``<node name>_<input name>`` with
        ``monitor_all``) where that is not ``list_inputs``' names, read from MXNet 1.9.1's
        sources and checked against it: 'input' (input0, input1, ...) for an operator that
        registers no FListInputNames, 'arg' (arg0, arg1, ...) for the variadic operators that
        name their inputs so.
    same_type : bool
        The one output has the shape and type of the inputs, which share them (``add_n``):
        shape inference takes them from inputs of one shape and type without running the
        implementation on meta tensors (for an ``add_n`` of 50,000 inputs that run costs
        seconds, and its first call imports ``torch._dynamo``).
    inplace_identity : callable, optional
        The operator only gives its input a new shape, and MXNet's graph executor lets its
        output share the input's memory (FInplaceIdentity) where an imperative call returns
        new memory: ``fn`` takes a keyword ``result``, the function that makes its output
        from the reshaped input (new memory by default), and a lowered graph calls it with
        ``result=inplace_identity`` for a node whose input and output both stay inside the
        graph (made by another node, not a graph output), where no caller sees the sharing.
    kernel : callable, optional
        For an operator of two inputs without parameters, whose ``fn`` checks that they share
        one dtype before calling a torch function: that function. The generated ``mx.nd``
        function calls it directly for inputs of one dtype (no frame of ``fn``), and ``fn``
        where the dtypes differ or the kernel raises RuntimeError (``fn`` raises MXNet's
        error then). For an operator of one input without parameters, whose ``fn`` calls a
        torch function on floating-point input (and computes other input another way): that
        function, which the generated function calls directly for floating-point input
        (``kernel_if='float'``), or for input that needs no gradient (``kernel_if='no_grad'``:
        ``fn`` differs from the torch function only in its gradient, relu's at NaN).
        For a variadic operator that joins its inputs (``fn`` checks them and calls a torch
        function along an axis, its one parameter besides the count of inputs): that
        function, ``kernel(tensors, axis)`` (``torch.cat(tensors, axis)``), or
        ``kernel(tensors)`` for axis 0, torch's default; the generated
        function calls it for two inputs of one dtype, and ``fn`` where the kernel raises
        (``fn`` computes what the kernel cannot, or raises MXNet's error). For an operator of
        an array and a Python number (parameters ``scalar`` and ``is_int``, ``_npi_add_scalar``)
        whose ``fn`` calls a torch function with the number on floating-point input: that
        function, ``kernel(tensor, number)``, the number an int or a float as the caller gave
        it; mx.np's ufuncs call it for a floating-point array, and ``fn`` where it raises
        RuntimeError or OverflowError (a number beyond the array type's range).
    """
    def deco(fn):
        impl = fn
        if zero_grad:
            from .indexing import zero_grad_outputs  # (indexing registers operators itself)
            impl = zero_grad_outputs(fn)
        op = OpDef(name, impl, inputs, dict(params or {}), aliases, aux, num_outputs,
                   num_visible_outputs, output_names, fn.__doc__ if doc is None else doc,
                   key_var_num_args,
                   input_rule, infer_shape, differentiable, mutate, input_init, writes_out,
                   input_dtypes, float32_params, dtype_output, keeps_size, concat_fill,
                   merges, named_outputs, monitor_prefix, same_type=same_type,
                   inplace_identity=inplace_identity, kernel=kernel, kernel_if=kernel_if,
                   zero_grad=zero_grad)
        for n in (name,) + tuple(aliases):
            if n in _OPS:
                raise RuntimeError('operator %s registered twice' % n)
            _OPS[n] = op
        return fn
    return deco


def get(name):
    """The OpDef registered under ``name`` (or an alias); MXNetError if there is none
    (UnsupportedOperatorError, a NotImplementedError too, for an operator of MXNet 1.9.1)."""
    try:
        return _OPS[name]
    except KeyError:
        raise missing_operator(name) from None


def all_ops():
    """Mapping of every registered name and alias to its OpDef."""
    return _OPS
