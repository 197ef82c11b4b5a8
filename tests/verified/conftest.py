"""WebArena-Verified tests: skipped, with the reason, where the package is not installed."""

from __future__ import annotations

import pytest

pytest.importorskip("webarena_verified", reason="the verified extra is not installed (scripts/setup.sh installs it)")
