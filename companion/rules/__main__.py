"""``python -m companion.rules``: see :mod:`companion.rules.cli`."""

from __future__ import annotations

import sys

from companion.rules.cli import main

sys.exit(main())
