"""``python -m mxcompat``: the ``mxcompat`` command."""
import sys

from .cli import main

sys.exit(main())
