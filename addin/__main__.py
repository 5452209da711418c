import sys

from addin.cli import main

sys.exit(main())
