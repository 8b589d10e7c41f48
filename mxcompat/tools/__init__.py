"""Command-line tools shipped with MXNet, reimplemented on mxcompat (``mxcompat im2rec``)."""
