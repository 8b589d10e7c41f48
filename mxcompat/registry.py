"""Registry of named subclasses (``mx.registry``): a factory per base class, as MXNet keeps
one for token embeddings and other serializable objects."""
import json
import warnings

from .base import MXNetAssertionError

__all__ = ['get_registry', 'get_register_func', 'get_alias_func', 'get_create_func']

_REGISTRY = {}  # base class -> {lower-case name: subclass}


def _table(base_class):
    return _REGISTRY.setdefault(base_class, {})


def get_registry(base_class):
    """Get a copy of the registry.

    Parameters
    ----------
    base_class : type
        base class for classes that will be registered.

    Returns
    -------
    dict of str to type
        The registered classes by their lower-case names.
    """
    return dict(_table(base_class))


def get_register_func(base_class, nickname):
    """Get registrator function.

    Parameters
    ----------
    base_class : type
        base class for classes that will be registered
    nickname : str
        nickname of base_class for logging

    Returns
    -------
    a registrator function ``register(klass, name=None)``
    """
    table = _table(base_class)

    def register(klass, name=None):
        if not (isinstance(klass, type) and issubclass(klass, base_class)):
            raise MXNetAssertionError('Can only register subclass of %s, not %r'
                                 % (base_class.__name__, klass))
        name = (klass.__name__ if name is None else name).lower()
        old = table.get(name)
        if old is not None:
            warnings.warn('New %s %s.%s registered with name %s is overriding existing %s %s.%s'
                          % (nickname, klass.__module__, klass.__name__, name, nickname,
                             old.__module__, old.__name__), UserWarning, stacklevel=2)
        table[name] = klass
        return klass

    register.__doc__ = 'Register %s to the %s factory' % (nickname, nickname)
    return register


def get_alias_func(base_class, nickname):
    """Get registrator function that allow aliases.

    Parameters
    ----------
    base_class : type
        base class for classes that will be registered
    nickname : str
        nickname of base_class for logging

    Returns
    -------
    a function ``alias(*names)`` returning a class decorator that registers every name
    """
    register = get_register_func(base_class, nickname)

    def alias(*aliases):
        def reg(klass):
            for name in aliases:
                register(klass, name)
            return klass
        return reg
    return alias


def get_create_func(base_class, nickname):
    """Get creator function

    Parameters
    ----------
    base_class : type
        base class for classes that will be registered
    nickname : str
        nickname of base_class for logging

    Returns
    -------
    a creator function ``create(name, *args, **kwargs)``: ``name`` is a registered name (any
    case), an instance (returned as is), a dict of keyword arguments, or the JSON of
    ``[name, kwargs]`` or of such a dict
    """
    table = _table(base_class)

    def create(*args, **kwargs):
        if args:
            name, args = args[0], args[1:]
        else:
            name = kwargs.pop(nickname)
        if isinstance(name, base_class):
            if args or kwargs:
                raise MXNetAssertionError('%s is already an instance. Additional arguments are '
                                     'invalid' % nickname)
            return name
        if isinstance(name, dict):
            return create(**name)
        if not isinstance(name, str):
            raise MXNetAssertionError('%s must be of string type, not %r' % (nickname, name))
        if name.startswith(('[', '{')):
            if args or kwargs:
                raise MXNetAssertionError('a JSON %s takes no further arguments' % nickname)
            spec = json.loads(name)
            return create(*spec[:1], **spec[1]) if name[0] == '[' else create(**spec)
        klass = table.get(name.lower())
        if klass is None:
            raise MXNetAssertionError('%s is not registered. Please register with %s.register first'
                                 % (name.lower(), nickname))
        return klass(*args, **kwargs)

    create.__doc__ = ('Create a %s instance from config: a registered name (with the '
                      "constructor's arguments), an instance (returned as is), a dict or "
                      'JSON.' % nickname)
    return create
