"""The ``mxcompat`` command.

    mxcompat run script.py [args ...]    run an MXNet script unchanged, on mxcompat
    mxcompat run -m module [args ...]    the same for a module (like ``python -m``)
    mxcompat demo [args ...]             train the bundled example (examples/train_mlp.py)
    mxcompat im2rec PREFIX ROOT [...]    MXNet's tools/im2rec.py (image lists and .rec files)
    mxcompat scan PATH [...]             which MXNet APIs a codebase uses, and their support
    mxcompat convert INPUT... [-o OUT]   MXNet checkpoints to safetensors, .pt, .pt2, .onnx
    mxcompat inspect FILE [--json]       the arrays of a .params file, the graph of a symbol
    mxcompat --version
"""
import argparse
import builtins
import importlib.machinery
import io
import os
import runpy
import sys
import types

DEMO = 'train_mlp.py'


def _version():
    import torch
    from importlib import metadata
    from . import __version__ as api_version
    try:
        dist = metadata.version('mxcompat')
    except metadata.PackageNotFoundError:
        dist = 'unknown'
    return 'mxcompat %s (MXNet %s API) on torch %s' % (dist, api_version, torch.__version__)


def _examples_dir():
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'examples')


def _report(exc, script):
    """Print an uncaught exception as ``python script.py`` would: frames from the script on."""
    tb = exc.__traceback__
    if script is not None:
        path = os.path.abspath(script)
        t = tb
        while t is not None and os.path.abspath(t.tb_frame.f_code.co_filename) != path:
            t = t.tb_next
        tb = t or tb
    exc.__traceback__ = tb  # the default hook prints the exception's own traceback
    sys.excepthook(type(exc), exc, tb)


def _module_file(name):
    import importlib.util
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None  # runpy reports it
    return spec.origin if spec is not None else None


def _exec_script(path):
    """Execute the file ``path`` as the ``__main__`` module, as the interpreter does."""
    if not os.path.isfile(path):
        runpy.run_path(path, run_name='__main__')  # a directory or zip with __main__.py
        return
    path = os.path.abspath(path)
    with io.open_code(path) as f:
        code = compile(f.read(), path, 'exec', dont_inherit=True)
    main = types.ModuleType('__main__')
    main.__dict__.update(__file__=path, __cached__=None, __package__=None, __spec__=None,
                         __loader__=importlib.machinery.SourceFileLoader('__main__', path),
                         __builtins__=builtins)
    sys.modules['__main__'] = main
    exec(code, main.__dict__)


def run(target, args, module=False):
    """Run ``target`` (a script path, or a module name when ``module``) as ``__main__``, with
    ``import mxnet`` resolving to mxcompat and ``sys.argv`` set as ``python`` would set it.

    Returns the process exit status: 0, or 1 after printing an uncaught exception.
    ``SystemExit`` raised by the script propagates.
    """
    from .utils.alias import install
    install()
    if module:
        sys.argv = [target] + list(args)  # runpy replaces argv[0] with the module's file
        sys.path[0] = os.getcwd()
        script = _module_file(target)
    else:
        if not os.path.exists(target):
            sys.stderr.write("mxcompat run: can't open file %r: No such file or directory\n"
                             % target)
            return 2
        sys.argv = [target] + list(args)
        sys.path[0] = os.path.dirname(os.path.abspath(target))
        script = target
    try:
        if module:
            runpy.run_module(target, run_name='__main__', alter_sys=True)
        else:
            _exec_script(target)
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as exc:  # what the interpreter would report as uncaught
        _report(exc, script)
        return 1
    return 0


def _parser():
    ap = argparse.ArgumentParser(
        prog='mxcompat', description='Run Apache MXNet 1.x code unchanged on PyTorch.')
    ap.add_argument('--version', action='version', version=_version())
    sub = ap.add_subparsers(dest='command', metavar='COMMAND')
    p = sub.add_parser('run', help='run an MXNet script with `import mxnet` resolving to '
                                   'mxcompat', description='Run a script (or, with -m, a '
                       'module) as __main__ with `import mxnet` resolving to mxcompat, as '
                       '`python script.py args...` would.')
    p.add_argument('-m', dest='module', action='store_true',
                   help='TARGET is a module name, run like `python -m TARGET`')
    p.add_argument('target', metavar='TARGET', help='script path (or module name with -m)')
    p.add_argument('args', nargs=argparse.REMAINDER, help="the script's own arguments")
    p = sub.add_parser('demo', help='train the bundled example MLP (examples/%s)' % DEMO,
                       description='Run examples/%s, a legacy MXNet training script, '
                       'unchanged on mxcompat. Arguments are passed to the script.' % DEMO)
    p.add_argument('args', nargs=argparse.REMAINDER, help="the script's own arguments")
    from .tools import im2rec
    im2rec.add_arguments(sub.add_parser(
        'im2rec', help="create an image list or a .rec database (MXNet's tools/im2rec.py)",
        description='Create an image list or make a record database by reading from an '
                    'image list', formatter_class=argparse.ArgumentDefaultsHelpFormatter))
    from .tools import scan
    scan.add_arguments(sub.add_parser(
        'scan', help='report the MXNet APIs a codebase uses and whether mxcompat supports '
                     'each', description='Statically scan Python files, notebooks and '
                     '-symbol.json files (nothing is imported or run) for uses of MXNet, and '
                     'resolve each against mxcompat.'))
    from .tools import convert
    convert.add_arguments(sub.add_parser(
        'convert', help='convert MXNet checkpoints to safetensors, torch state_dicts, '
                        'torch.export programs or ONNX',
        description='Convert a Gluon .params file, a Module checkpoint or an mx.nd.save file '
                    'to .safetensors (the default) or a torch state_dict (.pt); with the '
                    "model's -symbol.json, to a torch.export program (.pt2) or ONNX (.onnx)."))
    from .tools import inspect_files
    inspect_files.add_arguments(sub.add_parser(
        'inspect', help='list the arrays of a .params file or describe a -symbol.json graph',
        description='Describe an MXNet parameter file (names, shapes, dtypes, sizes, totals) '
                    'or symbol JSON file (inputs, outputs, operator histogram, parameters, '
                    'operators mxcompat does not support).'))
    return ap


def main(argv=None):
    """Entry point of the ``mxcompat`` console script; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # Everything after `run TARGET` belongs to the script, options included.
    if len(argv) >= 2 and argv[0] == 'run' and not argv[1].startswith('-'):
        return run(argv[1], argv[2:])
    if len(argv) >= 3 and argv[0] == 'run' and argv[1] == '-m':
        return run(argv[2], argv[3:], module=True)
    if argv[:1] == ['demo'] and '-h' not in argv[1:2] and '--help' not in argv[1:2]:
        script = os.path.join(_examples_dir(), DEMO)
        if not os.path.exists(script):
            sys.stderr.write('mxcompat demo: %s not found; the demo needs a source checkout of '
                             'mxcompat (pip install -e .)\n' % script)
            return 2
        return run(script, argv[1:])
    ap = _parser()
    ns = ap.parse_args(argv)
    if ns.command is None:
        ap.print_help()
        return 2
    if ns.command == 'run':
        return run(ns.target, ns.args, module=ns.module)
    if ns.command == 'im2rec':
        from .tools import im2rec
        return im2rec.run(ns)
    if ns.command == 'scan':
        from .tools import scan
        return scan.run(ns)
    if ns.command == 'convert':
        from .tools import convert
        return convert.run(ns)
    if ns.command == 'inspect':
        from .tools import inspect_files
        return inspect_files.run(ns)
    return 0


if __name__ == '__main__':
    sys.exit(main())
