"""``mx.registry`` factories and ``mx.log`` loggers.

``record_registry(mx)`` registers classes of a fresh base class through MXNet's registry
functions and records what ``create`` makes from names, aliases, JSON strings, dicts and
instances, the warning on re-registration and the assertion messages; ``record_log(mx)`` records
the lines ``mx.log.get_logger`` writes (with the time, process id and path masked). The writer
runs both under real MXNet, the test under mxcompat.
"""
import json
import logging
import os
import re
import tempfile
import warnings


def _describe(obj):
    return [type(obj).__name__, getattr(obj, 'kwargs', None)]


def record_registry(mx):
    class Base(object):
        def __init__(self, **kwargs):
            self.kwargs = kwargs

    class Other(object):
        pass

    register = mx.registry.get_register_func(Base, 'thing')
    alias = mx.registry.get_alias_func(Base, 'thing')
    create = mx.registry.get_create_func(Base, 'thing')

    @register
    @alias('first', 'UNO')
    class FirstThing(Base):
        pass

    class SecondThing(Base):
        pass
    register(SecondThing, 'Second')

    out = {'registry': sorted((k, v.__name__) for k, v in
                              mx.registry.get_registry(Base).items())}
    made = {}
    for key, args, kwargs in [
            ('name', ('firstthing',), {'a': 1}),
            ('alias-upper', ('Uno',), {}),
            ('keyword', (), {'thing': 'second', 'b': 2}),
            ('json-list', ('["first", {"c": 3}]',), {}),
            ('json-dict', ('{"thing": "second", "d": [1, 2]}',), {}),
            ('dict', ({'thing': 'first', 'e': 'x'},), {})]:
        made[key] = _describe(create(*args, **kwargs))
    inst = SecondThing(f=1)
    made['instance'] = [create(inst) is inst]
    out['create'] = made
    errors = {}
    for key, call in [
            ('unknown', lambda: create('third')),
            ('instance-with-args', lambda: create(inst, 1)),
            ('not-a-string', lambda: create(3)),
            ('not-a-subclass', lambda: register(Other))]:
        try:
            call()
            errors[key] = None
        except AssertionError as err:
            errors[key] = str(err)
    out['errors'] = errors
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        register(SecondThing, 'first')
    out['warnings'] = [re.sub(r'\S*\.(\w+Thing)', r'\1', str(w.message)) for w in caught]
    out['doc'] = [register.__doc__, create.__doc__.split('\n')[0]]
    return out


def _mask(line):
    # time, process id and the path of the calling file vary between runs and machines
    line = re.sub(r'\d{4} \d\d:\d\d:\d\d \d+ ', 'T P ', line)
    return re.sub(r' \S*registry_log\.py:', ' FILE:', line)


_CALLS = [0]


def record_log(mx):
    _CALLS[0] += 1
    suffix = str(_CALLS[0])  # a logger is set up once per name: fresh names on each call
    out = {}
    stream_lines = []

    class Capture(logging.StreamHandler):
        def emit(self, record):
            stream_lines.append(self.format(record))

    logger = mx.log.get_logger('mxcompat_fixture_stream' + suffix, level=mx.log.INFO)
    handler = logger.handlers[0]
    formatter = handler.formatter
    capture = Capture()
    capture.setFormatter(formatter)
    logger.removeHandler(handler)
    logger.addHandler(capture)
    logger.info('hello %d', 1)
    logger.debug('not shown')
    logger.warning('careful')
    logger.error('broken')
    out['stream'] = [_mask(line) for line in stream_lines]
    out['same-logger'] = mx.log.get_logger('mxcompat_fixture_stream' + suffix, level=mx.log.DEBUG) \
        is logger
    out['level'] = logger.level
    out['root-untouched'] = mx.log.get_logger() is logging.getLogger()
    d = tempfile.mkdtemp()
    path = os.path.join(d, 'log.txt')
    flog = mx.log.get_logger('mxcompat_fixture_file' + suffix, filename=path, level=mx.log.WARNING)
    flog.warning('to file')
    flog.info('dropped')
    for h in flog.handlers:
        h.flush()
    with open(path) as f:
        out['file'] = f.read()
    out['levels'] = [mx.log.CRITICAL, mx.log.ERROR, mx.log.WARNING, mx.log.INFO,
                     mx.log.DEBUG, mx.log.NOTSET]
    return out


def write(mx, outdir):
    with open(os.path.join(outdir, 'registry_log.json'), 'w') as f:
        json.dump({'registry': record_registry(mx), 'log': record_log(mx)}, f, indent=1)
