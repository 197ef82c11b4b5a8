"""Entity swaps: copies of demonstrations in which every string the expert copied is a new one.

A small model cloning a few dozen demonstrations memorises their strings: on an unseen task it
types a train task's keyword into the search box. In a swapped copy, each string the expert
copied (from the intent into an action, or from a page into its answer) is replaced, in the
intent, every page, every URL and every action, by a fresh string of the same shape: words by
other words the train pages use, digits by random digits. The page layout, element ids and the
site's logic are untouched, so the copy is as consistent as the original, and a model can fit
both only by copying.
"""

from __future__ import annotations

import dataclasses
import random
import re
import string
from collections.abc import Iterable, Sequence
from urllib.parse import quote, quote_plus

from webarena_gym.actions import parse_action
from webarena_gym.demos import Demonstration
from webarena_gym.prompts import Turn

_PIECES = re.compile(r"[A-Za-z]+|[0-9]|.", re.DOTALL)
_WORD = re.compile(r"[A-Za-z]{3,}")
_WORDS_IN = re.compile(r"\S+")
#: Words of a typed argument searched for a copied run: no name of the sites is longer.
MAX_RUN_WORDS = 256


def copied_strings(demo: Demonstration) -> list[str]:
    """The strings ``demo``'s expert copied, longest first.

    From the intent: the longest run of whole words of a typed argument that the intent holds
    (``Golden Film House`` from ``cafes near Golden Film House``). From a page: an answer that
    the episode's last page shows verbatim.
    """
    found: set[str] = set()
    last_page = demo.turns[-1].observation
    for turn in demo.turns:
        action = parse_action(turn.action)
        if action.argument and (run := _longest_word_run(action.argument, demo.intent)):
            found.add(run)
        if action.message and len(action.message) >= 2 and _alternatives([action.message]).search(last_page):
            found.add(action.message)
    return sorted(found, key=len, reverse=True)


def _longest_word_run(text: str, intent: str) -> str:
    """The longest run of consecutive words of ``text`` that ``intent`` holds as whole words (3+ characters).

    Among the first :data:`MAX_RUN_WORDS` words of ``text``. A run's tail is held wherever the
    run is, so the run's end only moves forward: at most twice that many look-ups in the intent.
    """
    words = _WORDS_IN.findall(text)[:MAX_RUN_WORDS]
    best, end = "", 0
    for start in range(len(words)):
        end = max(end, start)
        while end < len(words) and " ".join(words[start : end + 1]) in intent:
            end += 1
        run = " ".join(words[start:end]).strip(".,;:!?\"'")
        if len(run) > max(len(best), 2) and re.search(rf"(?<!\w){re.escape(run)}(?!\w)", intent):
            best = run
    return best


def word_pool(demos: Iterable[Demonstration]) -> list[str]:
    """The distinct words (three letters or more) on the demonstrations' pages, sorted."""
    return sorted({w.lower() for d in demos for t in d.turns for w in _WORD.findall(t.observation)})


def fresh_string(original: str, rng: random.Random, words: Sequence[str]) -> str:
    """A string shaped like ``original``: each word another word of ``words`` in the same case, each digit a digit.

    >>> fresh_string("Smoky Corner Store 23", random.Random(0), ["cedar", "lamp", "river"])
    'Lamp Lamp Cedar 48'
    """
    pieces = []
    for piece in _PIECES.findall(original):
        if not piece.isascii():
            pieces.append(piece)
        elif piece.isalpha() and len(piece) <= 2:
            pieces.append("".join(rng.choice(string.ascii_uppercase if c.isupper() else string.ascii_lowercase)
                                  for c in piece))
        elif piece.isalpha() and words:
            word = rng.choice(words)
            pieces.append(word.upper() if piece.isupper() else word.capitalize() if piece[0].isupper() else word)
        elif piece.isdigit():
            pieces.append(str(rng.randrange(10)))
        else:
            pieces.append(piece)
    return "".join(pieces)


def swap_strings(demo: Demonstration, mapping: dict[str, str]) -> Demonstration:
    """``demo`` with every key of ``mapping`` replaced by its value (longest first) in the intent, pages, URLs and actions."""
    if not mapping:
        return demo
    pattern = _alternatives(mapping)

    def swap(text: str) -> str:
        return pattern.sub(lambda m: mapping[m.group(0)], text)

    # In a URL a name is escaped or slugged, and digits around it belong to escapes (%20): names only, anywhere.
    in_urls = {encode(k): encode(v) for k, v in mapping.items() if len(k) >= (6 if k.isdigit() else 4)
               for encode in (quote_plus, quote, _slug)}
    url_pattern = _alternatives(in_urls, whole_words=False) if in_urls else None

    def swap_url(url: str) -> str:
        return url_pattern.sub(lambda m: in_urls[m.group(0)], url) if url_pattern else url

    turns = []
    for turn in demo.turns:
        action = parse_action(turn.action)
        action = dataclasses.replace(
            action,
            argument=swap(action.argument) if action.argument is not None else None,
            message=swap(action.message) if action.message is not None else None,
        )
        turns.append(Turn(swap(turn.observation), action.to_string(), swap_url(turn.url), swap(turn.thought)))
    return dataclasses.replace(demo, intent=swap(demo.intent), turns=turns)


def _alternatives(strings: Iterable[str], *, whole_words: bool = True) -> re.Pattern:
    """Any of ``strings``, longest first; as whole words outside element ids (``id="24"``) unless told otherwise."""
    alternatives = "|".join(re.escape(k) for k in sorted(strings, key=len, reverse=True))
    return re.compile(rf'(?<!id=")(?<!\w)(?:{alternatives})(?!\w)' if whole_words else alternatives)


def _slug(text: str) -> str:
    """``text`` as the sites write it in a page's path: ``Glowra Gel, Pack of 2`` -> ``glowra-gel-pack-of-2``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def entity_swaps(demos: Sequence[Demonstration], copies: int, *, seed: int = 0) -> list[Demonstration]:
    """``copies`` swapped copies of each demonstration (those that copy nothing are left out), in order."""
    if copies < 0:
        raise ValueError(f"copies must be at least 0, got {copies!r}")
    rng = random.Random(seed)
    words = word_pool(demos)
    swapped = []
    for demo in demos:
        strings = copied_strings(demo)
        if not strings:
            continue
        for _ in range(copies):
            swapped.append(swap_strings(demo, {s: fresh_string(s, rng, words) for s in strings}))
    return swapped
