"""Generate the ``mx.sym`` functions from the operator table."""
from ..ndarray.register import namespace_of
from ..ops import registry
from .symbol import Symbol, compose_op

__all__ = ['functions', 'populate']


def make_function(op, func_name):
    """Build the mx.sym function for ``op`` under the name ``func_name``."""
    input_names = [n.lstrip('*') for n in op.inputs]
    param_names = list(op.params)

    def creator(*args, **kwargs):
        name = kwargs.pop('name', None)
        attr = kwargs.pop('attr', None)
        kwargs.pop('out', None)
        pos_inputs, kw_inputs, params = [], {}, {}
        if op.variadic and len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        extra = []
        skipped = False
        for i, a in enumerate(args):
            if extra or not (isinstance(a, Symbol) or
                             (a is None and not op.variadic and i < len(input_names))):
                extra.append(a)
            elif a is None:  # an absent optional input given by position (bias=None)
                skipped = True
            elif skipped and i < len(input_names):
                kw_inputs[input_names[i]] = a
            else:
                pos_inputs.append(a)
        if extra:
            if op.variadic:
                raise TypeError('%s: positional arguments must be Symbols' % func_name)
            free = [p for p in param_names if p not in kwargs]
            if len(extra) > len(free):
                raise TypeError('%s() takes at most %d positional parameters after its inputs'
                                % (func_name, len(free)))
            params.update(zip(free, extra))
        for k, v in kwargs.items():
            if isinstance(v, Symbol):
                if op.variadic:
                    pos_inputs.append(v)
                else:
                    kw_inputs[k] = v
            elif k in input_names and v is None:
                continue
            else:
                params[k] = v
        return compose_op(op, func_name, pos_inputs, kw_inputs, params, name, attr)

    creator.__name__ = func_name
    creator.__qualname__ = func_name
    creator.__doc__ = op.doc
    creator.__module__ = 'mxcompat.symbol'
    return creator


_NAMESPACES = None


def functions(namespace):
    """{public name: function} of one symbol namespace ('op', '_internal', 'contrib', ...)."""
    global _NAMESPACES
    if _NAMESPACES is None:
        spaces = {}
        for name, op in registry.all_ops().items():
            ns, public = namespace_of(name)
            spaces.setdefault(ns, {})[public] = make_function(op, public)
            if ns != '_internal' and name.startswith('_'):
                # its own function: MXNet names the node after the name it is called by
                spaces.setdefault('_internal', {})[name] = make_function(op, name)
        _NAMESPACES = spaces
    return _NAMESPACES.get(namespace, {})


def populate(module_globals, namespace):
    """Put the generated functions of ``namespace`` into a module's globals; returns names."""
    fns = functions(namespace)
    module_globals.update(fns)
    return sorted(fns)
