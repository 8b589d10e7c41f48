"""``mxcompat scan``: which MXNet APIs a codebase uses, and whether mxcompat supports each.

The scan is static: Python files (and the code cells of ``.ipynb`` notebooks) are parsed with
``ast``, never imported or run, and ``-symbol.json`` files are read as JSON. A use of MXNet is

* an import: ``import mxnet``, ``import mxnet.gluon.nn as nn``, ``from mxnet import nd`` (under
  any alias; relative imports inside MXNet's own package tree count too);
* an attribute chain rooted at such a name (``mx.gluon.nn.Dense``, ``nd.relu``), or a name
  imported from MXNet (``Dense`` after ``from mxnet.gluon.nn import Dense``);
* ``F.X`` inside ``hybrid_forward(self, F, ...)`` (and in any function with a parameter named
  ``F``), where F is ``mx.nd`` or ``mx.sym``: supported only when both define X;
* a class deriving from an MXNet class (through any number of the project's own classes), the
  methods of the MXNet class it overrides, and the inherited attributes it reads on ``self``;
* a keyword argument passed to an MXNet callable;
* an operator (and its attributes) named in a ``-symbol.json`` file.

Each API is resolved against mxcompat itself: the name is looked up in the mxcompat package
(importing mxcompat's modules, never the scanned code), operators in the operator table
(``mxcompat/ops/registry.py``), keyword arguments against the operator's parameters or the
callable's signature. A keyword argument an operator of mxcompat does not take is unsupported
when MXNet 1.9.1's operator takes it (mxcompat raises NotImplementedError naming both), else not
an MXNet 1.9.1 API; one a Python callable of mxcompat does not take is unsupported (TypeError:
MXNet's Python signatures are not in the API table -- the parameter names of its 2,700
non-operator functions and constructors would about double it -- so such a keyword is not told
apart from one MXNet's callable rejects too). A name mxcompat defines as a stub raising NotImplementedError (the
names of ``mxcompat/ndarray/unsupported.py``, sparse storage, ...) is unsupported with the
message mxcompat raises; so is a name of MXNet 1.9.1 that mxcompat does not define (its
modules raise NotImplementedError naming it: ``mxcompat/utils/mxnet_api.py``). A name that
neither mxcompat nor MXNet 1.9.1 defines (code for another MXNet version, a typo, an operator
of a plugin) is reported as not an MXNet 1.9.1 API. An attribute of a class (read on ``self``
in a subclass, or through the class) that mxcompat's class lacks is looked up in MXNet 1.9.1's
class (and its bases): a private one (``_some_state``) there is internal -- not public API,
never failing the scan --, a public one unsupported, and one MXNet's class lacks too is not an
MXNet 1.9.1 API. ``mxcompat/differences.py`` lists the supported APIs with a documented
difference.

The JSON report follows ``mxcompat/tools/scan_schema.json``.
"""
import ast
import html
import importlib
import inspect
import json
import os
import re
import sys
import time
import types
import warnings
from collections import Counter, defaultdict

from ..utils.mxnet_api import (MXNET_VERSION, class_defines, is_operator, missing_argument,
                                missing_operator)

__all__ = ['scan', 'Resolver', 'report', 'format_text', 'format_html', 'add_arguments', 'run',
           'SUPPORTED', 'DIFFERENCE', 'UNSUPPORTED', 'NOT_IN_MXNET', 'INTERNAL']

SUPPORTED = 'supported'
DIFFERENCE = 'difference'
UNSUPPORTED = 'unsupported'
NOT_IN_MXNET = 'not_in_mxnet'
INTERNAL = 'internal'
STATUSES = (UNSUPPORTED, NOT_IN_MXNET, INTERNAL, DIFFERENCE, SUPPORTED)
_ORDER = {s: i for i, s in enumerate(STATUSES)}
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'scan_schema.json')

_SKIP_DIRS = frozenset(('__pycache__', 'node_modules', '.git', '.hg', '.svn', '.tox',
                        '.ipynb_checkpoints'))
_SYMBOL_OP = re.compile(r'"op"\s*:\s*"([^"]+)"')


# --------------------------------------------------------------------------- reading files

def _files(paths):
    """Yield ``(file path, display path)`` for the files to scan under ``paths``."""
    for root in paths:
        if os.path.isfile(root):
            yield root, root
            continue
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith('.'))
            for name in sorted(files):
                if name.endswith(('.py', '.ipynb', 'symbol.json')):
                    path = os.path.join(dirpath, name)
                    yield path, os.path.normpath(path)


def _module_name(path, cache):
    """Dotted module name of a Python file: its package chain (directories holding
    ``__init__.py``), or, inside a directory named ``mxnet``, the path from there on (MXNet's
    own source tree, where relative imports reach MXNet's modules)."""
    path = os.path.abspath(path)
    parts = path[:-3].split(os.sep)
    if 'mxnet' in parts[:-1]:
        i = len(parts) - 2 - parts[-2::-1].index('mxnet')
        name = parts[i:]
    else:
        name = [parts[-1]]
        d = os.path.dirname(path)
        while True:
            has = cache.get(d)
            if has is None:
                has = cache[d] = os.path.isfile(os.path.join(d, '__init__.py'))
            if not has:
                break
            name.insert(0, os.path.basename(d))
            d = os.path.dirname(d)
    if name[-1] == '__init__':
        return '.'.join(name[:-1]), True
    return '.'.join(name), False


def _notebook_cells(text):
    """The code cells of a notebook as sources, IPython magics and shell lines blanked."""
    nb = json.loads(text)
    cells = nb.get('cells')
    if cells is None:  # nbformat 3
        cells = [c for ws in nb.get('worksheets', ()) for c in ws.get('cells', ())]
    out = []
    for i, cell in enumerate(cells):
        if cell.get('cell_type') != 'code':
            continue
        src = cell.get('source', cell.get('input', ''))
        if isinstance(src, list):
            src = ''.join(src)
        lines = [('' if ln.lstrip().startswith(('%', '!', '?')) else ln)
                 for ln in src.split('\n')]
        out.append((i, '\n'.join(lines)))
    return out


# --------------------------------------------------------------------------- the AST pass

class _Class:
    """A class defined in the scanned code."""
    __slots__ = ('qualname', 'file', 'cell', 'line', 'bases', 'methods', 'assigned',
                 'self_refs')

    def __init__(self, qualname, file, cell, line):
        self.qualname = qualname
        self.file = file
        self.cell = cell
        self.line = line
        self.bases = []        # ('mx', raw api) | ('local', dotted name) | ('other', None)
        self.methods = {}      # name -> line
        self.assigned = set()  # attributes the class body or self.X = ... defines
        self.self_refs = []    # (attribute, line) read on self


class _Visitor(ast.NodeVisitor):
    """Collects the MXNet uses of one module (see the module docstring)."""

    def __init__(self, modname, is_pkg, file, cell, uses, classes):
        self.package = modname if is_pkg else modname.rpartition('.')[0]
        self.modname = modname
        self.file = file
        self.cell = cell
        self.uses = uses
        self.classes = classes
        self.alias = {}      # local name -> raw MXNet path ('mxnet.gluon.nn')
        self.from_names = set()  # names bound by `from mxnet... import name`
        self.local = {}      # local name -> dotted name of a non-MXNet import
        self.defined = {}    # class name defined in this module -> qualname
        self.fnames = frozenset()
        self.cls = None
        self.selfname = None

    _dispatch = {}  # node class -> unbound visit method

    def visit(self, node):
        cls = node.__class__
        method = self._dispatch.get(cls)
        if method is None:
            method = self._dispatch[cls] = getattr(_Visitor, 'visit_' + cls.__name__,
                                                   _Visitor.generic_visit)
        method(self, node)

    def generic_visit(self, node):
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
            elif isinstance(value, ast.AST):
                self.visit(value)

    def emit(self, api, kind, line):
        self.uses.append((api, kind, self.file, line, self.cell))

    # imports
    def visit_Import(self, node):
        for a in node.names:
            name = a.name
            if name == 'mxnet' or name.startswith('mxnet.'):
                self.emit(name, 'import', node.lineno)
                if a.asname:
                    self.alias[a.asname] = name
                else:
                    self.alias['mxnet'] = 'mxnet'
            else:
                self.local[a.asname or name.partition('.')[0]] = \
                    name if a.asname else name.partition('.')[0]

    def visit_ImportFrom(self, node):
        mod = node.module or ''
        if node.level:
            base = self.package.split('.') if self.package else []
            if node.level > 1:
                base = base[:len(base) - node.level + 1]
            mod = '.'.join(base + ([mod] if mod else []))
        is_mx = mod == 'mxnet' or mod.startswith('mxnet.')
        for a in node.names:
            if a.name == '*':
                if is_mx:
                    self.emit(mod, 'import', node.lineno)
                continue
            full = mod + '.' + a.name if mod else a.name
            bound = a.asname or a.name
            if is_mx:
                self.emit(full, 'import', node.lineno)
                self.alias[bound] = full
                self.from_names.add(bound)
            else:
                self.local[bound] = full
                self.alias.pop(bound, None)

    # names and attribute chains
    def _chain(self, node):
        """(raw api, root Name) of an attribute chain or name bound to MXNet or F, or None."""
        parts = []
        while type(node) is ast.Attribute:
            parts.append(node.attr)
            node = node.value
        if type(node) is not ast.Name:
            return None
        root = node.id
        base = self.alias.get(root)
        if base is None:
            if root in self.fnames and parts:
                base = 'F'
            else:
                return None
        elif not parts and root not in self.from_names:
            return None  # a module alias used bare (`f(mx)`) names no API
        parts.append(base)
        return '.'.join(reversed(parts))

    def visit_Attribute(self, node):
        api = self._chain(node)
        if api is not None:
            self.emit(api, 'F' if api.startswith('F.') else 'attribute', node.lineno)
            return
        value = node.value
        while type(value) is ast.Attribute:
            value = value.value
        if type(value) is ast.Name:
            cls = self.cls
            if cls is not None and value.id == self.selfname:
                first = node
                while type(first.value) is ast.Attribute:
                    first = first.value
                if type(first.ctx) is ast.Load or first is not node:
                    cls.self_refs.append((first.attr, node.lineno))
                else:
                    cls.assigned.add(first.attr)
            return
        self.visit(value)

    def visit_Name(self, node):
        if type(node.ctx) is ast.Load and node.id in self.from_names:
            api = self.alias.get(node.id)
            if api is not None:
                self.emit(api, 'name', node.lineno)
        elif type(node.ctx) is ast.Store and node.id in self.alias:
            del self.alias[node.id]  # rebound: no longer the MXNet name

    def visit_Call(self, node):
        api = self._chain(node.func)
        if api is not None:
            for kw in node.keywords:
                if kw.arg is not None:
                    self.emit('%s(%s=)' % (api, kw.arg), 'keyword', kw.value.lineno)
        elif self.cls is not None and type(node.func) is ast.Name and node.func.id == 'setattr' \
                and len(node.args) >= 2 and type(node.args[1]) is ast.Constant \
                and type(node.args[0]) is ast.Name and node.args[0].id == self.selfname:
            self.cls.assigned.add(node.args[1].value)
        self.generic_visit(node)

    # definitions
    def _base(self, expr):
        parts = []
        node = expr
        while type(node) is ast.Attribute:
            parts.append(node.attr)
            node = node.value
        if type(node) is not ast.Name:
            return ('other', None)
        api = self._chain(expr)
        if api is not None and not api.startswith('F.'):
            return ('mx', api)
        root = node.id
        if root in self.local:
            parts.append(self.local[root])
        elif root in self.defined:
            parts.append(self.defined[root])
        else:
            return ('other', None) if root != 'object' else ('object', None)
        return ('local', '.'.join(reversed(parts)))

    def visit_ClassDef(self, node):
        qual = '%s.%s' % (self.modname, node.name)
        info = _Class(qual, self.file, self.cell, node.lineno)
        for b in node.bases:
            kind, ref = self._base(b)
            info.bases.append((kind, ref))
            if kind == 'mx':
                self.emit(ref, 'subclass', b.lineno)
            else:
                self.visit(b)
        for k in node.keywords:
            self.visit(k)
        for d in node.decorator_list:
            self.visit(d)
        self.defined[node.name] = qual
        self.classes.append(info)
        outer = self.cls, self.selfname
        self.cls, self.selfname = info, None
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                info.methods[stmt.name] = stmt.lineno
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                    if type(t) is ast.Name:
                        info.assigned.add(t.id)
            self.visit(stmt)
        self.cls, self.selfname = outer

    def visit_FunctionDef(self, node):
        args = node.args
        for d in node.decorator_list:
            self.visit(d)
        for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit(d)
        names = [a.arg for a in args.posonlyargs + args.args]
        outer = self.fnames, self.selfname, self.alias
        fnames = self.fnames
        if node.name == 'hybrid_forward' and len(names) >= 2:
            fnames = fnames | {names[1]}
        if 'F' in names or 'F' in [a.arg for a in args.kwonlyargs]:
            fnames = fnames | {'F'}
        self.fnames = fnames
        if self.cls is not None and self.selfname is None and names:
            self.selfname = names[0]  # a method of the class being visited
        elif self.selfname is not None and self.selfname in names:
            self.selfname = None
        self.alias = {k: v for k, v in self.alias.items() if k not in names}
        for stmt in node.body:  # imports inside the function stay local to it
            self.visit(stmt)
        self.fnames, self.selfname, self.alias = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Constant(self, node):
        pass  # (NodeVisitor's own visit_Constant is a slow compatibility shim)




def _scan_symbol_json(text, file, uses):
    """Operator names (and their attribute names) of an MXNet ``-symbol.json`` file,
    including those of subgraphs (fused operators)."""
    graph = json.loads(text)
    if not isinstance(graph, dict) or not isinstance(graph.get('nodes'), list):
        return False
    lines = []  # the line of each "op": entry, in file order
    pos, line = 0, 1
    for m in _SYMBOL_OP.finditer(text):
        line += text.count('\n', pos, m.start())
        pos = m.start()
        lines.append(line)
    k = 0

    def walk(nodes):  # in document order: a node's "op", then its subgraphs
        nonlocal k
        for node in nodes:
            if not isinstance(node, dict) or not isinstance(node.get('op'), str):
                continue
            op = node['op']
            ln = lines[k] if k < len(lines) else 1
            k += 1
            if op != 'null':
                uses.append(('op:' + op, 'symbol-json', file, ln, None))
                attrs = node.get('attrs', node.get('attr', node.get('param'))) or {}
                for a in attrs:
                    if not a.startswith('__'):
                        uses.append(('op:%s(%s=)' % (op, a), 'keyword', file, ln, None))
            for sub in node.get('subgraphs', ()):
                walk(sub.get('nodes', ()) if isinstance(sub, dict) else ())

    walk(graph['nodes'])
    return True


# --------------------------------------------------------------------------- resolution

def _is_stub(fn):
    """Whether ``fn`` is a function whose body only raises NotImplementedError with a
    message (mxcompat's way of defining an unsupported name); abstract methods, which raise
    it without one, are not stubs."""
    code = getattr(fn, '__code__', None)
    if code is None or 'NotImplementedError' not in code.co_names:
        return False
    try:
        tree = ast.parse(_dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    fdef = tree.body[0]
    if not isinstance(fdef, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = fdef.body
    if body and type(body[0]) is ast.Expr and type(body[0].value) is ast.Constant:
        body = body[1:]
    if len(body) != 1 or type(body[0]) is not ast.Raise:
        return False
    exc = body[0].exc
    return type(exc) is ast.Call and type(exc.func) is ast.Name \
        and exc.func.id == 'NotImplementedError' and bool(exc.args)


def _self_stores(tree):
    """The attributes assigned on ``self`` anywhere in ``tree``."""
    return {node.attr for node in ast.walk(tree)
            if type(node) is ast.Attribute and type(node.ctx) is ast.Store
            and type(node.value) is ast.Name and node.value.id == 'self'}


def _dedent(src):
    lines = src.split('\n')
    indent = len(lines[0]) - len(lines[0].lstrip())
    return '\n'.join(ln[indent:] for ln in lines)


def _forwards(fn, name):
    """Whether the constructor ``fn`` only passes its ``**name`` on to another ``__init__``
    (so the next constructor in the MRO decides which keywords are accepted)."""
    try:
        tree = ast.parse(_dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    passed = used = 0
    for node in ast.walk(tree):
        if type(node) is ast.Call and type(node.func) is ast.Attribute \
                and node.func.attr == '__init__':
            passed += sum(1 for k in node.keywords if k.arg is None
                          and type(k.value) is ast.Name and k.value.id == name)
        elif type(node) is ast.Name and node.id == name:
            used += 1
    return passed > 0 and passed == used


def _stub_message(fn):
    """What calling the stub ``fn`` raises (its body only raises, so any arguments do)."""
    try:
        sig = inspect.signature(fn)
        args = [None for p in sig.parameters.values()
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                       p.POSITIONAL_OR_KEYWORD)]
        fn(*args)
    except NotImplementedError as err:
        return str(err)
    except Exception as err:  # a stub that fails otherwise still is one
        return '%s: %s' % (type(err).__name__, err)
    return None


class Resolver:
    """Resolves raw API names found by the scan against mxcompat.

    ``resolve(raw, kind)`` returns ``(api, module, status, reason, raises)``: the
    canonical API name, the module it belongs to, its status, mxcompat's reason when it is
    not plainly supported, and the exception mxcompat raises for an unsupported API
    ('NotImplementedError', 'AttributeError', 'MXNetError' or 'TypeError').
    """

    def __init__(self):
        import mxcompat
        from ..ops import registry
        from ..ndarray import register as nd_register
        from ..symbol import register as sym_register
        from .. import differences
        self.root = mxcompat
        self.ops = registry.all_ops()
        self.differences = differences
        self.op_of_fn = {}  # id(generated mx.nd / mx.sym function) -> OpDef
        for name, op in self.ops.items():
            space, public = nd_register.namespace_of(name)
            for reg in (nd_register, sym_register):
                for ns, fname in ((space, public), ('_internal', name)):
                    fn = reg.functions(ns).get(fname)
                    if fn is not None:
                        self.op_of_fn[id(fn)] = op
        self.cache = {}
        self.stubs = {}
        self.instance_attrs = {}

    # looking names up
    def _lookup(self, parts):
        """Walk ``parts`` (after 'mxnet') from the mxcompat package. Returns
        ``(obj, canonical mxcompat path, module path, None)`` or, when a name is missing or
        its lookup raises, ``(None, path so far, module path, (status, raises, reason))``:
        unsupported for a name of MXNet 1.9.1 (mxcompat's modules raise NotImplementedError
        for those they lack) or an attribute an mxcompat class lacks, not in MXNet for a name
        no module of either defines."""
        obj = self.root
        mod = 'mxcompat'
        path = 'mxcompat'
        for i, p in enumerate(parts):
            try:
                nxt = getattr(obj, p)
            except NotImplementedError as err:
                return None, '.'.join([path] + parts[i:]), mod, (
                    UNSUPPORTED, 'NotImplementedError', str(err))
            except AttributeError:
                nxt = None
                if isinstance(obj, types.ModuleType):
                    try:
                        nxt = importlib.import_module(obj.__name__ + '.' + p)
                    except NotImplementedError as err:
                        return None, '.'.join([path] + parts[i:]), mod, (
                            UNSUPPORTED, 'NotImplementedError', str(err))
                    except ImportError:
                        nxt = None
                if nxt is None:
                    if isinstance(obj, type) and p in self._instance_attrs(obj) \
                            and i == len(parts) - 1:
                        return True, path + '.' + p, mod, None
                    if isinstance(obj, types.ModuleType):
                        return None, '.'.join([path] + parts[i:]), mod, (
                            NOT_IN_MXNET, 'AttributeError',
                            'not an MXNet %s API: neither MXNet %s nor mxcompat defines %r in '
                            'module %s' % (MXNET_VERSION, MXNET_VERSION, p, _mx(path)))
                    return None, '.'.join([path] + parts[i:]), mod, \
                        _missing_member(obj, path, p)
            if isinstance(nxt, types.ModuleType):
                mod = path = nxt.__name__
            else:
                path = path + '.' + p
            obj = nxt
        return obj, path, mod, None

    def _instance_attrs(self, cls):
        """Attributes the mxcompat classes in ``cls``'s MRO assign on ``self``, in their
        methods or in the functions of their module that take a ``self`` parameter (helpers
        the methods call, such as the constructor shared by the convolution layers)."""
        found = self.instance_attrs.get(cls)
        if found is not None:
            return found
        found = set()
        for klass in cls.__mro__:
            if not klass.__module__.startswith('mxcompat'):
                continue
            try:
                tree = ast.parse(_dedent(inspect.getsource(klass)))
            except (OSError, TypeError, SyntaxError):
                continue
            found.update(_self_stores(tree))
            found.update(getattr(klass, '__slots__', ()))
            found.update(self._helper_attrs(klass.__module__))
        self.instance_attrs[cls] = found
        return found

    def _helper_attrs(self, modname):
        """Attributes the module-level functions of ``modname`` with a ``self`` parameter
        assign on ``self``."""
        found = self.instance_attrs.get(modname)
        if found is None:
            found = self.instance_attrs[modname] = set()
            try:
                tree = ast.parse(inspect.getsource(sys.modules[modname]))
            except (OSError, TypeError, SyntaxError, KeyError):
                return found
            for fn in tree.body:
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                        'self' in [a.arg for a in fn.args.args]:
                    found.update(_self_stores(fn))
        return found

    def _stub(self, obj):
        """mxcompat's NotImplementedError message when ``obj`` is an unsupported stub (a
        function, or a class whose constructor is one), else None."""
        key = id(obj)
        if key in self.stubs:
            return self.stubs[key][1]
        msg = None
        if isinstance(obj, type):
            init = obj.__dict__.get('__init__') or next(
                (k.__dict__['__init__'] for k in obj.__mro__ if '__init__' in k.__dict__), None)
            if init is not None and _is_stub(init):
                try:
                    obj()
                except NotImplementedError as err:
                    msg = str(err)
                except Exception:  # noqa: BLE001 -- needs arguments: not a stub
                    msg = None
        elif inspect.isfunction(obj) and _is_stub(obj):
            msg = _stub_message(obj)
        self.stubs[key] = (obj, msg)
        return msg

    # statuses
    def _status(self, obj, path, kind):
        """(status, reason, raises) of a name that exists in mxcompat. A method that a
        subclass overrides is supported (the subclass defines it); a member a subclass reads
        on self carries no difference of its class."""
        if kind == 'override':
            return SUPPORTED, None, None
        op = self.op_of_fn.get(id(obj))
        if obj is not True:
            msg = self._stub(obj if op is None else op.fn)
            if msg is not None:
                return UNSUPPORTED, msg, 'NotImplementedError'
        if kind == 'inherited':
            return SUPPORTED, None, None
        diff = self.differences.of_operator(op) if op is not None else None
        diff = diff or self.differences.of_path(path)
        if diff:
            return DIFFERENCE, diff, None
        return SUPPORTED, None, None

    def _keyword(self, obj, kw):
        """Whether the mxcompat callable ``obj`` takes the keyword argument ``kw``; None when
        ``obj`` is not callable."""
        op = self.op_of_fn.get(id(obj))
        if op is not None:  # operators without parameters ignore keywords, as in MXNet
            if not op.params or kw in op.params or kw in ('name', 'attr', 'out') or \
                    kw in [i.lstrip('*') for i in op.inputs]:
                return True
        if not callable(obj):
            return None
        inits = [obj] if not isinstance(obj, type) else \
            [k.__dict__['__init__'] for k in obj.__mro__ if '__init__' in k.__dict__]
        for fn in inits:
            try:
                params = inspect.signature(fn).parameters
            except (TypeError, ValueError):
                return True
            p = params.get(kw)
            if p is not None and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
                return True
            var = [q.name for q in params.values() if q.kind is q.VAR_KEYWORD]
            if not var or op is not None:
                return False
            if not _forwards(fn, var[0]):
                return True  # the callable reads its **kwargs itself
        return True

    def resolve(self, raw, kind=None):
        """Resolve the raw API name of a use of ``kind`` ('override': the scanned code
        defines it; 'inherited': read on ``self`` in a subclass); None for a keyword argument
        of an unsupported callable, which is reported as that callable."""
        key = (raw, kind if kind in ('override', 'inherited') else None)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = self._resolve(raw, key[1])
            if key[1] == 'inherited' and hit and \
                    (hit[3] or '').startswith('not defined by mxcompat'):
                hit = self.cache[key] = hit[:3] + (
                    'read on self, but defined neither by the scanned classes nor by '
                    "mxcompat's %s (an attribute the code never sets, or an MXNet internal "
                    'mxcompat lacks)' % hit[0].rpartition('.')[0], 'AttributeError')
        return hit

    def _resolve(self, raw, kind):
        kw = None
        if raw.endswith('=)'):
            raw, _, kw = raw[:-2].partition('(')
        if raw.startswith('op:'):
            return self._resolve_op(raw[3:], kw)
        if raw.startswith('F.'):
            return self._resolve_f(raw[2:], kw)
        parts = raw.split('.')[1:]
        obj, path, mod, err = self._lookup(parts)
        api, module = _mx(path), _mx(mod)
        if err is not None:
            status, raises, reason = err
            return None if kw else (api, module, status, reason, raises)
        status = self._status(obj, path, kind)
        if kw is None:
            return (api, module) + status
        if status[0] == UNSUPPORTED:
            return None  # the callable itself is reported
        if obj is not True and self._keyword(obj, kw) is False:
            op = self.op_of_fn.get(id(obj))
            if op is not None:
                return _op_keyword(api, module, op, kw)
            return (_kw(api, kw), module, UNSUPPORTED,
                    '%s takes no keyword argument %r in mxcompat' % (api, kw), 'TypeError')
        return _kw(api, kw), module, SUPPORTED, None, None  # the callable carries any difference

    def _resolve_f(self, rest, kw):
        """``F.X``: X must be defined by both mx.nd and mx.sym."""
        results = [self.resolve('mxnet.%s.%s%s' % (space, rest, '(%s=)' % kw if kw else ''))
                   for space in ('ndarray', 'symbol')]
        if None in results:
            return None
        worst = min(results, key=lambda r: _ORDER[r[2]])
        api = 'F.' + rest
        return _kw(api, kw), 'F (hybrid_forward)', worst[2], worst[3], worst[4]

    def _resolve_op(self, name, kw):
        api = 'op:' + name
        op = self.ops.get(name)
        if op is None:
            if kw:
                return None
            if is_operator(name):  # registry.get raises UnsupportedOperatorError
                return (api, 'symbol JSON', UNSUPPORTED, str(missing_operator(name)),
                        'NotImplementedError')
            return (api, 'symbol JSON', NOT_IN_MXNET,
                    'not an MXNet %s operator: registered neither by MXNet %s nor by mxcompat '
                    '(an operator of a plugin or of another MXNet version)'
                    % (MXNET_VERSION, MXNET_VERSION), 'MXNetError')
        msg = self._stub(op.fn)
        if msg is not None:
            return None if kw else (api, 'symbol JSON', UNSUPPORTED, msg, 'NotImplementedError')
        if kw is not None and op.params and kw not in op.params:
            return _op_keyword(api, 'symbol JSON', op, kw)
        diff = None if kw is not None else self.differences.of_operator(op)
        return _kw(api, kw), 'symbol JSON', DIFFERENCE if diff else SUPPORTED, diff, None


def _mx(path):
    return 'mxnet' + path[len('mxcompat'):]


def _missing_member(obj, path, name):
    """(status, raises, reason) of the attribute ``name`` that mxcompat's ``obj`` (at
    ``path``) lacks, by what MXNet 1.9.1's class of the same name defines (with its bases)."""
    api = _mx(path)
    found = None
    if isinstance(obj, type):
        found = class_defines(_mx('%s.%s' % (obj.__module__, obj.__qualname__)), name)
    if found is None:
        found = class_defines(api, name)
    if found is None:  # not a class of MXNet 1.9.1
        return (UNSUPPORTED, 'AttributeError',
                'not defined by mxcompat (attribute %s has no attribute %r)' % (api, name))
    if not found:
        return (NOT_IN_MXNET, 'AttributeError',
                "not an MXNet %s API: neither MXNet %s's %s (with its base classes) nor "
                "mxcompat's defines attribute %r" % (MXNET_VERSION, MXNET_VERSION, api, name))
    if name.startswith('_'):
        return (INTERNAL, 'AttributeError',
                "a private attribute of MXNet %s's %s (an implementation detail, not public "
                "API) that mxcompat's implementation does not have" % (MXNET_VERSION, api))
    return (UNSUPPORTED, 'AttributeError', "an attribute of MXNet %s's %s that mxcompat's "
            'class does not define' % (MXNET_VERSION, api))


def _op_keyword(api, module, op, kw):
    """The resolution of a keyword argument ``kw`` that mxcompat's operator ``op`` does not
    take: unsupported when MXNet 1.9.1's operator takes it, else not an MXNet API."""
    err = missing_argument(op.name, kw, None)
    if isinstance(err, NotImplementedError):
        return _kw(api, kw), module, UNSUPPORTED, str(err), 'NotImplementedError'
    return (_kw(api, kw), module, NOT_IN_MXNET,
            "not an MXNet %s API: neither MXNet %s's operator %s nor mxcompat's takes an "
            'argument %r' % (MXNET_VERSION, MXNET_VERSION, op.name, kw), 'MXNetError')


def _kw(api, kw):
    return api if kw is None else '%s(%s=)' % (api, kw)


# --------------------------------------------------------------------------- the scan

def _class_uses(classes, resolver, uses):
    """Uses of MXNet classes through the project's own subclasses: the MXNet methods a
    subclass overrides, and the inherited attributes it reads on ``self``."""
    by_name = {c.qualname: c for c in classes}
    memo = {}

    def ancestry(c, seen=()):
        """(MXNet base APIs, project classes in the chain, whether every base is known)."""
        if c.qualname in memo:
            return memo[c.qualname]
        mx_bases, chain, known = [], [c], True
        for kind, ref in c.bases:
            if kind == 'mx':
                mx_bases.append(ref)
            elif kind == 'local' and ref in by_name and ref not in seen:
                b, ch, k = ancestry(by_name[ref], seen + (c.qualname,))
                mx_bases.extend(b)
                chain.extend(ch)
                known = known and k
            elif kind != 'object':
                known = False
        memo[c.qualname] = mx_bases, chain, known
        return memo[c.qualname]

    children = defaultdict(list)
    for c in classes:
        for kind, ref in c.bases:
            if kind == 'local' and ref in by_name:
                children[ref].append(c)

    def descendants(c):
        out, todo, seen = [], list(children[c.qualname]), {c.qualname}
        while todo:
            k = todo.pop()
            if k.qualname not in seen:
                seen.add(k.qualname)
                out.append(k)
                todo.extend(children[k.qualname])
        return out

    for c in classes:
        mx_bases, chain, known = ancestry(c)
        if not mx_bases:
            continue
        bases = []
        for raw in mx_bases:
            obj = resolver._lookup(raw.split('.')[1:])[0]
            if isinstance(obj, type):
                bases.append((raw, obj))
        for name, line in c.methods.items():
            if name.startswith('__'):
                continue
            for raw, obj in bases:
                if hasattr(obj, name):
                    uses.append(('%s.%s' % (raw, name), 'override', c.file, line, c.cell))
                    break
        if not known or not bases:
            continue
        own = set()
        for k in chain + descendants(c):  # an abstract base reads what subclasses define
            own.update(k.methods)
            own.update(k.assigned)
        for name, line in c.self_refs:
            if name not in own and not name.startswith('__'):
                raw = next((r for r, o in bases if hasattr(o, name)
                            or name in resolver._instance_attrs(o)), bases[0][0])
                uses.append(('%s.%s' % (raw, name), 'inherited', c.file, line, c.cell))


def _scan_file(path, shown, uses, classes, errors, dircache):
    """Scan one file into ``uses`` and ``classes``; returns its number of lines, or None
    when it cannot be read."""
    try:
        with open(path, 'rb') as f:
            text = f.read().decode('utf-8', 'replace')
    except OSError as err:
        errors.append({'file': shown, 'message': str(err)})
        return None
    try:
        if path.endswith('.json'):
            _scan_symbol_json(text, shown, uses)
        elif path.endswith('.ipynb'):
            modname = os.path.splitext(os.path.basename(path))[0]
            visitor = _Visitor(modname, False, shown, None, uses, classes)
            for cell, src in _notebook_cells(text):  # one namespace, as in the kernel
                visitor.cell = cell
                try:
                    visitor.visit(ast.parse(src, shown))
                except SyntaxError as err:
                    errors.append({'file': shown, 'message': 'cell %d: %s' % (cell, err)})
        else:
            modname, is_pkg = _module_name(path, dircache)
            _Visitor(modname, is_pkg, shown, None, uses, classes).visit(ast.parse(text, shown))
    except (SyntaxError, ValueError, RecursionError) as err:
        errors.append({'file': shown, 'message': '%s: %s' % (type(err).__name__, err)})
    return text.count('\n') + 1


def scan(paths, resolver=None):
    """Scan ``paths`` (files or directories); returns the report as a dict (the JSON
    schema's)."""
    t0 = time.perf_counter()
    uses = []
    classes = []
    errors = []
    nfiles = nlines = 0
    dircache = {}
    with warnings.catch_warnings():  # the scanned code's invalid escapes and the like
        warnings.simplefilter('ignore')
        for path, shown in _files(paths):
            n = _scan_file(path, shown, uses, classes, errors, dircache)
            if n is not None:
                nfiles += 1
                nlines += n
    resolver = resolver or Resolver()
    _class_uses(classes, resolver, uses)
    return report(uses, resolver, paths, nfiles, nlines, errors, time.perf_counter() - t0)


def report(uses, resolver, paths, nfiles, nlines, errors, seconds):
    """Group raw uses by resolved API into the report dict."""
    apis = {}
    for raw, kind, file, line, cell in uses:
        found = resolver.resolve(raw, kind)
        if found is None:
            continue  # a keyword argument of an unsupported callable
        api, module, status, reason, raises = found
        entry = apis.get(api)
        if entry is None:
            entry = apis[api] = {'api': api, 'module': module, 'status': status,
                                 'reason': reason, 'raises': raises, 'count': 0,
                                 'kinds': Counter(), 'locations': []}
        entry['count'] += 1
        entry['kinds'][kind] += 1
        loc = {'file': file, 'line': line, 'kind': kind}
        if cell is not None:
            loc['cell'] = cell
        entry['locations'].append(loc)
    rows = sorted(apis.values(), key=lambda e: (_ORDER[e['status']], -e['count'], e['api']))
    modules = defaultdict(lambda: dict({s: 0 for s in STATUSES}, apis=0, uses=0))
    totals = {s: {'apis': 0, 'uses': 0} for s in STATUSES}
    for e in rows:
        e['kinds'] = dict(sorted(e['kinds'].items()))
        m = modules[e['module']]
        m['apis'] += 1
        m['uses'] += e['count']
        m[e['status']] += e['count']
        totals[e['status']]['apis'] += 1
        totals[e['status']]['uses'] += e['count']
    from .. import __version__
    return {
        'schema_version': 3,
        'mxcompat_api_version': __version__,
        'paths': list(paths),
        'files': nfiles,
        'lines': nlines,
        'seconds': round(seconds, 3),
        'errors': errors,
        'totals': dict(totals, apis=len(rows), uses=sum(e['count'] for e in rows)),
        'modules': [dict(module=k, **v) for k, v in
                    sorted(modules.items(), key=lambda kv: (-kv[1]['uses'], kv[0]))],
        'apis': rows,
    }


# --------------------------------------------------------------------------- output

def _where(loc):
    if 'cell' in loc:
        return '%s:cell %d:%d' % (loc['file'], loc['cell'], loc['line'])
    return '%s:%d' % (loc['file'], loc['line'])


# status -> (summary phrase, section title, module table column)
_TITLES = {
    SUPPORTED: ('supported', 'Supported', 'supported'),
    DIFFERENCE: ('with a documented difference', 'Supported with a documented difference',
                 'difference'),
    UNSUPPORTED: ('unsupported', 'Unsupported', 'unsupported'),
    NOT_IN_MXNET: ('not MXNet 1.9.1 APIs', 'Not MXNet 1.9.1 APIs (defined neither by MXNet '
                   '1.9.1 nor by mxcompat: code for another version, a typo, a plugin)',
                   'not in MXNet'),
    INTERNAL: ('MXNet internals', 'MXNet internals (private attributes of MXNet 1.9.1 classes, '
               "not public API, that mxcompat's classes do not have)", 'internal'),
}
_SHOWN = (SUPPORTED, DIFFERENCE, UNSUPPORTED, INTERNAL, NOT_IN_MXNET)  # summary, table order


def format_text(rep, max_locations=5):
    """The terminal summary of a report."""
    t = rep['totals']
    out = ['mxcompat scan: %d files, %d lines, %.2f s' % (rep['files'], rep['lines'],
                                                          rep['seconds']),
           '%d uses of %d MXNet APIs: %s' % (t['uses'], t['apis'], ', '.join(
               '%d %s (%d APIs)' % (t[s]['uses'], _TITLES[s][0], t[s]['apis'])
               for s in _SHOWN)), '']
    width = max([len(m['module']) for m in rep['modules']] + [6])
    out.append('%-*s %7s ' % (width, 'module', 'uses') + ' '.join(
        '%12s' % _TITLES[s][2] for s in _SHOWN))
    for m in rep['modules']:
        out.append('%-*s %7d ' % (width, m['module'], m['uses']) + ' '.join(
            '%12d' % m[s] for s in _SHOWN))
    for status in (UNSUPPORTED, NOT_IN_MXNET, INTERNAL, DIFFERENCE):
        title = _TITLES[status][1]
        rows = [e for e in rep['apis'] if e['status'] == status]
        if not rows:
            continue
        out += ['', '%s (%d APIs):' % (title, len(rows))]
        for e in rows:
            out.append('  %s  x%d  -- %s' % (e['api'], e['count'], e['reason']))
            locs = e['locations']
            out.append('      ' + ', '.join(_where(loc) for loc in locs[:max_locations])
                       + (', ... (%d more)' % (len(locs) - max_locations)
                          if len(locs) > max_locations else ''))
    for err in rep['errors']:
        out.append('not scanned: %s: %s' % (err['file'], err['message']))
    return '\n'.join(out)


_CSS = '''
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:72em;
color:#1d1d1f;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
.cards{display:flex;gap:1em;flex-wrap:wrap}
.card{border-radius:8px;padding:.8em 1.2em;min-width:11em}.card b{display:block;font-size:1.8em}
.unsupported{background:#fde2e1}.difference{background:#fff2cc}
.supported{background:#dff3e3}.not_in_mxnet{background:#ececec}.internal{background:#e6e0f3}.total{background:#e8eef9}
table{border-collapse:collapse;width:100%}td,th{padding:.25em .6em;border-bottom:1px solid #eee;
text-align:left;vertical-align:top}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
code{font:13px ui-monospace,Menlo,Consolas,monospace}
.tag{border-radius:4px;padding:0 .4em;font-size:.85em;white-space:nowrap}
details summary{cursor:pointer}details ul{margin:.3em 0 .6em;columns:2;font-size:.9em}
.bar{display:flex;height:10px;border-radius:5px;overflow:hidden;min-width:8em}
.bar span.supported{background:#4caf50}.bar span.difference{background:#f0b400}
.bar span.unsupported{background:#e5534b}.bar span.not_in_mxnet{background:#9e9e9e}
.bar span.internal{background:#8e7cc3}
.muted{color:#666}
'''


def format_html(rep):
    """A self-contained HTML page (inline CSS, no scripts, no network assets)."""
    e = html.escape
    t = rep['totals']
    h = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
         '<title>mxcompat scan report</title><style>%s</style></head><body>' % _CSS,
         '<h1>mxcompat scan report</h1>',
         '<p class="muted">%s &middot; %d files, %d lines &middot; scanned in %.2f s against '
         'mxcompat (MXNet %s API)</p>' % (e(' '.join(rep['paths'])), rep['files'],
                                           rep['lines'], rep['seconds'],
                                           e(rep['mxcompat_api_version'])),
         '<div class="cards">',
         '<div class="card total"><b>%d</b>uses of %d APIs</div>' % (t['uses'], t['apis'])]
    for status in _SHOWN:
        h.append('<div class="card %s"><b>%d</b>uses %s (%d APIs)</div>'
                 % (status, t[status]['uses'], _TITLES[status][0], t[status]['apis']))
    h.append('</div><h2>By module</h2><table><tr><th>module</th><th class="n">APIs</th>'
             '<th class="n">uses</th>%s<th></th></tr>'
             % ''.join('<th class="n">%s</th>' % _TITLES[s][2] for s in _SHOWN))
    for m in rep['modules']:
        n = max(m['uses'], 1)
        bar = ''.join('<span class="%s" style="width:%.1f%%"></span>' % (s, 100.0 * m[s] / n)
                      for s in _SHOWN)
        h.append('<tr><td><code>%s</code></td><td class="n">%d</td><td class="n">%d</td>%s'
                 '<td><div class="bar">%s</div></td></tr>'
                 % (e(m['module']), m['apis'], m['uses'],
                    ''.join('<td class="n">%d</td>' % m[s] for s in _SHOWN), bar))
    h.append('</table>')
    for status in STATUSES:
        title = _TITLES[status][1]
        rows = [r for r in rep['apis'] if r['status'] == status]
        h.append('<h2>%s <span class="muted">(%d APIs)</span></h2>' % (title, len(rows)))
        if not rows:
            h.append('<p class="muted">none</p>')
            continue
        h.append('<table><tr><th>API</th><th class="n">uses</th><th>%s</th></tr>'
                 % ('locations' if status == SUPPORTED else 'reason and locations'))
        for r in rows:
            kinds = ' '.join('<span class="tag %s">%s %d</span>' % (status, e(k), n)
                             for k, n in r['kinds'].items())
            locs = ''.join('<li><code>%s</code></li>' % e(_where(loc)) for loc in r['locations'])
            reason = '<div>%s</div>' % e(r['reason']) if r['reason'] else ''
            h.append('<tr><td><code>%s</code><br>%s</td><td class="n">%d</td><td>%s'
                     '<details><summary>%d location%s</summary><ul>%s</ul></details></td></tr>'
                     % (e(r['api']), kinds, r['count'], reason, len(r['locations']),
                        '' if len(r['locations']) == 1 else 's', locs))
        h.append('</table>')
    if rep['errors']:
        h.append('<h2>Files not scanned</h2><ul>%s</ul>' % ''.join(
            '<li><code>%s</code>: %s</li>' % (e(x['file']), e(x['message']))
            for x in rep['errors']))
    h.append('</body></html>')
    return '\n'.join(h)


# --------------------------------------------------------------------------- command line

def add_arguments(parser):
    """Add ``mxcompat scan``'s arguments to ``parser``."""
    parser.add_argument('paths', nargs='+', metavar='PATH',
                        help='Python files, notebooks, -symbol.json files or directories')
    parser.add_argument('--json', nargs='?', const='-', metavar='FILE',
                        help='write the report as JSON to FILE (stdout without FILE, instead '
                             'of the summary); schema: mxcompat/tools/scan_schema.json')
    parser.add_argument('--html', metavar='FILE',
                        help='write a self-contained HTML report to FILE')
    parser.add_argument('--fail-on', choices=('unsupported', 'differences', 'never'),
                        default='unsupported',
                        help='exit with status 1 when unsupported APIs (or, with differences, '
                             'also APIs with a documented difference) are used; names that '
                             'are not MXNet 1.9.1 APIs and MXNet internals never fail the '
                             'scan')
    parser.add_argument('--max-locations', type=int, default=5, metavar='N',
                        help='locations listed per API in the terminal summary')


def run(args):
    """Run a scan with parsed ``args``; returns the exit status."""
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        sys.stderr.write('mxcompat scan: no such file or directory: %s\n' % ', '.join(missing))
        return 2
    rep = scan(args.paths)
    if args.json == '-':
        json.dump(rep, sys.stdout, indent=1)
        sys.stdout.write('\n')
    else:
        print(format_text(rep, args.max_locations))
        if args.json:
            with open(args.json, 'w') as f:
                json.dump(rep, f, indent=1)
    if args.html:
        with open(args.html, 'w', encoding='utf-8') as f:
            f.write(format_html(rep))
    t = rep['totals']
    bad = {'unsupported': t[UNSUPPORTED]['uses'],
           'differences': t[UNSUPPORTED]['uses'] + t[DIFFERENCE]['uses'],
           'never': 0}[args.fail_on]
    return 1 if bad else 0
