"""Fixtures for ``mxcompat im2rec``, written by MXNet 1.9.1's own tools/im2rec.py.

A tiny image folder (PNGs, JPEGs, a non-image file, a subfolder) is stored in
tests/fixtures/im2rec/images/. MXNet's script is taken from the mxnet git (tag 1.9.1) into a
temporary file (it is not committed) and run under the oracle for each scenario of
:data:`SCENARIOS`; the .lst files and, when packing, the .rec/.idx bytes it writes are stored
in outputs.json. Its ``import cv2`` is satisfied by an empty stub module: list generation and
``--pass-through`` packing do not use OpenCV.
"""
import base64
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from .image import png

MXNET_GIT = '/work/.mirror/apache+mxnet/repo'

# name -> (steps); each step is an argument list (PREFIX and ROOT are substituted) or
# ('write', filename, text) to create a list file by hand.
SCENARIOS = {
    'list-flat': [['PREFIX', 'ROOT', '--list']],
    'list-flat-no-shuffle': [['PREFIX', 'ROOT', '--list', '--no-shuffle']],
    'list-recursive': [['PREFIX', 'ROOT', '--list', '--recursive']],
    'list-recursive-exts': [['PREFIX', 'ROOT', '--list', '--recursive', '--no-shuffle',
                             '--exts', '.png', '.PNG']],
    'list-split': [['PREFIX', 'ROOT', '--list', '--recursive', '--train-ratio', '0.6',
                    '--test-ratio', '0.2']],
    'list-chunks': [['PREFIX', 'ROOT', '--list', '--recursive', '--chunks', '2',
                     '--train-ratio', '0.5']],
    'rec-pass-through': [['PREFIX', 'ROOT', '--list', '--recursive'],
                         ['PREFIX', 'ROOT', '--pass-through']],
    'rec-pass-through-threads': [['PREFIX', 'ROOT', '--list', '--recursive', '--no-shuffle'],
                                 ['PREFIX', 'ROOT', '--pass-through', '--num-thread', '2']],
    'rec-pack-label': [('write', 'data.lst',
                        '3\t1.000000\t2.500000\tcat/a.png\n'
                        '0\t0.000000\t-1.000000\tdog/c.png\n'
                        '7\t2.000000\t0.250000\te.PNG\n'),
                       ['PREFIX', 'ROOT', '--pass-through', '--pack-label']],
    'rec-first-label': [('write', 'data.lst',
                         '3\t1.000000\t2.500000\tcat/a.png\n'
                         '5\t4.000000\tdog/sub/d.jpeg\n'),
                        ['PREFIX', 'ROOT', '--pass-through']],
}


def _image(seed, h, w, c=3):
    rs = np.random.RandomState(seed)
    return rs.randint(0, 256, size=(h, w, c)).astype(np.uint8)


def _jpeg(img):
    from PIL import Image
    out = io.BytesIO()
    Image.fromarray(img).save(out, 'JPEG', quality=85)
    return out.getvalue()


def make_images(root):
    """The tiny image folder (only used by write(); the test reads the stored copy)."""
    files = {'cat/a.png': png(_image(0, 5, 6)), 'cat/b.jpg': _jpeg(_image(1, 8, 8)),
             'dog/c.png': png(_image(2, 4, 7)[:, :, 0]), 'dog/sub/d.jpeg': _jpeg(_image(3, 9, 6)),
             'e.PNG': png(_image(4, 3, 3)), 'f.txt': b'not an image\n',
             'g.jpg': _jpeg(_image(5, 6, 5))}
    for rel, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), 'wb') as f:
            f.write(data)


def collect(workdir):
    """name -> base64 contents of every file im2rec wrote in ``workdir``."""
    out = {}
    for name in sorted(os.listdir(workdir)):
        with open(os.path.join(workdir, name), 'rb') as f:
            out[name] = base64.b64encode(f.read()).decode('ascii')
    return out


def run_scenario(name, root, workdir, run_argv):
    """Run the steps of scenario ``name`` with ``run_argv(argv) -> stdout``; returns the
    stdout of every step and the files written."""
    stdout = []
    prefix = os.path.join(workdir, 'data')
    for step in SCENARIOS[name]:
        if isinstance(step, tuple):
            with open(os.path.join(workdir, step[1]), 'w') as f:
                f.write(step[2])
            continue
        argv = [prefix if a == 'PREFIX' else root if a == 'ROOT' else a for a in step]
        stdout.append(run_argv(argv).replace(workdir, 'WORKDIR').replace(root, 'ROOT'))
    return {'stdout': stdout, 'files': collect(workdir)}


def write(mx, outdir):
    root = os.path.join(outdir, 'images')
    shutil.rmtree(root, ignore_errors=True)
    make_images(root)
    tmp = tempfile.mkdtemp()
    try:
        script = os.path.join(tmp, 'im2rec_mx.py')
        with open(script, 'wb') as f:
            f.write(subprocess.check_output(['git', '-C', MXNET_GIT, 'show',
                                             '1.9.1:tools/im2rec.py']))
        stub = os.path.join(tmp, 'stub')
        os.makedirs(stub)
        open(os.path.join(stub, 'cv2.py'), 'w').close()
        env = dict(os.environ, PYTHONPATH=stub, PYTHONHASHSEED='0')

        def run_argv(argv):
            return subprocess.run([sys.executable, script] + argv, env=env, check=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  universal_newlines=True).stdout

        results = {}
        for name in SCENARIOS:
            workdir = os.path.join(tmp, name)
            os.makedirs(workdir)
            results[name] = run_scenario(name, root, workdir, run_argv)
    finally:
        shutil.rmtree(tmp)
    with open(os.path.join(outdir, 'outputs.json'), 'w') as f:
        json.dump(results, f, indent=1, sort_keys=True)
