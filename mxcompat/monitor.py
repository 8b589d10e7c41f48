"""Monitor: statistics of the inputs, outputs, weights and gradients of executors."""
import logging
import re
from math import sqrt

from .base import py_str
from . import ndarray
from .ndarray import NDArray

__all__ = ['Monitor']


def _default_stat(x):
    """Root-mean-square of ``x``: norm(x) / sqrt(size(x))."""
    return ndarray.norm(x) / sqrt(x.size)


class Monitor(object):
    """Collects a statistic of executor arrays every ``interval`` batches.

    Parameters
    ----------
    interval : int
        Batches between collections.
    stat_func : function
        NDArray -> NDArray (or list of NDArray) statistic; default norm(x)/sqrt(x.size).
    pattern : str
        Regular expression the array names must match, e.g. '.*weight|.*output', or
        '.*backward.*' for gradients.
    sort : bool
        Sort the results by name.
    monitor_all : bool, default False
        Monitor the inputs of the operators as well as their outputs.
    """
    def __init__(self, interval, stat_func=None, pattern='.*', sort=False, monitor_all=False):
        self.stat_func = _default_stat if stat_func is None else stat_func
        self.interval = interval
        self.activated = False
        self.queue = []
        self.step = 0
        self.exes = []
        self.re_prog = re.compile(pattern)
        self.sort = sort
        self.monitor_all = monitor_all

    def stat_helper(self, name, array):
        """The executor callback: records ``stat_func(array)`` while collecting."""
        name = py_str(name)
        if not self.activated or not self.re_prog.match(name):
            return
        self.queue.append((self.step, name, self.stat_func(array)))

    def install(self, exe):
        """Installs the callback on an executor (several executors may be installed)."""
        exe.set_monitor_callback(self.stat_helper, self.monitor_all)
        self.exes.append(exe)

    def _wait_all(self):
        for exe in self.exes:
            for array in list(exe.arg_arrays) + list(exe.aux_arrays):
                array.wait_to_read()

    def tic(self):
        """Starts collecting for this batch if it is one of every ``interval``; call before
        forward."""
        if self.step % self.interval == 0:
            self._wait_all()
            self.queue = []
            self.activated = True
        self.step += 1

    def toc(self):
        """Ends collecting (adding the arguments and auxiliary states) and returns a list of
        ``(step, name, stats_string)``."""
        if not self.activated:
            return []
        self._wait_all()
        for exe in self.exes:
            sym = exe._symbol
            for names, arrays in ((sym.list_arguments(), exe.arg_arrays),
                                  (sym.list_auxiliary_states(), exe.aux_arrays)):
                for name, array in zip(names, arrays):
                    if self.re_prog.match(name):
                        self.queue.append((self.step, name, self.stat_func(array)))
        self.activated = False
        if self.sort:
            self.queue.sort(key=lambda x: x[1])
        res = []
        for step, name, stats in self.queue:
            if isinstance(stats, NDArray):
                stats = [stats]
            assert isinstance(stats, list)
            text = ''
            for v in stats:
                assert isinstance(v, NDArray)
                text += (str(v.asscalar()) if v.shape == (1,) else str(v.asnumpy())) + '\t'
            res.append((step, name, text))
        self.queue = []
        return res

    def toc_print(self):
        """Ends collecting and logs the results."""
        for step, name, text in self.toc():
            logging.info('Batch: {:7d} {:30s} {:s}'.format(step, name, text))
