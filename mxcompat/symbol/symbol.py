"""Symbol: MXNet's symbolic graph, built over the operator table.

A Symbol is a list of output entries ``(node, index)``. A node is a variable (``op is None``)
or an operator application whose parameters are kept as MXNet keeps them: attribute strings,
exactly what ``tojson()`` writes. Graphs execute through :mod:`mxcompat.executor`.
"""

from .. import attribute, name as _name
from ..base import (MXNetError, gc_paused, NotImplementedForSymbol, attr_to_string, dtype_flag,
                    string_types, numeric_types)
from ..ops import registry
from ..ndarray.ndarray import _STORAGE_TYPE_STR_TO_ID

__all__ = ['Symbol', 'var', 'Variable', 'Group', 'load', 'load_json', 'Node']

# attribute keys MXNet mirrors between 'key' and '__key__'
_HIDDEN_KEYS = ('ctx_group', 'lr_mult', 'wd_mult', 'force_mirroring', 'mirror_stage',
                'profiler_scope')


class Node:
    """One node of a symbol graph."""
    __slots__ = ('op', 'name', 'attrs', 'inputs', '_params', 'subgraphs', '__weakref__')

    def __init__(self, op, name, attrs=None, inputs=(), subgraphs=()):
        self.op = op
        self.name = name
        self.attrs = dict(attrs or {})
        self.inputs = list(inputs)
        self._params = None
        # Symbols a control-flow operator runs (MXNet's _foreach, _while_loop, _cond)
        self.subgraphs = list(subgraphs)

    @property
    def is_variable(self):
        return self.op is None

    @property
    def params(self):
        """Operator parameters converted to Python values (defaults filled in)."""
        if self._params is None:
            raw = {k: v for k, v in self.attrs.items() if k in self.op.params}
            self._params = self.op.convert_params(raw)
            if self.subgraphs:
                self._params['subgraphs'] = self.subgraphs
        return self._params

    def num_outputs(self):
        return 1 if self.op is None else self.op.outputs(self.params)

    def num_visible_outputs(self):
        return 1 if self.op is None else self.op.visible_outputs(self.params)

    def output_names(self):
        if self.op is None:
            return [self.name]
        n = self.num_visible_outputs()
        names = self.op.output_names
        if callable(names):
            names = names(self.params)
        if names is None:
            names = ['output'] if n == 1 else ['output%d' % i for i in range(n)]
        return ['%s_%s' % (self.name, o) for o in list(names)[:n]]

    def aux_positions(self):
        if self.op is None or not self.op.aux:
            return ()
        names = self.op.list_inputs(self.params)
        return tuple(i for i, n in enumerate(names) if n in self.op.aux)


_VERSION = [0]  # counts changes to the inputs of nodes that Symbols may hold


def graph_changed():
    """Tell the Symbols that the inputs of nodes they may hold have changed (their cached
    node orders are then recomputed); call it after any such change."""
    _VERSION[0] += 1


@gc_paused
def _topo(outputs):
    """Nodes reachable from output entries in MXNet's DFS post-order."""
    order, seen = [], set()
    stack = []
    for node, _ in reversed(outputs):
        stack.append((node, False))
    # iterative post-order DFS visiting inputs in order
    while stack:
        node, expanded = stack.pop()
        if id(node) in seen:
            continue
        if expanded:
            seen.add(id(node))
            order.append(node)
            continue
        stack.append((node, True))
        for inp, _ in reversed(node.inputs):
            if id(inp) not in seen:
                stack.append((inp, False))
    return order


class Symbol:
    """Symbol is symbolic graph of the mxnet."""
    __slots__ = ('_outputs', '_order', '__weakref__')
    # numpy defers binary operators with a Symbol on the right
    __array_priority__ = 1000.0

    def __init__(self, outputs):
        self._outputs = list(outputs)
        self._order = None

    # ------------------------------------------------------------------ structure
    @property
    def name(self):
        """Gets name string from the symbol, this function only works for non-grouped symbol.

        Returns
        -------
        value : str
            The name of this symbol, returns ``None`` for grouped symbol.
        """
        if len(self._outputs) != 1:
            return None
        return self._outputs[0][0].name

    def _nodes(self):
        """The graph's nodes in MXNet's order (a tuple, kept until the graph changes: a new
        ``_outputs`` list, or ``graph_changed``)."""
        order = self._order
        if order is None or order[0] != _VERSION[0] or order[1] is not self._outputs:
            order = self._order = (_VERSION[0], self._outputs, tuple(_topo(self._outputs)))
        return order[2]

    def __len__(self):
        return len(self._outputs)

    def __iter__(self):
        return (Symbol([o]) for o in self._outputs)

    def __getitem__(self, index):
        """x.__getitem__(i) <=> x[i]: an output by position or by output name."""
        if isinstance(index, string_types):
            names = self.list_outputs()
            idx = [i for i, n in enumerate(names) if n == index]
            if not idx:
                raise ValueError('Cannot find output that matches name "%s"' % index)
            if len(idx) > 1:
                raise ValueError('There are multiple outputs with name "%s"' % index)
            index = idx[0]
        if isinstance(index, slice):
            return Symbol(self._outputs[index])
        if not isinstance(index, int):
            raise TypeError('Symbol only support integer index to fetch i-th output')
        if index >= len(self._outputs) or index < -len(self._outputs):
            raise IndexError('Symbol index %d out of range (%d outputs)'
                             % (index, len(self._outputs)))
        return Symbol([self._outputs[index]])

    def __copy__(self):
        return self.__deepcopy__(None)

    def __deepcopy__(self, memo):
        mapping = {}
        for node in self._nodes():
            new = Node(node.op, node.name, node.attrs,
                       [(mapping[id(i)], k) for i, k in node.inputs], node.subgraphs)
            mapping[id(node)] = new
        return Symbol([(mapping[id(n)], i) for n, i in self._outputs])

    def __repr__(self):
        name = self.name
        if name is None:
            name = ', '.join(n for n in self.list_outputs())
            return '<%s group [%s]>' % (self.__class__.__name__, name)
        return '<%s %s>' % (self.__class__.__name__, name)

    def __str__(self):
        return self.__repr__()

    def __bool__(self):
        raise NotImplementedForSymbol(self.__bool__, 'bool')

    __nonzero__ = __bool__

    def __getstate__(self):
        return {'handle': self.tojson()}

    def __setstate__(self, state):
        self._outputs = load_json(state['handle'])._outputs
        self._order = None

    def __reduce__(self):
        return (load_json, (self.tojson(),))

    def get_internals(self):
        """Gets a new grouped symbol `sgroup`. The output of `sgroup` is a list of
        outputs of all of the internal nodes.

        Returns
        -------
        sgroup : Symbol
            A symbol group containing all internal and leaf nodes of the computation graph.
        """
        outs = []
        for node in self._nodes():
            for i in range(node.num_visible_outputs()):
                outs.append((node, i))
        return Symbol(outs)

    def get_children(self):
        """Gets a new grouped symbol whose output contains
        inputs to output nodes of the original symbol.

        Returns
        -------
        sgroup : Symbol or None
            The children of the head node. If the symbol has no
            inputs then ``None`` will be returned.
        """
        ins, seen = [], set()
        for node, _ in self._outputs:
            if id(node) not in seen:  # outputs of one node share its inputs
                seen.add(id(node))
                ins.extend(node.inputs)
        return Symbol(ins) if ins else None

    def list_arguments(self):
        """Lists all the arguments in the symbol.

        Returns
        -------
        args : list of string
            List containing the names of all the arguments required to compute the symbol.
        """
        aux = self._aux_ids()
        return [n.name for n in self._nodes() if n.op is None and id(n) not in aux]

    def list_outputs(self):
        """Lists all the outputs in the symbol.

        Returns
        -------
        list of str
            List of all the outputs.
        """
        out = []
        for node, i in self._outputs:
            names = node.output_names()
            out.append(names[i] if i < len(names) else '%s_output%d' % (node.name, i))
        return out

    def list_auxiliary_states(self):
        """Lists all the auxiliary states in the symbol.

        Returns
        -------
        aux_states : list of str
            List of the auxiliary states in input symbol.
        """
        aux = self._aux_ids()
        return [n.name for n in self._nodes() if n.op is None and id(n) in aux]

    def list_inputs(self):
        """Lists all arguments and auxiliary states of this Symbol.

        Returns
        -------
        inputs : list of str
            List of all inputs.
        """
        return [n.name for n in self._nodes() if n.op is None]

    def _aux_ids(self):
        aux = set()
        for node in self._nodes():
            for pos in node.aux_positions():
                if pos < len(node.inputs):
                    aux.add(id(node.inputs[pos][0]))
        return aux

    # ------------------------------------------------------------------ attributes
    def attr(self, key):
        """Returns the attribute string for corresponding input key from the symbol.

        This function only works for non-grouped symbols.

        Parameters
        ----------
        key : str
            The key corresponding to the desired attribute.

        Returns
        -------
        value : str
            The desired attribute value, returns ``None`` if the attribute does not exist.
        """
        nodes = {id(n) for n, _ in self._outputs}
        if len(nodes) != 1:  # a group of several nodes (all outputs of one node are one)
            return None
        attrs = self._outputs[0][0].attrs
        if key in _HIDDEN_KEYS:
            key = '__%s__' % key
        return attrs.get(key)

    def list_attr(self, recursive=False):
        """Gets all attributes from the symbol.

        Returns
        -------
        ret : Dict of str to str
            A dictionary mapping attribute keys to values.
        """
        if recursive:
            raise DeprecationWarning('Symbol.list_attr with recursive=True has been deprecated. '
                                     'Please use attr_dict instead.')
        if not self._outputs:
            return {}
        return _show_hidden(self._outputs[0][0].attrs)  # a group's: its first output's, as in MXNet

    def attr_dict(self):
        """Recursively gets all attributes from the symbol and its children.

        Returns
        -------
        ret : Dict of str to dict
            There is a key in the returned dict for every child with non-empty attribute set.
            For each symbol, the name of the symbol is its key in the dict
            and the correspond value is that symbol's attribute list (itself a dictionary).
        """
        return {n.name: _show_hidden(n.attrs) for n in self._nodes() if n.attrs}

    def _set_attr(self, **kwargs):
        """Sets an attribute of the symbol."""
        for node, _ in self._outputs:
            for k, v in kwargs.items():
                if not isinstance(v, string_types):
                    raise ValueError('Set Attr only accepts string values')
                node.attrs.update(_mirror_hidden({k: v}))
                node._params = None

    # ------------------------------------------------------------------ composition
    def __call__(self, *args, **kwargs):
        """Composes symbol using inputs.

        x.__call__(y, z) <=> x(y,z)

        This function internally calls `_compose` to compose the symbol and
        returns the composed symbol.
        """
        s = self.__copy__()
        s._compose(*args, **kwargs)
        return s

    def _compose(self, *args, **kwargs):
        """Composes symbol using inputs (replaces this symbol's free variables in place)."""
        name = kwargs.pop('name', None)
        if args and kwargs:
            raise TypeError('compose only accept input Symbols either as positional or keyword '
                            'arguments, not both')
        for arg in list(args) + list(kwargs.values()):
            if not isinstance(arg, Symbol):
                raise TypeError('Compose expect `Symbol` as arguments')
        variables = [n for n in self._nodes() if n.op is None]
        if args:
            args_names = self.list_arguments()
            mapping = dict(zip(args_names, args))
        else:
            mapping = kwargs
        replace = {}
        for v in variables:
            if v.name in mapping:
                sym = mapping[v.name]
                if len(sym._outputs) != 1:
                    raise MXNetError('compose: input %s must be a single-output symbol'
                                     % v.name)
                replace[id(v)] = sym._outputs[0]
        for node in self._nodes():
            node.inputs = [replace.get(id(i), (i, k)) if i.op is None else (i, k)
                           for i, k in node.inputs]
        graph_changed()
        self._outputs = [replace.get(id(n), (n, i)) if n.op is None else (n, i)
                         for n, i in self._outputs]
        if name is not None and len(self._outputs) == 1 and self._outputs[0][0].op is not None:
            self._outputs[0][0].name = name

    # ------------------------------------------------------------------ arithmetic
    def __add__(self, other):
        return _arith(self, other, '_Plus', '_PlusScalar')

    __radd__ = __add__

    def __sub__(self, other):
        return _arith(self, other, '_Minus', '_MinusScalar')

    def __rsub__(self, other):
        return _arith(self, other, None, '_RMinusScalar')

    def __mul__(self, other):
        return _arith(self, other, '_Mul', '_MulScalar')

    __rmul__ = __mul__

    def __truediv__(self, other):
        return _arith(self, other, '_Div', '_DivScalar')

    __div__ = __truediv__

    def __rtruediv__(self, other):
        return _arith(self, other, None, '_RDivScalar')

    __rdiv__ = __rtruediv__

    def __mod__(self, other):
        return _arith(self, other, '_Mod', '_ModScalar')

    def __rmod__(self, other):
        return _arith(self, other, None, '_RModScalar')

    def __pow__(self, other):
        return _arith(self, other, '_Power', '_PowerScalar')

    def __rpow__(self, other):
        return _arith(self, other, None, '_rpower_scalar')

    def __neg__(self):
        return self.__mul__(-1.0)

    def __abs__(self):
        return _make('abs', [self])

    def __eq__(self, other):
        return _arith(self, other, '_equal', '_equal_scalar')

    def __ne__(self, other):
        return _arith(self, other, '_not_equal', '_not_equal_scalar')

    def __gt__(self, other):
        return _arith(self, other, '_greater', '_greater_scalar')

    def __ge__(self, other):
        return _arith(self, other, '_greater_equal', '_greater_equal_scalar')

    def __lt__(self, other):
        return _arith(self, other, '_lesser', '_lesser_scalar')

    def __le__(self, other):
        return _arith(self, other, '_lesser_equal', '_lesser_equal_scalar')

    __hash__ = object.__hash__

    # ------------------------------------------------------------------ inference
    def infer_shape(self, *args, **kwargs):
        """Infers the shapes of all arguments and all outputs given the known shapes of
        some arguments.

        Returns
        -------
        arg_shapes : list of tuple or None
        out_shapes : list of tuple or None
        aux_shapes : list of tuple or None
            Each is None if the shapes cannot be inferred completely.
        """
        from .inference import infer_shape
        res, complete = infer_shape(self, args, kwargs, partial=False)
        if not complete:
            return None, None, None
        return res

    def infer_shape_partial(self, *args, **kwargs):
        """Infers the shape partially: unknown shapes are returned as ()."""
        from .inference import infer_shape
        return infer_shape(self, args, kwargs, partial=True)[0]

    def infer_type(self, *args, **kwargs):
        """Infers the type of all arguments and all outputs, given the known types
        for some arguments.

        Returns
        -------
        arg_types : list of numpy.dtype or None
        out_types : list of numpy.dtype or None
        aux_types : list of numpy.dtype or None
        """
        from .inference import infer_type
        res, complete = infer_type(self, args, kwargs, partial=False)
        if not complete:
            return None, None, None
        return res

    def infer_type_partial(self, *args, **kwargs):
        """Infers the type partially: unknown types are returned as None."""
        from .inference import infer_type
        return infer_type(self, args, kwargs, partial=True)[0]

    # ------------------------------------------------------------------ serialization
    def tojson(self, remove_amp_cast=True):
        """Saves symbol to a JSON string, in MXNet's format.

        Parameters
        ----------
        remove_amp_cast : bool, default True
            Leave out the amp_cast / amp_multicast nodes that feed other nodes (those
            ``amp.convert_symbol`` adds).
        """
        from .json_format import graph_to_json
        sym = self
        if remove_amp_cast:
            from .low_precision import remove_amp_cast as remove
            sym = remove(self)
        return graph_to_json(*sym._graph_parts())

    def _graph_parts(self):
        """(nodes, arg_nodes, node_row_ptr, heads) of MXNet's JSON; a node is (op, name,
        attrs, inputs, subgraphs) with each subgraph in the same form."""
        nodes = self._nodes()
        index = {id(n): i for i, n in enumerate(nodes)}
        aux = self._aux_ids()
        jnodes, row_ptr = [], [0]
        for n in nodes:
            inputs = [[index[id(i)], k, 1 if id(i) in aux else 0] for i, k in n.inputs]
            jnodes.append(('null' if n.op is None else n.op.name, n.name, n.attrs, inputs,
                           [g._graph_parts() for g in n.subgraphs]))
            row_ptr.append(row_ptr[-1] + n.num_outputs())
        return (jnodes, [i for i, n in enumerate(nodes) if n.op is None], row_ptr,
                [[index[id(n)], i, 0] for n, i in self._outputs])

    def save(self, fname, remove_amp_cast=True):
        """Saves symbol to a file (atomically).

        Parameters
        ----------
        fname : str
            The name of the file.
        remove_amp_cast : bool, default True
            Leave out the amp_cast / amp_multicast nodes that feed other nodes.
        """
        from ..utils.fileio import atomic_write_text
        if not isinstance(fname, string_types):
            raise TypeError('fname need to be string')
        atomic_write_text(fname, self.tojson(remove_amp_cast))

    def debug_str(self):
        """Gets a debug string of symbol.

        It contains Symbol output, variables and operators in the computation graph
        with their inputs, variables and attributes.

        Returns
        -------
        string
            Debug string of the symbol.
        """
        lines = ['Symbol Outputs:']
        for j, (n, k) in enumerate(self._outputs):
            lines.append('\toutput[%d]=%s(%d)' % (j, n.name, k))
        version = {}  # a variable's version counts the operators that update it
        for n in self._nodes():
            if n.op is None:
                lines.append('Variable:%s' % n.name)
                continue
            lines.append('-' * 20)
            lines.append('Op:%s, Name=%s' % (n.op.name, n.name))
            lines.append('Inputs:')
            mutated = set(n.aux_positions())
            for j, (i, k) in enumerate(n.inputs):
                if i.op is None:
                    if j in mutated:
                        version[id(i)] = version.get(id(i), 0) + 1
                    lines.append('\targ[%d]=%s(%d) version=%d'
                                 % (j, i.name, k, version.get(id(i), 0)))
                else:
                    lines.append('\targ[%d]=%s(%d)' % (j, i.name, k))
            if n.attrs:
                lines.append('Attrs:')
                for key in sorted(n.attrs):
                    lines.append('\t%s=%s' % (key, n.attrs[key]))
        return '\n'.join(lines) + '\n'

    # ------------------------------------------------------------------ execution
    def simple_bind(self, ctx, grad_req='write', type_dict=None, stype_dict=None,
                    group2ctx=None, shared_arg_names=None, shared_exec=None,
                    shared_buffer=None, **kwargs):
        """Bind current symbol to get an executor, allocate all the arguments needed.

        Allows specifying data types. This function simplifies the binding procedure.

        Parameters
        ----------
        ctx : Context
            The device context the generated executor to run on.
        grad_req: string
            {'write', 'add', 'null'}, or list of str or dict of str to str, optional
        type_dict  : Dict of str->numpy.dtype
            Input type dictionary, name->dtype
        kwargs : Dict of str->shape
            Input shape dictionary, name->shape

        Returns
        -------
        executor : mxnet.Executor
            The generated executor
        """
        from ..executor import simple_bind
        from .passes import check_gradient_graph
        check_gradient_graph(self, grad_req)
        return simple_bind(self, ctx, grad_req, type_dict, stype_dict, group2ctx,
                           shared_arg_names, shared_exec, shared_buffer, kwargs)

    def bind(self, ctx, args, args_grad=None, grad_req='write', aux_states=None,
             group2ctx=None, shared_exec=None):
        """Binds the current symbol to an executor and returns it.

        Parameters
        ----------
        ctx : Context
            The device context the generated executor to run on.
        args : list of NDArray or dict of str to NDArray
            Input arguments to the symbol.
        args_grad : list of NDArray or dict of str to `NDArray`, optional
            When specified, `args_grad` provides NDArrays to hold
            the result of gradient value in backward.
        grad_req : {'write', 'add', 'null'}, or list of str or dict of str to str, optional
            To specify how we should update the gradient to the `args_grad`.
        aux_states : list of `NDArray`, or dict of str to `NDArray`, optional
            Input auxiliary states to the symbol, only needed when the output of
            `list_auxiliary_states()` is not empty.

        Returns
        -------
        executor : Executor
            The generated executor
        """
        from ..executor import Executor
        from .passes import check_gradient_graph
        check_gradient_graph(self, grad_req, args_grad)
        return Executor(self, ctx, args, args_grad, grad_req, aux_states, group2ctx)

    def _bind(self, ctx, args, args_grad=None, grad_req='write', aux_states=None):
        return self.bind(ctx, args, args_grad, grad_req, aux_states)

    def eval(self, ctx=None, **kwargs):
        """Evaluates a symbol given arguments.

        Returns
        -------
        result :  a list of NDArrays corresponding to the values taken by each symbol when
        evaluated on given args. When called on a single symbol (not a group),
        the result will be a list with one element.
        """
        from ..context import current_context
        if ctx is None:
            ctx = current_context()
        return self.bind(ctx, kwargs).forward()

    def gradient(self, wrt):
        raise NotImplementedForSymbol(self.gradient, 'gradient')

    def _gen_atomic_symbol(self):
        """The head operator of this symbol applied to fresh variables of its input names."""
        node = self._outputs[0][0]
        if node.op is None:
            return Symbol([(Node(None, node.name, node.attrs), 0)])
        names = node.op.list_inputs(node.params)
        inputs = [(Node(None, n), 0) for n in names]
        new = Node(node.op, node.name, node.attrs, inputs)
        return Symbol([(new, i) for i in range(node.num_visible_outputs())])

    def optimize_for(self, backend, args=None, aux=None, ctx=None, shape_dict=None,
                     type_dict=None, stype_dict=None, skip_infer=False, **kwargs):
        raise NotImplementedError('Symbol.optimize_for(backend=%r): MXNet subgraph backends are '
                                  'not supported by mxcompat; hybridize() compiles with '
                                  'torch.compile instead' % (backend,))

    def get_backend_symbol(self, backend):
        raise NotImplementedError('Symbol.get_backend_symbol(%r): MXNet subgraph backends are '
                                  'not supported by mxcompat' % (backend,))

    @property
    def handle(self):
        """An opaque identifier of this symbol (mxcompat has no C handle)."""
        return id(self)

    def broadcast_to(self, *args, **kwargs):
        """Convenience fluent method for :py:func:`broadcast_to`."""
        from .op import broadcast_to
        return broadcast_to(self, *args, **kwargs)

    def broadcast_like(self, *args, **kwargs):
        """Convenience fluent method for :py:func:`broadcast_like`."""
        from .op import broadcast_like
        return broadcast_like(self, *args, **kwargs)

    def as_nd_ndarray(self):
        """A legacy Symbol over the same graph entries (this one, for a legacy Symbol)."""
        return self if type(self) is Symbol else Symbol(self._outputs)

    def as_np_ndarray(self):
        """The NumPy-semantics symbol (``mx.sym.np._Symbol``) over the same graph entries."""
        from .numpy import _Symbol
        return _Symbol(self._outputs)

    def _ndarray_only(name):
        def method(self, *args, **kwargs):
            raise NotImplementedForSymbol(method, None)
        method.__name__ = name
        return method

    asnumpy = _ndarray_only('asnumpy')
    asscalar = _ndarray_only('asscalar')
    copy = _ndarray_only('copy')
    as_in_context = _ndarray_only('as_in_context')
    detach = _ndarray_only('detach')
    backward = _ndarray_only('backward')
    wait_to_read = _ndarray_only('wait_to_read')
    del _ndarray_only

    def astype(self, dtype):
        """Convenience fluent method for :py:func:`cast`."""
        return _make('cast', [self], {'dtype': dtype})

    def reshape(self, *args, **kwargs):
        """Convenience fluent method for :py:func:`reshape`."""
        if args and 'shape' not in kwargs:
            kwargs['shape'] = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) \
                else args
            args = ()
        return _make('Reshape', [self], kwargs, 'reshape')


def _mirror_hidden(attrs):
    """MXNet stores the hidden keys (lr_mult, ctx_group, ...) as '__key__' only."""
    out = {}
    for k, v in attrs.items():
        out['__%s__' % k if k in _HIDDEN_KEYS else k] = v
    return out


def _show_hidden(attrs):
    """Attribute listings show each stored '__key__' of a hidden key also as 'key'."""
    out = dict(attrs)
    for key in _HIDDEN_KEYS:
        hidden = '__%s__' % key
        if hidden in attrs:
            out[key] = attrs[hidden]
    return out


def _arith(lhs, other, sym_op, scalar_op):
    if isinstance(other, Symbol):
        if sym_op is None:
            return _arith(other, lhs, scalar_op.replace('_R', '_').replace('Scalar', ''), None)
        return _make(sym_op, [lhs, other])
    if isinstance(other, numeric_types):
        return _make(scalar_op, [lhs], {'scalar': other})
    raise TypeError('type %s not supported' % str(type(other)))


def _make(op_name, inputs, params=None, hint=None, name=None, attr=None):
    """Create an operator node and return its Symbol (used by arithmetic and generated fns)."""
    op = registry.get(op_name)
    return compose_op(op, hint or op_name, list(inputs), {}, dict(params or {}), name, attr)


def _numpy_op(op):
    """Whether ``op`` is a NumPy operator (named or aliased ``_np_*``, ``_npi_*``, ``_npx_*``)."""
    return any(n.startswith(('_np_', '_npi_', '_npx_')) for n in (op.name,) + op.aliases)


def _made_variable(op, node_name, iname, sparams, attrs):
    """The entry of the variable ``<node name>_<input name>`` that MXNet makes for an input
    not given: it carries the node's parameters and attributes (and the input's initializer)."""
    vattrs = dict(sparams)
    vattrs.update(attrs)
    if iname in op.input_init:
        vattrs['__init__'] = op.input_init[iname]
    return Node(None, '%s_%s' % (node_name, iname), vattrs), 0


def compose_op(op, func_name, pos_inputs, kw_inputs, params, name=None, attr=None):
    """Build the node for ``op`` called as ``mx.sym.<func_name>``."""
    sparams, extra_attrs = {}, {}
    for k, v in params.items():
        if v is None and (k not in op.params or k == 'dtype' and _numpy_op(op)):
            # an explicit None of an operator parameter is kept, as MXNet keeps it, but for the
            # dtype of a NumPy operator (MXNet leaves it out)
            continue
        v = attr_to_string(v) if not isinstance(v, string_types) else v
        # hidden keys (lr_mult, ctx_group, ...) and __dunder__ keys are attributes, not params
        if k in _HIDDEN_KEYS or (k.startswith('__') and k.endswith('__')):
            extra_attrs[k] = v
        else:
            sparams[k] = v
    key = op.key_var_num_args or 'num_args'
    if op.variadic and key in op.params and \
            (key not in sparams or op.key_var_num_args and pos_inputs):
        sparams[key] = str(len(pos_inputs))
    node_name = _name.current().get(name, func_name.lower())
    attrs = attribute.current().get(attr)
    attrs = dict(attrs) if attrs else {}
    attrs.update(extra_attrs)
    attrs = _mirror_hidden(attrs)
    # MXNet passes an operator's attributes to its C API as str(value): an Initializer given
    # as attr={'__init__': init} is stored as its repr (AttrScope and _set_attr refuse
    # non-strings)
    attrs = {k: v if isinstance(v, string_types) else str(v) for k, v in attrs.items()}
    for k in sparams:  # as MXNet, an unknown argument is reported before a missing one
        if k not in op.params:
            raise registry.unknown_argument(op, k)
    try:
        converted = op.convert_params(sparams)
    except MXNetError as err:
        raise MXNetError('%s (in operator %s(name="%s"))' % (err, op.name, node_name)) from None
    input_names = op.list_inputs(converted)
    entries = []
    if op.variadic:
        for s in pos_inputs:
            entries.append(_single_entry(s, op, node_name))
        if op.input_rule is not None:
            # the inputs the operator lists (UpSampling's data, weight) past those given
            missing = input_names[len(pos_inputs):]
        elif not pos_inputs and converted.get(key):
            # given num_args and no inputs, MXNet makes the variables <name>_arg0, _arg1, ...
            missing = ['arg%d' % i for i in range(converted[key])]
        else:
            missing = []
        entries.extend(_made_variable(op, node_name, iname, sparams, attrs)
                       for iname in missing)
    else:
        if len(pos_inputs) > len(input_names):
            raise MXNetError('Operator %s takes %d inputs (%s), %d given'
                             % (op.name, len(input_names), ', '.join(input_names),
                                len(pos_inputs)))
        given = dict(zip(input_names, pos_inputs))
        for k, v in kw_inputs.items():
            if k not in input_names:
                if not input_names:
                    continue  # MXNet ignores Symbols passed to an operator without inputs
                raise registry.unknown_argument(op, k)
            given[k] = v
        for iname in input_names:
            s = given.get(iname)
            if s is None:
                entries.append(_made_variable(op, node_name, iname, sparams, attrs))
            else:
                entries.append(_single_entry(s, op, node_name))
    node_attrs = dict(sparams)
    node_attrs.update(attrs)
    node = Node(op, node_name, node_attrs, entries)
    node._params = converted
    n = node.num_visible_outputs()
    # NumPy semantics pass from the inputs to the outputs (mxcompat's Gluon layers call the
    # legacy operators in NumPy-mode blocks too)
    np_in = any(type(s) is not Symbol and isinstance(s, Symbol)
                for s in pos_inputs) or any(type(s) is not Symbol and isinstance(s, Symbol)
                                            for s in kw_inputs.values())
    return (_np_symbol() if np_in else Symbol)([(node, i) for i in range(n)])


def _np_symbol():
    from .numpy import _Symbol
    return _Symbol


def _single_entry(s, op, node_name):
    if not isinstance(s, Symbol):
        raise TypeError('Operator %s(name="%s"): inputs must be Symbols, got %s'
                        % (op.name, node_name, type(s).__name__))
    if len(s._outputs) != 1:
        raise MXNetError('Operator %s(name="%s"): an input is a grouped symbol with %d outputs; '
                         'pick one with sym[i]' % (op.name, node_name, len(s._outputs)))
    return s._outputs[0]


def var(name, attr=None, shape=None, lr_mult=None, wd_mult=None, dtype=None, init=None,
        stype=None, profiler_scope=None, **kwargs):
    """Creates a symbolic variable with specified name.

    Parameters
    ----------
    name : str
        Variable name.
    attr : Dict of strings
        Additional attributes to set on the variable. Format {string : string}.
    shape : tuple
        The shape of a variable. If specified, this will be used during the shape inference.
    lr_mult : float
        The learning rate multiplier for input variable.
    wd_mult : float
        Weight decay multiplier for input variable.
    dtype : str or numpy.dtype
        The dtype for input variable.
    init : initializer (mxnet.init.*)
        Initializer for this variable to (optionally) override the default initializer.
    stype : str
        The storage type of the variable: 'default', 'csr' or 'row_sparse' (the arrays Module
        binds for it are then CSRNDArray or RowSparseNDArray).
    kwargs : Additional attribute variables
        Additional attributes must start and end with double underscores.

    Returns
    -------
    variable : Symbol
        A symbol corresponding to an input to the computation graph.
    """
    if not isinstance(name, string_types):
        raise TypeError('Expect a string for variable `name`')
    attr = attribute.current().get(attr)
    attr = {} if attr is None else dict(attr)
    if shape is not None:
        attr['__shape__'] = str(tuple(shape))
    if lr_mult is not None:
        attr['__lr_mult__'] = str(lr_mult)
    if wd_mult is not None:
        attr['__wd_mult__'] = str(wd_mult)
    if dtype is not None:
        attr['__dtype__'] = str(dtype_flag(dtype))
    if init is not None:
        if not isinstance(init, string_types):
            init = init.dumps()
        attr['__init__'] = init
    if stype is not None:
        if stype not in _STORAGE_TYPE_STR_TO_ID:
            raise MXNetError("mx.sym.var(stype='%s'): the storage type must be 'default', 'csr' "
                             "or 'row_sparse'" % stype)
        attr['__storage_type__'] = str(_STORAGE_TYPE_STR_TO_ID[stype])
    if profiler_scope is not None:
        attr['__profiler_scope__'] = profiler_scope
    for k, v in kwargs.items():
        if k.startswith('__') and k.endswith('__'):
            attr[k] = str(v)
        else:
            raise ValueError('Attribute name=%s is not supported. Additional attributes must '
                             'start and end with double underscores, e.g, __yourattr__' % k)
    for v in attr.values():
        if not isinstance(v, string_types):
            raise ValueError('Attributes need to be string')
    return Symbol([(Node(None, name, _mirror_hidden(attr)), 0)])


Variable = var


def Group(symbols, create_fn=Symbol):
    """Creates a symbol that contains a collection of other symbols, grouped together.

    Parameters
    ----------
    symbols : list
        List of symbols to be grouped.

    Returns
    -------
    sym : Symbol
        A group symbol.
    """
    if not symbols or any(not isinstance(sym, Symbol) for sym in symbols):
        raise TypeError('Expected a list of symbols as input')
    outs = []
    for s in symbols:
        outs.extend(s._outputs)
    return create_fn(outs)


def load(fname):
    """Loads symbol from a JSON file.

    Parameters
    ----------
    fname : str
        The name of the file, examples:

        - `s3://my-bucket/path/my-s3-symbol`
        - `hdfs://my-bucket/path/my-hdfs-symbol`
        - `/path-to/my-local-symbol`

    Returns
    -------
    sym : Symbol
        The loaded symbol.
    """
    if not isinstance(fname, string_types):
        raise TypeError('fname required to be string')
    from .json_format import graph_from_json
    with open(fname, 'rb') as f:
        return Symbol(graph_from_json(f.read(), fname))


def load_json(json_str):
    """Loads symbol from json string (any MXNet JSON generation).

    Parameters
    ----------
    json_str : str
        A JSON string.

    Returns
    -------
    sym : Symbol
        The loaded symbol.
    """
    from .json_format import graph_from_json
    if not isinstance(json_str, string_types):
        raise TypeError('json_str required to be string')
    return Symbol(graph_from_json(json_str))

