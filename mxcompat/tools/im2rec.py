"""``mxcompat im2rec``: MXNet's tools/im2rec.py on mxcompat.

With ``--list`` it writes image lists (``index\\tlabel(s)\\tpath`` lines) for the images under
ROOT, shuffled with Python's ``random`` seeded by 100 and split into chunks and train/val/test
parts as MXNet does. Otherwise it packs every ``PREFIX*.lst`` in PREFIX's directory into
``.rec``/``.idx`` files with ``mx.recordio`` (images re-encoded, or stored as they are with
``--pass-through``). The outputs are those of MXNet's script; re-encoded JPEG bytes depend on
the encoder (OpenCV's when cv2 is installed, else Pillow's).
"""
import argparse
import os
import random
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

from .. import recordio
from ..base import MXNetError
from ..image import _codec, _resize

__all__ = ['add_arguments', 'main', 'list_image', 'make_list', 'read_list', 'image_encode']


def list_image(root, recursive, exts):
    """Yield ``(index, relative path, label)`` for the images under ``root``: with
    ``recursive`` each directory gets its own label (in walk order, printed at the end),
    otherwise only the files directly in ``root``, labelled 0."""
    i = 0
    if not recursive:
        for fname in sorted(os.listdir(root)):
            fpath = os.path.join(root, fname)
            if os.path.isfile(fpath) and os.path.splitext(fname)[1].lower() in exts:
                yield (i, os.path.relpath(fpath, root), 0)
                i += 1
        return
    labels = {}
    for path, dirs, files in os.walk(root, followlinks=True):
        dirs.sort()
        for fname in sorted(files):
            fpath = os.path.join(path, fname)
            if os.path.isfile(fpath) and os.path.splitext(fname)[1].lower() in exts:
                label = labels.setdefault(path, len(labels))
                yield (i, os.path.relpath(fpath, root), label)
                i += 1
    for path, label in sorted(labels.items(), key=lambda kv: kv[1]):
        print(os.path.relpath(path, root), label)


def write_list(path_out, image_list):
    """Write ``(index, path, label...)`` items as ``index\\tlabel\\t...\\tpath`` lines."""
    with open(path_out, 'w') as fout:
        for item in image_list:
            fout.write('%d\t%s%s\n' % (item[0], ''.join('%f\t' % v for v in item[2:]), item[1]))


def make_list(args):
    """Write the .lst file(s) for ``args.root`` (see the module docstring)."""
    image_list = list(list_image(args.root, args.recursive, args.exts))
    if args.shuffle:
        random.seed(100)
        random.shuffle(image_list)
    chunk_size = (len(image_list) + args.chunks - 1) // args.chunks
    for c in range(args.chunks):
        chunk = image_list[c * chunk_size:(c + 1) * chunk_size]
        tag = '_%d' % c if args.chunks > 1 else ''
        n_train = int(chunk_size * args.train_ratio)
        n_test = int(chunk_size * args.test_ratio)
        if args.train_ratio == 1.0:
            write_list(args.prefix + tag + '.lst', chunk)
            continue
        if args.test_ratio:
            write_list(args.prefix + tag + '_test.lst', chunk[:n_test])
        if args.train_ratio + args.test_ratio < 1.0:
            write_list(args.prefix + tag + '_val.lst', chunk[n_test + n_train:])
        write_list(args.prefix + tag + '_train.lst', chunk[n_test:n_test + n_train])


def read_list(path_in):
    """Yield ``[index, path, label, ...]`` for each well-formed line of a .lst file."""
    with open(path_in) as fin:
        for line in fin:
            parts = [p.strip() for p in line.strip().split('\t')]
            if len(parts) < 3:
                print('lst should have at least has three parts, but only has %s parts for %s'
                      % (len(parts), parts))
                continue
            try:
                yield [int(parts[0]), parts[-1]] + [float(v) for v in parts[1:-1]]
            except ValueError as err:
                print('Parsing lst met error for %s, detail: %s' % (parts, err))


def _imread(path, color):
    """cv2.imread(path, color): BGR(A) or 2-D gray uint8 array, None when unreadable."""
    with open(path, 'rb') as f:
        buf = f.read()
    try:
        return _codec.cv_imdecode(buf, color)
    except MXNetError:
        return None


def _transform(img, args):
    if args.center_crop:
        h, w = img.shape[:2]
        if h > w:
            m = (h - w) // 2
            img = img[m:m + w]
        else:
            m = (w - h) // 2
            img = img[:, m:m + h]
    if args.resize:
        h, w = img.shape[:2]
        nw, nh = ((args.resize, h * args.resize // w) if h > w
                  else (w * args.resize // h, args.resize))
        t = torch.from_numpy(np.ascontiguousarray(img if img.ndim == 3 else img[:, :, None]))
        out = _resize.resize(t, nw, nh, 1).numpy()
        img = out if img.ndim == 3 else out[:, :, 0]
    return img


def image_encode(args, item):
    """The packed record for list item ``[index, path, label, ...]``, or None on failure."""
    fullpath = os.path.join(args.root, item[1])
    label = item[2:] if len(item) > 3 and args.pack_label else item[2]
    header = recordio.IRHeader(0, label, item[0], 0)
    try:
        if args.pass_through:
            with open(fullpath, 'rb') as fin:
                return recordio.pack(header, fin.read())
        img = _imread(fullpath, args.color)
        if img is None:
            print('imread read blank (None) image for file: %s' % fullpath)
            return None
        return recordio.pack_img(header, _transform(img, args), quality=args.quality,
                                 img_fmt=args.encoding)
    except Exception as err:  # MXNet's script reports and skips the image
        traceback.print_exc()
        print('pack_img error on file: %s' % fullpath, err)
        return None


def make_rec(args, fname, working_dir):
    """Pack the images of list ``fname`` into ``.rec``/``.idx`` in ``working_dir``."""
    base = os.path.splitext(os.path.basename(fname))[0]
    record = recordio.MXIndexedRecordIO(os.path.join(working_dir, base + '.idx'),
                                        os.path.join(working_dir, base + '.rec'), 'w')
    items = list(read_list(fname))
    start = time.time()
    with ThreadPoolExecutor(max(1, args.num_thread)) as pool:
        for count, (item, packed) in enumerate(
                zip(items, pool.map(lambda it: image_encode(args, it), items))):
            if packed is not None:
                record.write_idx(item[0], packed)
            if count % 1000 == 0:
                now = time.time()
                print('time:', now - start, ' count:', count)
                start = now
    record.close()


def add_arguments(parser):
    """Add im2rec's arguments (those of MXNet's tools/im2rec.py) to ``parser``."""
    parser.add_argument('prefix', help='prefix of input/output lst and rec files.')
    parser.add_argument('root', help='path to folder containing images.')
    cg = parser.add_argument_group('Options for creating image lists')
    cg.add_argument('--list', action='store_true',
                    help='create image list(s) <prefix>.lst by traversing the root folder; '
                    'otherwise read <prefix>*.lst and create <prefix>*.rec databases')
    cg.add_argument('--exts', nargs='+', default=['.jpeg', '.jpg', '.png'],
                    help='list of acceptable image extensions.')
    cg.add_argument('--chunks', type=int, default=1, help='number of chunks.')
    cg.add_argument('--train-ratio', type=float, default=1.0,
                    help='Ratio of images to use for training.')
    cg.add_argument('--test-ratio', type=float, default=0,
                    help='Ratio of images to use for testing.')
    cg.add_argument('--recursive', action='store_true',
                    help='walk through subdirectories and give each folder its own label; '
                    'otherwise only images in the root folder, labelled 0.')
    cg.add_argument('--no-shuffle', dest='shuffle', action='store_false',
                    help='do not randomize the image order in <prefix>.lst')
    rg = parser.add_argument_group('Options for creating database')
    rg.add_argument('--pass-through', action='store_true',
                    help='whether to skip transformation and save image as is')
    rg.add_argument('--resize', type=int, default=0,
                    help='resize the shorter edge of image to the newsize')
    rg.add_argument('--center-crop', action='store_true',
                    help='crop the center of the image to make it square.')
    rg.add_argument('--quality', type=int, default=95,
                    help='JPEG quality for encoding, 1-100; or PNG compression, 1-9')
    rg.add_argument('--num-thread', type=int, default=1,
                    help='number of threads to use for encoding (the order is kept).')
    rg.add_argument('--color', type=int, default=1, choices=[-1, 0, 1],
                    help='1: color (alpha dropped), 0: grayscale, -1: as stored')
    rg.add_argument('--encoding', type=str, default='.jpg', choices=['.jpg', '.png'],
                    help='specify the encoding of the images.')
    rg.add_argument('--pack-label', action='store_true',
                    help='Whether to also pack multi dimensional label in the record file')
    return parser


def run(args):
    """Run im2rec with parsed ``args``; returns the exit status."""
    args.prefix = os.path.abspath(args.prefix)
    args.root = os.path.abspath(args.root)
    if args.list:
        make_list(args)
        return 0
    working_dir = args.prefix if os.path.isdir(args.prefix) else os.path.dirname(args.prefix)
    count = 0
    for fname in [os.path.join(working_dir, f) for f in os.listdir(working_dir)]:
        if os.path.isfile(fname) and fname.startswith(args.prefix) and fname.endswith('.lst'):
            print('Creating .rec file from', fname, 'in', working_dir)
            count += 1
            make_rec(args, fname, working_dir)
    if not count:
        print('Did not find and list file with prefix %s' % args.prefix)
    return 0


def main(argv=None):
    """``mxcompat im2rec PREFIX ROOT [options]``; returns the exit status."""
    parser = add_arguments(argparse.ArgumentParser(
        prog='mxcompat im2rec', formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        description='Create an image list or make a record database by reading from an '
                    'image list'))
    return run(parser.parse_args(sys.argv[1:] if argv is None else argv))


if __name__ == '__main__':
    sys.exit(main())
