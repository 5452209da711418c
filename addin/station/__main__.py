"""``python -m addin.station BOOK``: the stations' writer (``addin.station.writer``)."""

import sys

from addin.station.writer import main

sys.exit(main())
