import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, 'tests', 'fixtures')
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
_NUMBER = re.compile(r'-?\d+(?:\.\d+)?(?:e[-+]?\d+)?')


def _assert_same_printout(got, want, name):
    """The same text, and the same numbers to rtol 1e-4 or one unit of the last digit
    printed (a library's helpers round with '%.3f' and the like)."""
    assert _NUMBER.sub('#', got) == _NUMBER.sub('#', want), '%s printed\n%s\nnot\n%s' % (
        name, got, want)
    for g, w in zip(_NUMBER.findall(got), _NUMBER.findall(want)):
        digits = len(w.split('.')[1].split('e')[0]) if '.' in w else 0
        assert abs(float(g) - float(w)) <= 1e-4 * abs(float(w)) + 1.01 * 10.0 ** -digits, \
            '%s printed %s where MXNet printed %s' % (name, g, w)


def assert_same_results(got, want, name):
    """A library scenario's results ``got`` ({key: array}, 'stdout' the text it printed) are
    MXNet's ``want`` (its .npz): the same keys, texts, and numbers to rtol 1e-4."""
    import numpy as np
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        if key == 'stdout':
            _assert_same_printout(str(got[key]), str(want[key]), name)
        elif want[key].dtype.kind == 'U':
            assert str(got[key]) == str(want[key]), '%s %s' % (name, key)
        else:
            np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=1e-5,
                                       err_msg='%s %s' % (name, key))


def mxnet_context(want):
    """The context MXNet gave an array of a fixture scenario, as ``str``, for a run under the
    current default context: ``want['ctx']`` as it ran under cpu(0), ``want['ctx1']`` as it ran
    under cpu(1), which stands for any other default context (``--mx-context cpu1|gpu``)."""
    import mxcompat as mx
    current = mx.current_context()
    if current == mx.cpu(0):
        return want['ctx']
    return want['ctx1'].replace('cpu(1)', str(current))


def mxnet_error_class(name):
    """The exception class MXNet raised, from its name in a fixture: mxcompat's MXNetError for
    'MXNetError', the builtin of that name otherwise."""
    import builtins
    from mxcompat.base import MXNetError
    return MXNetError if name == 'MXNetError' else getattr(builtins, name)


def pytest_addoption(parser):
    parser.addoption(
        '--mx-context', default=os.environ.get('MXCOMPAT_TEST_CONTEXT', 'cpu'),
        choices=('cpu', 'cpu1', 'gpu'),
        help="default Context of every test: 'gpu' reruns the tests with gpu(0) as the "
             "default context, as MXNet's tests/python/gpu does; 'cpu1' with cpu(1), a "
             "non-default context in host memory, the stand-in for 'gpu' on a machine "
             "without CUDA (MXCOMPAT_TEST_CONTEXT too)")


def _cuda():
    import torch
    return torch.cuda.is_available()


def pytest_configure(config):
    config.addinivalue_line('markers', 'slow: a check too slow for the default run')
    config.addinivalue_line('markers', 'gpu: needs a CUDA GPU (skipped without one)')


def pytest_collection_modifyitems(config, items):
    if _cuda():
        return
    if config.getoption('--mx-context') == 'gpu':
        why = pytest.mark.skip(reason='--mx-context gpu: no CUDA GPU is available')
        for item in items:
            item.add_marker(why)
        return
    why = pytest.mark.skip(reason='needs a CUDA GPU')
    for item in items:
        if 'gpu' in item.keywords:
            item.add_marker(why)


@pytest.fixture(autouse=True)
def _default_context(request):
    choice = request.config.getoption('--mx-context')
    if choice == 'cpu':
        yield
        return
    import mxcompat as mx
    with (mx.gpu(0) if choice == 'gpu' else mx.cpu(1)):
        yield
