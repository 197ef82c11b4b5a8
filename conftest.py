"""Doctest collection of the package: skip integration modules whose library is not installed here.

Each integration imports its library at module level (only its extra's users import it);
verifiers in particular cannot be installed next to openenv (see setup.cfg).
"""

from __future__ import annotations

import importlib.util

_LIBRARIES = {"trl.py": "trl", "openenv.py": "openenv", "skyrl.py": "skyrl_gym", "verifiers.py": "verifiers"}

collect_ignore = [f"webarena_gym/integrations/{module}" for module, library in _LIBRARIES.items()
                  if importlib.util.find_spec(library) is None]
