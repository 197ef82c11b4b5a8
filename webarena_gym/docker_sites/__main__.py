"""``python -m webarena_gym.docker_sites COMMAND``: the ``sites`` commands without the console script."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
