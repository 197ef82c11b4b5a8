"""Text spaces that accept any unicode string (HTML observations, free-form actions)."""

from __future__ import annotations

from typing import Any

from gymnasium import spaces


class UnicodeText(spaces.Text):
    """A :class:`gymnasium.spaces.Text` whose charset is all of unicode.

    Gymnasium's ``Text`` only admits alphanumerics by default, which rejects the ``<``,
    ``"`` and spaces of every HTML observation and action string. Sampling draws from a
    printable ASCII charset so samples stay readable.

    >>> space = UnicodeText(max_length=100)
    >>> space.contains('<a id="0">Home</a> — café')
    True
    >>> space.contains(b"bytes")
    False
    """

    _SAMPLE_CHARSET = "".join(chr(c) for c in range(32, 127))

    def __init__(self, max_length: int = 1_000_000, *, min_length: int = 0, seed: Any = None):
        super().__init__(max_length=max_length, min_length=min_length, charset=self._SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and (self.min_length, self.max_length) == (
            other.min_length,
            other.max_length,
        )

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        return str(super().sample(mask=mask, probability=probability))


__all__ = ["UnicodeText"]
