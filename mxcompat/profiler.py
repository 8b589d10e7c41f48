"""Profiler (``mx.profiler``) on ``torch.profiler``.

``set_state('run')`` starts a ``torch.profiler.profile`` session and ``set_state('stop')`` ends
it; ``pause()`` / ``resume()`` end and start sessions. ``dump()`` writes a Chrome trace
(chrome://tracing, Perfetto) of the torch operators and of the Task / Frame / Event / Counter /
Marker objects; ``dumps()`` returns MXNet's aggregate statistics (table or JSON, times in ms).
Operators appear under MXNet's names (``FullyConnected``, ``_plus_scalar``, ``_zeros``) in the
'operator' category, with torch's timings: while a session runs, the ``mx.nd`` functions of the
operator table, the NDArray arithmetic that calls torch directly, the creation functions and the
lowered Symbol graphs (executors, hybridized blocks, which then run node by node rather than
compiled) open a ``record_function`` range named by the MXNet operator around their torch
calls; the torch operators inside a range count towards it. Their gradients appear as
``_backward_<name>``, matched to the forward operator by torch's autograd sequence numbers.
Torch operators called outside any MXNet operator keep their torch names (``aten::add``).
Outside a session nothing is wrapped, so profiling costs nothing then.
Task, Frame and Event ranges are also ``record_function`` ranges, so torch's own tools show them.
"""
import atexit
import json
import os
import threading
import time

import torch

from .utils.fileio import atomic_write_bytes
from .base import MXNetError

__all__ = ['set_config', 'profiler_set_config', 'set_state', 'profiler_set_state', 'dump',
           'dump_profile', 'dumps', 'pause', 'resume', 'Domain', 'Task', 'Frame', 'Event',
           'Counter', 'Marker', 'set_kvstore_handle', 'scope']

_CONFIG_KEYS = ('filename', 'profile_all', 'profile_symbolic', 'profile_imperative',
                'profile_memory', 'profile_api', 'continuous_dump', 'dump_period',
                'aggregate_stats', 'profile_process')
_SORT_KEYS = {'total': 'Total', 'avg': 'Avg', 'min': 'Min', 'max': 'Max', 'count': 'Count'}


def _as_bool(v):
    return v if isinstance(v, bool) else str(v).strip().lower() in ('true', '1')


class _State:
    """Everything recorded since the last reset, guarded by ``lock``."""
    def __init__(self):
        self.lock = threading.RLock()
        self.config = {'filename': 'profile.json', 'profile_all': False,
                       'profile_symbolic': True, 'profile_imperative': True,
                       'profile_memory': False, 'profile_api': False, 'aggregate_stats': False,
                       'continuous_dump': False, 'dump_period': 1.0, 'profile_process': 'worker'}
        self.running = False
        self.paused = False
        self.session = None     # (torch profile, epoch microseconds at its start)
        self.trace = []         # chrome trace events
        self.time_stats = {}    # domain -> name -> list of durations (ms)
        self.mem_stats = {}     # device -> list of allocation sizes (kB)
        self.user_ranges = set()
        self.custom_ranges = {}  # custom-operator range name -> prefix of the ops inside it

    def active(self):
        return self.running and not self.paused

    def start_session(self):
        _name_operators(True)
        activities = [torch.profiler.ProfilerActivity.CPU]
        if torch.cuda.is_available():
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        prof = torch.profiler.profile(
            activities=activities,
            profile_memory=_as_bool(self.config['profile_memory'])
            or _as_bool(self.config['profile_all']))
        prof.start()
        self.session = (prof, time.time() * 1e6)

    def end_session(self):
        if self.session is None:
            return
        prof, t0 = self.session
        self.session = None
        prof.stop()
        _name_operators(False)
        pid = os.getpid()
        events = prof.events()
        # autograd sequence number of a torch operator -> the MXNet operator that called it
        forward_ops = {}
        for e in events:
            if e.sequence_nr >= 0 and not e.name.startswith(_BACKWARD_EVENT):
                op = _calling_operator(e)
                if op is not None:
                    forward_ops[e.sequence_nr] = op
        for e in events:
            if e.name in self.user_ranges or e.name == '[memory]':
                continue  # recorded by the Task/Frame/Event objects themselves; allocations
            parent = e.cpu_parent
            if parent is not None and parent.name not in self.user_ranges:
                continue  # an operator called by another operator
            cat, name = 'operator', e.name
            if name.startswith(_BACKWARD_EVENT):
                forward = forward_ops.get(e.sequence_nr)
                if forward is not None:
                    name = '_backward_' + forward
            if parent is not None and parent.name in self.custom_ranges:
                # an operator run by a custom operator's Python code, named as MXNet does
                cat, name = 'Custom Operator', self.custom_ranges[parent.name] + '::' + name
            start = e.time_range.start
            dur = e.time_range.end - start
            self.trace.append({'name': name, 'cat': cat, 'ph': 'X', 'ts': t0 + start,
                               'dur': dur, 'pid': pid, 'tid': e.thread})
            self.time_stats.setdefault(cat, {}).setdefault(name, []).append(dur / 1e3)
            mem = getattr(e, 'cpu_memory_usage', 0)
            if mem > 0:
                self.mem_stats.setdefault('Memory: cpu/0', []).append(mem / 1e3)

    def harvest(self):
        """Move what the running session recorded into the trace and statistics."""
        if self.session is not None:
            self.end_session()
            self.start_session()


_state = _State()

# MXNet's operator names of the NDArray methods that call torch directly instead of an
# operator-table function: (name with an NDArray operand, name with a scalar operand)
_NDARRAY_METHODS = {
    '__add__': ('broadcast_add', '_plus_scalar'), '__radd__': ('broadcast_add', '_plus_scalar'),
    '__iadd__': ('broadcast_add', '_plus_scalar'),
    '__sub__': ('broadcast_sub', '_minus_scalar'), '__rsub__': ('broadcast_sub', '_rminus_scalar'),
    '__isub__': ('broadcast_sub', '_minus_scalar'),
    '__mul__': ('broadcast_mul', '_mul_scalar'), '__rmul__': ('broadcast_mul', '_mul_scalar'),
    '__imul__': ('broadcast_mul', '_mul_scalar'),
    '__truediv__': ('broadcast_div', '_div_scalar'),
    '__rtruediv__': ('broadcast_div', '_rdiv_scalar'),
    '__itruediv__': ('broadcast_div', '_div_scalar'),
    '__mod__': ('broadcast_mod', '_mod_scalar'), '__rmod__': ('broadcast_mod', '_rmod_scalar'),
    '__imod__': ('broadcast_mod', '_mod_scalar'),
    '__pow__': ('broadcast_power', '_power_scalar'),
    '__rpow__': ('broadcast_power', '_rpower_scalar'),
    '__neg__': ('_mul_scalar', '_mul_scalar'), '__abs__': ('abs', 'abs'),
    '__eq__': ('broadcast_equal', '_equal_scalar'),
    '__ne__': ('broadcast_not_equal', '_not_equal_scalar'),
    '__gt__': ('broadcast_greater', '_greater_scalar'),
    '__ge__': ('broadcast_greater_equal', '_greater_equal_scalar'),
    '__lt__': ('broadcast_lesser', '_lesser_scalar'),
    '__le__': ('broadcast_lesser_equal', '_lesser_equal_scalar'),
}
# ... and of the creation functions of mx.nd that do
_CREATION_FUNCTIONS = {'zeros': '_zeros', 'ones': '_ones', 'full': '_full'}
_BACKWARD_EVENT = 'autograd::engine::evaluate_function: '
_OP_NAMES = set()   # the names of the ranges that _name_operators opens
_SAVED = []         # (namespace, key, original, wrapper) while the ranges are installed


def _calling_operator(event):
    """The name of the outermost MXNet operator range around a torch event, or None."""
    name = None
    parent = event.cpu_parent
    while parent is not None:
        if parent.name in _OP_NAMES:
            name = parent.name
        parent = parent.cpu_parent
    return name


def naming():
    """Whether operators run inside ranges named by their MXNet operator (a profiling session
    is active): lowered Symbol graphs then run node by node to open them."""
    return bool(_SAVED)


def operator_range(name):
    """A ``record_function`` range for MXNet operator ``name``, counted as that operator."""
    _OP_NAMES.add(name)
    return torch.profiler.record_function(name)


def _named(fn, name):
    def call(*args, **kwargs):
        with torch.profiler.record_function(name):
            return fn(*args, **kwargs)
    return call


def _named_method(fn, array_name, scalar_name):
    from .ndarray.ndarray import NDArray

    def method(self, *args):
        name = array_name if args and isinstance(args[0], NDArray) else scalar_name
        with torch.profiler.record_function(name):
            return fn(self, *args)
    return method


def _install(namespace, key, wrapper):
    if isinstance(namespace, dict):
        original = namespace[key]
        namespace[key] = wrapper
    else:
        original = getattr(namespace, key)
        setattr(namespace, key, wrapper)
    _SAVED.append((namespace, key, original, wrapper))


def _name_operators(on):
    """Wrap (``on``) or unwrap the front ends' torch calls in ranges named by MXNet operator."""
    if not on:
        for namespace, key, original, wrapper in reversed(_SAVED):
            current = namespace.get(key) if isinstance(namespace, dict) \
                else getattr(namespace, key)
            if current is wrapper:  # left alone if replaced meanwhile (mx.contrib.amp.init)
                if isinstance(namespace, dict):
                    namespace[key] = original
                else:
                    setattr(namespace, key, original)
        del _SAVED[:]
        return
    if _SAVED:
        return
    from .ops import registry
    from .ndarray import ndarray as nd_module
    from . import ndarray as nd_namespace
    for op in {id(op): op for op in registry.all_ops().values()}.values():
        _OP_NAMES.add(op.name)
        for namespace in op.callers:
            for key in ('_fn', '_k') if '_k' in namespace else ('_fn',):  # (the kernel too)
                _install(namespace, key, _named(namespace[key], op.name))
    for method, (array_name, scalar_name) in _NDARRAY_METHODS.items():
        _OP_NAMES.update((array_name, scalar_name))
        _install(nd_module.NDArray, method, _named_method(
            nd_module.NDArray.__dict__[method], array_name, scalar_name))
    for fname, name in _CREATION_FUNCTIONS.items():
        _OP_NAMES.add(name)
        wrapper = _named(getattr(nd_module, fname), name)
        _install(nd_module, fname, wrapper)
        _install(nd_namespace, fname, wrapper)


@atexit.register
def _shutdown():
    # a torch profiler session left running at interpreter exit can crash the process
    with _state.lock:
        _state.running = False
        _state.end_session()


def set_kvstore_handle(handle):
    """Kept for API compatibility: mxcompat profiles the worker process only."""


def set_config(**kwargs):
    """Set up the configure of profiler (only accepts keyword arguments).

    Parameters
    ----------
    filename : string,
        output file for profile data
    profile_all : boolean,
        all profile types enabled
    profile_symbolic : boolean,
        whether to profile symbolic operators
    profile_imperative : boolean,
        whether to profile imperative operators
    profile_memory : boolean,
        whether to profile memory usage
    profile_api : boolean,
        whether to profile the C API
    continuous_dump : boolean,
        whether to periodically dump profiling data to file
    dump_period : float,
        seconds between profile data dumps
    aggregate_stats : boolean,
        whether to maintain aggregate stats in memory for console
        dump.  Has some negative performance impact.
    profile_process : string
        whether to profile kvstore `server` or `worker`.
        server can only be profiled when kvstore is of type dist.
        if this is not passed, defaults to `worker`
    """
    for key in kwargs:
        if key not in _CONFIG_KEYS:
            raise MXNetError("profiler.set_config: unknown argument '%s'; arguments are %s"
                             % (key, ', '.join(_CONFIG_KEYS)))
    if kwargs.get('profile_process', 'worker') != 'worker':
        raise NotImplementedError("profiler.set_config(profile_process='server'): mxcompat "
                                  'profiles the worker process only')
    with _state.lock:
        _state.config.update(kwargs)


def profiler_set_config(mode='symbolic', filename='profile.json'):
    """Set up the configure of profiler (Deprecated).

    Parameters
    ----------
    mode : string, optional
        Indicates whether to enable the profiler, can
        be 'symbolic', or 'all'. Defaults to `symbolic`.
    filename : string, optional
        The name of output trace file. Defaults to 'profile.json'.
    """
    import warnings
    warnings.warn('profiler.profiler_set_config() is deprecated. '
                  'Please use profiler.set_config() instead')
    set_config(**{'profile_' + mode: True, 'filename': filename})


def set_state(state='stop', profile_process='worker'):
    """Set up the profiler state to 'run' or 'stop'.

    Parameters
    ----------
    state : string, optional
        Indicates whether to run the profiler, can
        be 'stop' or 'run'. Default is `stop`.
    profile_process : string
        whether to profile kvstore `server` or `worker`.
    """
    run = {'stop': False, 'run': True}[state]
    {'worker': 0, 'server': 1}[profile_process]  # KeyError for anything else, as in MXNet
    with _state.lock:
        if run and not _state.running:
            _state.running = True
            _state.paused = False
            _state.start_session()
        elif not run and _state.running:
            _state.running = False
            _state.end_session()


def profiler_set_state(state='stop'):
    """Set up the profiler state to 'run' or 'stop' (Deprecated)."""
    import warnings
    warnings.warn('profiler.profiler_set_state() is deprecated. '
                  'Please use profiler.set_state() instead')
    set_state(state)


def dump(finished=True, profile_process='worker'):
    """Dump profile and stop profiler. Use this to save profile
    in advance in case your program cannot exit normally.

    Parameters
    ----------
    finished : boolean
        Indicates whether to stop statistic output (dumping) after this dump.
        Default is True
    profile_process : string
        whether to profile kvstore `server` or `worker`.
    """
    with _state.lock:
        if finished and _state.running:
            _state.running = False
            _state.end_session()
        else:
            _state.harvest()
        fname = _state.config['filename']
        trace = {'traceEvents': list(_state.trace), 'displayTimeUnit': 'ms'}
    atomic_write_bytes(fname, json.dumps(trace).encode('utf-8'))


def dump_profile():
    """Dump profile and stop profiler (Deprecated)."""
    import warnings
    warnings.warn('profiler.dump_profile() is deprecated. Please use profiler.dump() instead')
    dump(True)


def _aggregate(sort_by, ascending):
    def stats(values, with_total):
        entry = {'Count': len(values)}
        if with_total:
            entry['Total'] = round(sum(values), 4)
        entry.update(Min=round(min(values), 4), Max=round(max(values), 4),
                     Avg=round(sum(values) / len(values), 4))
        return entry

    def ordered(items, with_total):
        rows = [(name, stats(v, with_total)) for name, v in items.items() if v]
        key = _SORT_KEYS[sort_by]
        if key == 'Total' and not with_total:
            key = 'Count'
        rows.sort(key=lambda r: r[1][key], reverse=not ascending)
        return dict(rows)

    memory = {'Device Storage': ordered(_state.mem_stats, False)} if _state.mem_stats else {}
    timing = {dom: ordered(items, True) for dom, items in sorted(_state.time_stats.items())}
    return {'Time': timing, 'Memory': memory, 'Unit': {'Time': 'ms', 'Memory': 'kB'}}


def _table(agg):
    lines = ['', 'Profile Statistics:', '\tNote the difference in units for different entries.']
    head = '%-30s%11s%17s%17s%17s%17s'
    for dom, items in agg['Memory'].items():
        lines += [dom, '=================',
                  '%-30s%11s%17s%17s%17s' % ('Name', 'Total Count', 'Min Use  (kB)',
                                             'Max Use  (kB)', 'Avg Use  (kB)'),
                  '%-30s%11s%17s%17s%17s' % ('----', '-----------', '-------------',
                                             '-------------', '-------------')]
        for name, s in items.items():
            lines.append('%-30s%11d%17.4f%17.4f%17.4f' % (name, s['Count'], s['Min'], s['Max'],
                                                          s['Avg']))
        lines.append('')
    for dom, items in agg['Time'].items():
        lines += [dom, '=================',
                  head % ('Name', 'Total Count', 'Time (ms)', 'Min Time (ms)', 'Max Time (ms)',
                          'Avg Time (ms)'),
                  head % ('----', '-----------', '---------', '-------------', '-------------',
                          '-------------')]
        for name, s in items.items():
            lines.append('%-30s%11d%17.4f%17.4f%17.4f%17.4f' % (name, s['Count'], s['Total'],
                                                                s['Min'], s['Max'], s['Avg']))
        lines.append('')
    return '\n'.join(lines) + '\n'


def dumps(reset=False, format='table', sort_by='total', ascending=False):  # noqa: A002
    """Return a printable string of aggregate profile stats.

    Parameters
    ----------
    reset: boolean
        indicates whether to clean aggeregate statistical data collected up to this point
    format: string
        whether to return the aggregate stats in table of json format
        can take 'table' or 'json'
        defaults to 'table'
    sort_by: string
        can take 'total', 'avg', 'min', 'max', or 'count'
        by which stat to sort the entries in each category
        defaults to 'total'
    ascending: boolean
        whether to sort ascendingly
        defaults to False
    """
    assert format in ('table', 'json'), \
        "Invalid value provided for format: {0}. Support: 'table', 'json'".format(format)
    assert sort_by in _SORT_KEYS, "Invalid value provided for sort_by: {0}. Support: " \
        "'total', 'avg', 'min', 'max', 'count'".format(sort_by)
    assert ascending in (False, True), \
        'Invalid value provided for ascending: {0}. Support: False, True'.format(ascending)
    assert reset in (False, True), \
        'Invalid value provided for reset: {0}. Support: False, True'.format(reset)
    with _state.lock:
        _state.harvest()
        if not _as_bool(_state.config['aggregate_stats']):
            out = ''
        else:
            agg = _aggregate(sort_by, ascending)
            out = json.dumps(agg, indent=4) if format == 'json' else _table(agg)
        if reset:
            _state.time_stats = {}
            _state.mem_stats = {}
    return out


def pause(profile_process='worker'):
    """Pause profiling.

    Parameters
    ----------
    profile_process : string
        whether to profile kvstore `server` or `worker`.
    """
    with _state.lock:
        if _state.running and not _state.paused:
            _state.paused = True
            _state.end_session()


def resume(profile_process='worker'):
    """Resume paused profiling.

    Parameters
    ----------
    profile_process : string
        whether to profile kvstore `server` or `worker`.
    """
    with _state.lock:
        if _state.running and _state.paused:
            _state.paused = False
            _state.start_session()


def _record(domain, name, start_s, end_s):
    """Add a finished duration to the trace and the statistics (if profiling)."""
    with _state.lock:
        if not _state.active():
            return
        ts = start_s * 1e6
        _state.trace.append({'name': name, 'cat': domain, 'ph': 'X', 'ts': ts,
                             'dur': (end_s - start_s) * 1e6, 'pid': os.getpid(),
                             'tid': threading.get_ident()})
        _state.time_stats.setdefault(domain, {}).setdefault(name, []).append(
            (end_s - start_s) * 1e3)


class scope:  # noqa: N801  (used like a function: ``with profiler.scope(...)``)
    """Time a block under ``domain`` / ``name`` while the profiler runs (a no-op otherwise).

    Custom operators use it for MXNet's 'Custom Operator' entries; operators called inside the
    block are listed there as ``<prefix>::<operator>`` when ``prefix`` is given.
    """
    __slots__ = ('domain', 'name', 'prefix', '_range', '_start')

    def __init__(self, domain, name, prefix=None):
        self.domain = domain
        self.name = name
        self.prefix = prefix
        self._range = None

    def __enter__(self):
        if _state.active():
            with _state.lock:
                _state.user_ranges.add(self.name)
                if self.prefix is not None:
                    _state.custom_ranges[self.name] = self.prefix
            self._range = torch.profiler.record_function(self.name)
            self._range.__enter__()
            self._start = time.time()
        return self

    def __exit__(self, ptype, value, trace):
        if self._range is not None:
            end = time.time()
            self._range.__exit__(None, None, None)
            self._range = None
            _record(self.domain, self.name, self._start, end)


class Domain:
    """Profiling domain, used to group sub-objects like tasks, counters, etc into categories
    Serves as part of 'categories' for chrome://tracing

    Parameters
    ----------
    name : string
        Name of the domain
    """
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name

    def new_task(self, name):
        """Create new Task object owned by this domain"""
        return Task(self, name)

    def new_frame(self, name):
        """Create new Frame object owned by this domain"""
        return Frame(self, name)

    def new_counter(self, name, value=None):
        """Create new Counter object owned by this domain"""
        return Counter(self, name, value)

    def new_marker(self, name):
        """Create new Marker object owned by this domain"""
        return Marker(self, name)


class _Duration:
    """A named time range: ``start()`` / ``stop()`` (also a ``record_function`` range)."""
    _category = None

    def __init__(self, domain, name):
        self.name = name
        self.domain = domain
        self._start = None
        self._range = None
        with _state.lock:
            _state.user_ranges.add(name)

    def start(self):
        """Start timing scope for this object"""
        self._range = torch.profiler.record_function(self.name)
        self._range.__enter__()
        self._start = time.time()

    def stop(self):
        """Stop timing scope for this object"""
        if self._start is None:
            raise MXNetError('%s %s: stop() called before start()'
                             % (type(self).__name__, self.name))
        end = time.time()
        self._range.__exit__(None, None, None)
        _record(self._category or str(self.domain), self.name, self._start, end)
        self._start = self._range = None

    def __str__(self):
        return self.name


class Task(_Duration):
    """Profiling Task class: a logical unit of work; all its passes are aggregated together.

    Parameters
    ----------
    domain : Domain object
        Domain to which this object belongs
    name : string
        Name of the task
    """


class Frame(_Duration):
    """Profiling Frame class: a time period analysed per pass (as frames of a video game).

    Parameters
    ----------
    domain : Domain object
        Domain to which this object belongs
    name : string
        Name of the frame
    """


class Event(_Duration):
    """Profiling Event class: demarcates a region of code (category 'event').

    Parameters
    ----------
    name : string
        Name of the event
    """
    _category = 'event'

    def __init__(self, name):
        super().__init__(None, name)


class Counter:
    """Profiling Counter class.

    The counter event can track a value as it changes over time.

    Parameters
    ----------
    domain : Domain object
        Domain to which this object belongs
    name : string
        Name of the counter
    value: integer, optional
        Initial value of the counter
    """
    def __init__(self, domain, name, value=None):
        self.name = name
        self.domain = domain
        self.value = 0
        if value is not None:
            self.set_value(value)

    def _emit(self):
        with _state.lock:
            if _state.active():
                _state.trace.append({'name': self.name, 'cat': str(self.domain), 'ph': 'C',
                                     'ts': time.time() * 1e6, 'args': {self.name: self.value},
                                     'pid': os.getpid(), 'tid': threading.get_ident()})

    def set_value(self, value):
        """Set counter value.

        Parameters
        ----------
        value : int
            Value for the counter
        """
        self.value = int(value)
        self._emit()

    def increment(self, delta=1):
        """Increment counter value.

        Parameters
        ----------
        value_change : int
            Amount by which to add to the counter
        """
        self.value += int(delta)
        self._emit()

    def decrement(self, delta=1):
        """Decrement counter value.

        Parameters
        ----------
        value_change : int
            Amount by which to subtract from the counter
        """
        self.value -= int(delta)
        self._emit()

    def __iadd__(self, delta):
        self.increment(delta)
        return self

    def __isub__(self, delta):
        self.decrement(delta)
        return self

    def __str__(self):
        return self.name


class Marker:
    """Set marker for an instant in time.

    The marker event marks a particular instant in time across some scope boundaries.

    Parameters
    ----------
    domain : Domain object
        Domain to which this object belongs
    name : string
        Name of the marker
    """
    _SCOPES = {'global': 'g', 'process': 'p', 'thread': 't', 'task': 't', 'marker': 't'}

    def __init__(self, domain, name):
        self.name = name
        self.domain = domain

    def mark(self, scope='process'):
        """Set up the profiler state to record operator.

        Parameters
        ----------
        scope : string, optional
            Indicates what scope the marker should refer to.
            Can be 'global', 'process', thread', task', and 'marker'
            Default is `process`.
        """
        if scope not in self._SCOPES:
            raise MXNetError("Marker.mark: scope must be one of 'global', 'process', 'thread', "
                             "'task', 'marker'; got %r" % (scope,))
        with _state.lock:
            if _state.active():
                _state.trace.append({'name': self.name, 'cat': '%s,instant_marker' % self.domain,
                                     'ph': 'i', 's': self._SCOPES[scope],
                                     'ts': time.time() * 1e6, 'pid': os.getpid(),
                                     'tid': threading.get_ident()})
