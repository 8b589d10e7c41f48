"""Logging utilities (``mx.log``): loggers with MXNet's glog-style line format."""
import logging
import warnings

CRITICAL = logging.CRITICAL
ERROR = logging.ERROR
WARNING = logging.WARNING
INFO = logging.INFO
DEBUG = logging.DEBUG
NOTSET = logging.NOTSET

__all__ = ['get_logger', 'getLogger', 'CRITICAL', 'ERROR', 'WARNING', 'INFO', 'DEBUG',
           'NOTSET']

_LABELS = {CRITICAL: 'C', ERROR: 'E', WARNING: 'W', INFO: 'I', DEBUG: 'D'}


class _Formatter(logging.Formatter):
    """Colored ``<level letter><MMDD HH:MM:SS> <pid> <path>:<function>:<line>] <message>``."""

    def __init__(self):
        super(_Formatter, self).__init__(datefmt='%m%d %H:%M:%S')

    def format(self, record):
        level = record.levelno
        color = '\x1b[31m' if level >= WARNING else '\x1b[32m' if level >= INFO else '\x1b[34m'
        self._style._fmt = (color + _LABELS.get(level, 'U') +
                            '%(asctime)s %(process)d %(pathname)s:%(funcName)s:%(lineno)d]'
                            '\x1b[0m %(message)s')
        return super(_Formatter, self).format(record)


def getLogger(name=None, filename=None, filemode=None, level=WARNING):
    """Gets a customized logger.

    .. note:: `getLogger` is deprecated. Use `get_logger` instead.
    """
    warnings.warn("getLogger is deprecated, Use get_logger instead.",
                  DeprecationWarning, stacklevel=2)
    return get_logger(name, filename, filemode, level)


def get_logger(name=None, filename=None, filemode=None, level=WARNING):
    """Gets a customized logger.

    The first call for a ``name`` gives the logger a handler (a file handler with the plain
    format when ``filename`` is given, else a stream handler with MXNet's colored format) and
    sets its level; later calls return the same logger unchanged. ``name=None`` returns the
    root logger untouched.

    Parameters
    ----------
    name: str, optional
        Name of the logger.
    filename: str, optional
        The filename to which the logger's output will be sent.
    filemode: str, optional
        The file mode to open the file (corresponding to `filename`),
        default is 'a' if `filename` is not ``None``.
    level: int, optional
        The `logging` level for the logger.

    Returns
    -------
    Logger
        A customized `Logger` object.
    """
    logger = logging.getLogger(name)
    if name is not None and not getattr(logger, '_init_done', None):
        logger._init_done = True
        if filename:
            handler = logging.FileHandler(filename, filemode or 'a')
        else:
            handler = logging.StreamHandler()
            handler.setFormatter(_Formatter())
        logger.addHandler(handler)
        logger.setLevel(level)
    return logger
