"""Registries of named classes (``mx.registry``), as MXNet 1.9.1 has them.

A registry maps lower-case names to the subclasses of one base class. ``mx.init``,
``mx.metric`` and libraries built on MXNet (GluonNLP's registries, for example) make their
``register`` / ``alias`` / ``create`` functions with the functions here, so that a class
registered under a name can be created from that name, from a ``[name, kwargs]`` or
``{kwargs}`` JSON string (what ``Initializer.dumps()`` writes), from a dict, or passed through
as an instance.
"""
import json
import warnings

__all__ = ['get_registry', 'get_register_func', 'get_alias_func', 'get_create_func']

_REGISTRY = {}  # base class -> {lower-case name: class}


def _entries(base_class):
    return _REGISTRY.setdefault(base_class, {})


def get_registry(base_class):
    """Get a copy of the registry.

    Parameters
    ----------
    base_class : type
        base class for classes that will be registered.

    Returns
    -------
    dict
        The registered classes by name (a copy).
    """
    return _entries(base_class).copy()


def get_register_func(base_class, nickname):
    """Get registrator function.

    Parameters
    ----------
    base_class : type
        base class for classes that will be registered.
    nickname : str
        nickname of base_class for logging and error messages.

    Returns
    -------
    function
        ``register(klass, name=None)``: registers ``klass`` under ``name`` (default: the class
        name), lower-cased, with a warning when it replaces another class; returns ``klass``, so
        it serves as a class decorator.
    """
    registry = _entries(base_class)

    def register(klass, name=None):
        assert issubclass(klass, base_class), \
            "Can only register subclass of %s" % base_class.__name__
        name = (klass.__name__ if name is None else name).lower()
        old = registry.get(name)
        if old is not None:
            warnings.warn(
                "\033[91mNew %s %s.%s registered with name %s is"
                "overriding existing %s %s.%s\033[0m" % (
                    nickname, klass.__module__, klass.__name__, name,
                    nickname, old.__module__, old.__name__),
                UserWarning, stacklevel=2)
        registry[name] = klass
        return klass

    register.__doc__ = "Register %s to the %s factory" % (nickname, nickname)
    return register


def get_alias_func(base_class, nickname):
    """Get registrator function that allow aliases.

    Parameters
    ----------
    base_class : type
        base class for classes that will be registered.
    nickname : str
        nickname of base_class for logging and error messages.

    Returns
    -------
    function
        ``alias(*names)``: a class decorator registering the class under each of ``names``.
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
    """Get creator function.

    Parameters
    ----------
    base_class : type
        base class for classes that will be registered.
    nickname : str
        nickname of base_class; also the keyword ``create`` takes the name under.

    Returns
    -------
    function
        ``create(name, *args, **kwargs)``: an instance of the class registered as ``name``
        (case-insensitive), made with ``args`` and ``kwargs``. ``name`` may also be an
        instance of ``base_class`` (returned as it is), a dict of keyword arguments holding
        the name under ``nickname``, or a JSON string ``'["name", {kwargs}]'`` or
        ``'{"nickname": "name", ...}'``.
    """
    registry = _entries(base_class)

    def create(*args, **kwargs):
        if args:
            name, args = args[0], args[1:]
        else:
            name = kwargs.pop(nickname)
        if isinstance(name, base_class):
            assert not args and not kwargs, \
                "%s is already an instance. Additional arguments are invalid" % nickname
            return name
        if isinstance(name, dict):
            return create(**name)
        assert isinstance(name, str), "%s must be of string type" % nickname
        if name.startswith('['):
            assert not args and not kwargs
            name, kwargs = json.loads(name)
            return create(name, **kwargs)
        if name.startswith('{'):
            assert not args and not kwargs
            return create(**json.loads(name))
        name = name.lower()
        assert name in registry, \
            "%s is not registered. Please register with %s.register first" % (name, nickname)
        return registry[name](*args, **kwargs)

    create.__doc__ = """Create a %s instance from config.

Parameters
----------
%s : str or %s instance
    class name of desired instance. If is a instance,
    it will be returned directly.
**kwargs : dict
    arguments to be passed to constructor""" % (nickname, nickname, base_class.__name__)
    return create
