"""Text spaces that accept any unicode string (HTML observations, free-form actions)."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory


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


# Gymnasium's AsyncVectorEnv passes observations through shared memory, which it lays out for a
# Text space as indices into the space's charset; ours is all of unicode, so a slot holds the
# character's code point instead (-1 past the end of the string). The parent reads the memory once,
# when it creates it, and expects a live view (as numpy gives for a Box): a SharedTexts.
@create_shared_memory.register(UnicodeText)
def _create_unicode_shared_memory(space: UnicodeText, n: int = 1, ctx: ModuleType = mp) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * space.max_length)


@write_to_shared_memory.register(UnicodeText)
def _write_unicode_to_shared_memory(space: UnicodeText, index: int, value: str, shared_memory: Any) -> None:
    if not space.contains(value):
        raise ValueError(f"{value!r:.80} is not a string of at most {space.max_length} characters.")
    size = space.max_length
    slots = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)[index * size : (index + 1) * size]
    codes = np.frombuffer(value.encode("utf-32-le", "surrogatepass"), dtype=np.int32)
    slots[: len(codes)] = codes
    slots[len(codes) :] = -1


@read_from_shared_memory.register(UnicodeText)
def _read_unicode_from_shared_memory(space: UnicodeText, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape((n, space.max_length)))


class SharedTexts(Sequence):
    """The strings in a block of shared memory (one row of code points each), read when indexed.

    A copy (``copy.deepcopy``, what AsyncVectorEnv returns by default) is a plain tuple of str.
    """

    def __init__(self, rows: np.ndarray):
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self)[index]
        row = self._rows[index]
        ends = np.flatnonzero(row < 0)
        return row[: ends[0] if len(ends) else len(row)].tobytes().decode("utf-32-le", "surrogatepass")

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: Any) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, SharedTexts) else other)

    __hash__ = None  # live contents

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r:.200})"


__all__ = ["UnicodeText"]
