"""Text spaces that accept any unicode string (HTML observations, free-form actions); the action space
samples actions of the grammar."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

from .actions import ACTIONS, Action, ActionName
from .errors import ConfigurationError


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


class ActionText(UnicodeText):
    """The env's action space: any string (a text that is no action is an agent mistake, not an error).

    ``sample()`` is a random agent: it draws a well-formed action of the grammar
    (:data:`webarena_gym.actions.ACTIONS`) with the space's RNG (``space.seed(n)`` repeats the
    draws): each action equally likely (``exit`` included), an element id from
    ``0 .. max_element - 1`` (ids number a page's elements in reading order, so small ids are
    its main content; an id the page lacks is an agent mistake the next observation reports),
    a text argument or exit message from a few short words. Every sample parses with
    :func:`webarena_gym.actions.parse_action`. With ``mask`` or ``probability`` (Gymnasium's
    per-character options of ``Text``) it samples characters as ``Text`` does instead.

    >>> space = ActionText(max_length=1000, seed=0)
    >>> [space.sample() for _ in range(4)]  # doctest: +NORMALIZE_WHITESPACE
    ['do(action="Wait")', 'do(action="Scroll Down")',
     'do(action="Select Dropdown Option", element="1", argument="test")', 'do(action="Click", element="16")']
    >>> from webarena_gym.actions import parse_action
    >>> parse_action(space.sample()).name in {spec.name for spec in ACTIONS}
    True
    """

    #: What a sampled Type, Search or Select argument, or an exit message, is drawn from.
    WORDS = ("test", "shoes", "2023", "blue", "N/A", "1", "yes", "Done", "")

    def __init__(self, max_length: int = 1_000_000, *, max_element: int = 20, min_length: int = 0, seed: Any = None):
        if not isinstance(max_element, int) or isinstance(max_element, bool) or max_element < 1:
            raise ConfigurationError(f"max_element must be a whole number of at least 1, got {max_element!r}.")
        self.max_element = max_element
        super().__init__(max_length=max_length, min_length=min_length, seed=seed)

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        spec = ACTIONS[int(self.np_random.integers(len(ACTIONS)))]
        words = [word for word in self.WORDS if word] if spec.argument else self.WORDS
        text = str(words[int(self.np_random.integers(len(words)))])
        if spec.name is ActionName.EXIT:
            return Action(ActionName.EXIT, message=text).to_string()
        element = int(self.np_random.integers(self.max_element)) if spec.element else None
        return Action(spec.name, element=element, argument=text if spec.argument else None).to_string()

    def __repr__(self) -> str:
        return f"ActionText({self.min_length}, {self.max_length}, max_element={self.max_element})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ActionText) and super().__eq__(other) and self.max_element == other.max_element


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


__all__ = ["ActionText", "UnicodeText"]
