"""``python -m companion`` runs the ``cascade`` command."""

import sys

from companion.cli import main

sys.exit(main())
