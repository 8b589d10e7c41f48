"""A seeded mutation fuzzer for every mxcompat reader of untrusted bytes.

Each target loads a mutated copy of a small file written by real MXNet 1.9.1
(``tests/fixtures/hostile/seeds/``, see ``scripts/fixture_writers/hostile.py``). A case passes
when the load succeeds or raises ``MXNetError`` with a message; it fails on any other exception,
on taking longer than ``--hang`` seconds, or on allocating more than ``--max-alloc`` bytes (the
process runs under an address-space limit that much above its size, so such an allocation
fails and is reported). Cases are reproducible: case ``i`` of target ``t`` under ``--seed s``
is always the same input (``--show t i`` prints it).

Short run (the default test suite runs one through ``tests/test_fuzz.py``)::

    python scripts/fuzz.py --seconds 20

Long run (one million cases over the nine targets, in proportion to their weights)::

    python scripts/fuzz.py --cases 1000000 --json fuzz-report.json
"""
import argparse
import json
import os
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, 'tests', 'fixtures', 'hostile', 'seeds')
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

_INTS = [0, 1, 2, 3, 4, 7, 8, 16, 32, 33, 64, 255, 256, 0x7f, 0x80, 0xff, 0x7fff, 0x8000,
         0xffff, 2 ** 24, 2 ** 29, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40, 2 ** 48,
         2 ** 62, 2 ** 63 - 1, -1, -2, -(2 ** 31), -(2 ** 63)]
_JSON_VALUES = [None, True, 0, -1, 2 ** 31, 2 ** 64, 1e308, 'x', '', '(0, 0)', '(-1, 2)',
                '(2147483648, 1)', '2147483648', '-5', 'nan', 'inf', '1e309', '(1,)', '()',
                '[0]', 'None', 'True', '\u00e9', [], {}, [0, 0], [[0, 0, 0]], {'a': 'b'}]


# ------------------------------------------------------------------------------ mutation
def _mutate_bytes(rng, data, seeds):
    data = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 3, 4))):
        kind = rng.randrange(8)
        pos = rng.randrange(len(data) + 1)
        if kind == 0 and data:  # flip a bit
            pos = min(pos, len(data) - 1)
            data[pos] ^= 1 << rng.randrange(8)
        elif kind == 1 and data:  # an interesting byte
            pos = min(pos, len(data) - 1)
            data[pos] = rng.choice((0, 1, 0x7f, 0x80, 0xff, rng.randrange(256)))
        elif kind in (2, 3):  # an interesting 4- or 8-byte integer, aligned or not
            width = 4 if kind == 2 else 8
            if rng.random() < 0.7:
                pos -= pos % 4
            value = rng.choice(_INTS) % (1 << (8 * width))
            data[pos:pos + width] = value.to_bytes(width, 'little')
        elif kind == 4:  # truncate
            del data[pos:]
        elif kind == 5:  # delete a chunk
            del data[pos:pos + rng.randrange(1, 64)]
        elif kind == 6:  # duplicate a chunk
            data[pos:pos] = data[pos:pos + rng.randrange(1, 64)]
        else:  # splice another seed
            other = rng.choice(seeds)
            start = rng.randrange(len(other) + 1)
            data[pos:pos + rng.randrange(64)] = other[start:start + rng.randrange(1, 128)]
    return bytes(data)


def _mutate_json(rng, data, seeds):
    """Replace values deep inside the JSON (keeping it JSON), else mutate the bytes."""
    if rng.random() < 0.3:
        return _mutate_bytes(rng, data, seeds)
    try:
        doc = json.loads(data.decode('utf-8'))
    except ValueError:
        return _mutate_bytes(rng, data, seeds)
    for _ in range(rng.choice((1, 1, 2, 3))):
        parent, key = None, None
        node = doc
        while isinstance(node, (dict, list)) and node and (parent is None or rng.random() < 0.8):
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            parent, node = node, node[key]
        if parent is None:
            break
        choice = rng.random()
        if choice < 0.7:
            value = json.loads(json.dumps(rng.choice(_JSON_VALUES)))  # a fresh copy
        elif choice < 0.8:
            value = node if isinstance(node, (int, float)) and not isinstance(node, bool) \
                else 0
            value = value + rng.choice(_INTS)
        elif choice < 0.9:  # deep nesting, spliced into the text below
            value = '@DEEP%d@' % rng.choice((50, 990, 5000))
        else:
            value = '(%s)' % ', '.join(str(rng.choice(_INTS)) for _ in range(rng.randrange(5)))
        parent[key] = value
    text = json.dumps(doc)
    while '"@DEEP' in text:
        start = text.index('"@DEEP')
        end = text.index('@"', start + 2) + 2
        depth = int(text[start + 6:end - 2])
        text = text[:start] + '[' * depth + '0' + ']' * depth + text[end:]
    return text.encode('utf-8')


# ------------------------------------------------------------------------------ targets
def _seed(name):
    with open(os.path.join(SEEDS, name), 'rb') as f:
        return f.read()


class Targets:
    """The readers under test: name -> (seed files, mutator, load function, weight)."""

    def __init__(self, workdir):
        import mxcompat as mx
        self.mx = mx
        self.dir = workdir
        self.trainer = None

    def _file(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, 'wb') as f:
            f.write(data)
        return path

    def _net(self):
        mx = self.mx
        net = mx.gluon.nn.HybridSequential()
        with net.name_scope():
            net.add(mx.gluon.nn.Conv2D(2, 3, strides=(1, 1)), mx.gluon.nn.Dense(3))
        return net

    def nd_load(self, data):
        self.mx.nd.load(self._file('x.params', data))

    def nd_load_frombuffer(self, data):
        self.mx.nd.load_frombuffer(data)

    def load_parameters(self, data):
        net = self._net()
        net.load_parameters(self._file('net.params', data))

    def imports_params(self, data):
        sym = self._file('net-symbol.json', _seed('net-symbol.json'))
        blk = self.mx.gluon.SymbolBlock.imports(sym, ['data'], self._file('net-0000.params',
                                                                         data))
        blk(self.mx.nd.ones((1, 1, 5, 5)))

    def imports_symbol(self, data):
        params = self._file('net-0000.params', _seed('net-0000.params'))
        blk = self.mx.gluon.SymbolBlock.imports(self._file('net-symbol.json', data), ['data'],
                                                params)
        blk(self.mx.nd.ones((1, 1, 5, 5)))

    def load_json(self, data):
        mx = self.mx
        sym = mx.sym.load(self._file('x-symbol.json', data))
        args, _, aux = sym.infer_shape(data=(1, 1, 5, 5))
        if args is None:
            return
        shapes = args + aux
        size = 0
        for shape in shapes:
            n = 1
            for d in shape:
                n *= d
            size += n
        if size > 2 ** 20:  # a user would not allocate this for a small input either
            return
        arg_names = sym.list_arguments()
        exe = sym.bind(mx.cpu(), {n: mx.nd.ones(s) for n, s in zip(arg_names, args)},
                       aux_states={n: mx.nd.ones(s) for n, s in
                                   zip(sym.list_auxiliary_states(), aux)})
        exe.forward()

    def trainer_load_states(self, data):
        mx = self.mx
        if self.trainer is None:
            net = mx.gluon.nn.Dense(2, in_units=3)
            net.initialize()
            self.trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'momentum': 0.9})
        self.trainer.load_states(self._file('x.states', data))

    def recordio_idx(self, data):
        rec = self.mx.recordio.MXIndexedRecordIO(
            self._file('img.idx', data), self._file('img.rec', _seed('img.rec')), 'r')
        try:
            for key in rec.keys:
                rec.read_idx(key)
        finally:
            rec.close()

    def unpack_img(self, data):
        self.mx.recordio.unpack_img(data)

    def specs(self):
        rec_io = self.mx.recordio.MXRecordIO(self._file('seeds.rec', _seed('img.rec')), 'r')
        records = []
        while True:
            r = rec_io.read()
            if r is None:
                break
            records.append(r)
        rec_io.close()
        params = [_seed(n) for n in ('list.params', 'dict.params', 'sparse.params',
                                     'net.params', 'net-0000.params')]
        states = [_seed('trainer.states'), _seed('plain.states')]
        return {
            'nd_load': (params, _mutate_bytes, self.nd_load, 3),
            'nd_load_frombuffer': (params, _mutate_bytes, self.nd_load_frombuffer, 2),
            'load_parameters': ([_seed('net.params')], _mutate_bytes, self.load_parameters, 1),
            'imports_params': ([_seed('net-0000.params')], _mutate_bytes, self.imports_params,
                               1),
            'imports_symbol': ([_seed('net-symbol.json')], _mutate_json, self.imports_symbol,
                               1),
            'load_json': ([_seed('net-symbol.json')], _mutate_json, self.load_json, 1),
            'trainer_load_states': (states, _mutate_bytes, self.trainer_load_states, 2),
            'recordio_idx': ([_seed('img.idx')], _mutate_bytes, self.recordio_idx, 1),
            'unpack_img': (records, _mutate_bytes, self.unpack_img, 1),
        }


# ------------------------------------------------------------------------------ running
class _Hang(Exception):
    pass


def _alarm(*_):
    raise _Hang()


def _case(seed, target, index, seeds, mutate):
    rng = random.Random('%d/%s/%d' % (seed, target, index))
    return mutate(rng, rng.choice(seeds), seeds)


def _vm_size():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmSize:'):
                return int(line.split()[1]) * 1024
    return 0


def run(targets, cases=None, seconds=None, seed=1, hang=5.0, max_alloc=2 ** 30,
        progress=False):
    """Fuzz ``targets`` (names) for ``cases`` cases in all or ``seconds`` seconds; returns a
    report {target: {'cases', 'ok', 'mxnet_error', 'failures': [...]}}."""
    from mxcompat.base import MXNetError
    warnings.simplefilter('ignore')
    import logging
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        t = Targets(tmp)
        specs = t.specs()
        names = [n for n in specs if not targets or n in targets]
        for name in names:  # warm up: imports and first-call costs are not the input's
            try:
                specs[name][2](specs[name][0][0])
            except MXNetError:
                pass
        limit = _vm_size() + max_alloc
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(
            resource.RLIMIT_AS)[1]))
        signal.signal(signal.SIGALRM, _alarm)
        weights = [specs[n][3] for n in names]
        total_w = float(sum(weights))
        report = {n: {'cases': 0, 'ok': 0, 'mxnet_error': 0, 'failures': []} for n in names}
        start = time.time()
        index = 0
        while True:
            if cases is not None and index >= cases:
                break
            if seconds is not None and time.time() - start > seconds:
                break
            # targets in proportion to their weights, deterministically
            name = names[0]
            pos = (index * 0.6180339887498949) % 1.0 * total_w
            for n, w in zip(names, weights):
                if pos < w:
                    name = n
                    break
                pos -= w
            seeds, mutate, load, _ = specs[name]
            r = report[name]
            case_no = r['cases']
            data = _case(seed, name, case_no, seeds, mutate)
            r['cases'] += 1
            index += 1
            signal.setitimer(signal.ITIMER_REAL, hang)
            t0 = time.time()
            try:
                load(data)
                r['ok'] += 1
            except MXNetError as err:
                if str(err).strip():
                    r['mxnet_error'] += 1
                else:
                    r['failures'].append((case_no, 'MXNetError without a message'))
            except _Hang:
                r['failures'].append((case_no, 'hang: over %.1f s' % hang))
            except Exception as err:  # pylint: disable=broad-except
                where = traceback.extract_tb(err.__traceback__)[-1]
                r['failures'].append((case_no, '%s: %s (%s:%d)' % (
                    type(err).__name__, str(err)[:200], os.path.basename(where.filename),
                    where.lineno)))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if time.time() - t0 > hang:
                r['failures'].append((case_no, 'slow: %.1f s' % (time.time() - t0)))
            if progress and index % 5000 == 0:
                print('%d cases, %.0f s, failures %s' % (
                    index, time.time() - start,
                    {n: len(v['failures']) for n, v in report.items()}), flush=True)
        return report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--cases', type=int, help='number of cases in all')
    parser.add_argument('--seconds', type=float, help='stop after this many seconds')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--targets', nargs='*', help='only these targets')
    parser.add_argument('--hang', type=float, default=5.0, help='seconds that count as a hang')
    parser.add_argument('--max-alloc', type=int, default=2 ** 30,
                        help='bytes an input may make the process allocate')
    parser.add_argument('--json', help='write the report here')
    parser.add_argument('--show', nargs=2, metavar=('TARGET', 'CASE'),
                        help='write case CASE of TARGET to stdout (binary) and exit')
    args = parser.parse_args(argv)
    if args.show:
        with tempfile.TemporaryDirectory() as tmp:
            seeds, mutate = Targets(tmp).specs()[args.show[0]][:2]
        sys.stdout.buffer.write(_case(args.seed, args.show[0], int(args.show[1]), seeds, mutate))
        return 0
    if args.cases is None and args.seconds is None:
        args.seconds = 20
    report = run(args.targets, args.cases, args.seconds, args.seed, args.hang, args.max_alloc,
                 progress=True)
    failed = 0
    for name, r in report.items():
        failed += len(r['failures'])
        print('%-22s %8d cases %8d ok %8d MXNetError %5d failures'
              % (name, r['cases'], r['ok'], r['mxnet_error'], len(r['failures'])))
        for case_no, what in r['failures'][:5]:
            print('    case %d: %s' % (case_no, what))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(report, f, indent=1)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
