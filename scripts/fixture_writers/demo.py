"""The bundled demo (examples/train_mlp.py) trained by real MXNet: its printout and weights."""
import contextlib
import importlib.util
import io
import json
import os
import re

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, 'examples', 'train_mlp.py')


def load_script():
    """Import examples/train_mlp.py as a module (it imports whatever `mxnet` resolves to)."""
    spec = importlib.util.spec_from_file_location('_demo_train_mlp', SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def write(mx, outdir):
    demo = load_script()
    assert demo.mx is mx
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        losses, params = demo.train(demo.parse_args([]))
    with open(os.path.join(outdir, 'train_mlp.json'), 'w') as f:
        # wall times vary from run to run; drop them so the fixture only changes with MXNet
        stdout = re.sub(r', Time [\d.]+s', '', out.getvalue())
        json.dump({'args': [], 'stdout': stdout, 'losses': losses}, f, indent=1)
    np.savez_compressed(os.path.join(outdir, 'train_mlp.npz'),
                        **{'param%d' % i: p.asnumpy() for i, p in enumerate(params)})
