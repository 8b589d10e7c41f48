"""Public names of MXNet 1.9.1's mx.nd namespaces and of NDArray, for the coverage test."""
import json
import os

import numpy as np


def _public(obj):
    return sorted(n for n in dir(obj) if not n.startswith('__'))


def _np_name(t):
    return None if t is None else np.dtype(t).name if not isinstance(t, np.dtype) or \
        t.names is None else 'bfloat16'


def write(mx, outdir):
    names = {
        'nd': _public(mx.nd),
        'nd.random': _public(mx.nd.random),
        'nd.linalg': _public(mx.nd.linalg),
        'nd.contrib': _public(mx.nd.contrib),
        'NDArray': sorted(n for n in dir(mx.nd.NDArray) if not n.startswith('_')),
    }
    modules = {space: sorted(n for n in lst if type(getattr(
        mx.nd.NDArray if space == 'NDArray' else eval('mx.' + space), n)).__name__ == 'module')
        for space, lst in names.items()}
    dtype_maps = {
        'np_to_mx': {_np_name(k) or 'None': v for k, v in mx.nd._DTYPE_NP_TO_MX.items()},
        'grad_req': dict(mx.nd._GRAD_REQ_MAP),
    }
    tmp = os.path.join(outdir, 'names.json.tmp')
    with open(tmp, 'w') as f:
        json.dump({'names': names, 'modules': modules, 'dtype_maps': dtype_maps,
                   'operators': sorted(mx.operator.get_all_registered_operators())}, f,
                  indent=0, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'names.json'))
