"""``mx.viz`` against real MXNet 1.9.1 (scripts/fixture_writers/visualization.py):
print_summary's text, and the graphviz calls plot_network makes (through a recording stand-in
for the optional ``graphviz`` package)."""
import json
import os
import sys

import pytest

import mxcompat as mx
import mxcompat.visualization
from scripts.fixture_writers.visualization import (SUMMARIES, PLOTS, NETS, summary, plot_calls,
                                                   recording_graphviz)

from conftest import FIXTURES

mx.viz = mxcompat.visualization  # until mxcompat/__init__ imports it


@pytest.fixture(scope='module')
def want():
    with open(os.path.join(FIXTURES, 'visualization', 'visualization.json')) as f:
        return json.load(f)


@pytest.mark.parametrize('sid', sorted(SUMMARIES))
def test_print_summary(want, sid):
    assert summary(mx, sid) == want['summary'][sid]


@pytest.mark.parametrize('pid', sorted(PLOTS))
def test_plot_network_calls(want, pid):
    assert plot_calls(mx, pid) == want['plot'][pid]


def test_plot_network_without_graphviz(monkeypatch):
    monkeypatch.setitem(sys.modules, 'graphviz', None)  # import graphviz fails
    with pytest.raises(ImportError, match='graphviz'):
        mx.viz.plot_network(NETS['mlp'][0](mx))


def test_type_errors():
    with pytest.raises(TypeError):
        mx.viz.print_summary('not a symbol')
    with recording_graphviz(), pytest.raises(TypeError):
        mx.viz.plot_network(mx.nd.ones((1,)))


def test_repeated_names_warn():
    a = mx.sym.var('x')
    net = mx.sym.elemwise_add(a * 2, mx.sym.var('x'))
    with recording_graphviz(), pytest.warns(RuntimeWarning, match='Repeated names: x'):
        mx.viz.plot_network(net)
