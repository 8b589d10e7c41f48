"""The operator table: importing this package registers every operator module in it."""
import importlib
import pkgutil

from . import registry
from .registry import register, get, all_ops

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name not in ('registry', 'shape_rules', 'param_shapes') \
            and not _info.name.startswith('_'):
        importlib.import_module(__name__ + '.' + _info.name)
