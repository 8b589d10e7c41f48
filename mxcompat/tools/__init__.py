"""Command-line tools: MXNet's own, reimplemented on mxcompat (``mxcompat im2rec``), and
``mxcompat scan``, a migration report for an MXNet codebase."""
