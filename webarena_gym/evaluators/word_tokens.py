"""Word tokens the way NLTK 3.8.1's ``word_tokenize`` makes them, without NLTK or its data, in linear time.

WebArena-Lite's ``must_include`` (VisualAgentBench pins ``nltk==3.8.1``) matches a
one-token reference against the answer's tokens from ``nltk.word_tokenize``: Punkt
sentence splitting with NLTK's English model, then the improved Penn Treebank rules on
each sentence. Both steps change the result: the Treebank rules split a period off only
at the end of a sentence, so ``"costs 2. the rest"`` keeps ``"2."`` whole (Punkt does not
end a sentence after a number followed by a lowercase word) while ``"is 2."`` gives
``"2"`` and ``"."``.

This module reproduces both steps from their published behaviour:

- Sentences: Punkt's candidate contexts (a ``. ? !`` followed by punctuation or by
  whitespace and a token, with the word before it), its own word splitting, the two
  annotation passes and the realignment of closing quotes and brackets. The English
  model enters through :data:`ABBREVIATIONS` (the abbreviation types it knows) and its
  orthographic evidence, which for lowercase words comes down to: not a sentence starter,
  except for the few words in :data:`_LOWERCASE_SENTENCE_STARTERS`. The evaluators only
  tokenize lowercased text, where this is exact; for capitalised words (which need the
  model's full statistics) a capitalised word after an initial keeps the initial's
  period, anything else is undecided.
- Words: the Treebank rules of NLTK 3.8.1 in their order (opening quotes, punctuation,
  brackets, dashes, closing quotes and clitics, the ``cannot gonna gotta ...`` splits).

NLTK itself is quadratic on some inputs (its final-period rule backtracks over long runs
of spaces; its Punkt look-back rescans); here every step is a single pass, so a
100,000-character answer is tokenized in milliseconds (``benchmarks/evaluator_throughput.py``).

>>> word_tokenize("It costs $3.88 (roughly 3,36 euros), isn't it?")
['It', 'costs', '$', '3.88', '(', 'roughly', '3,36', 'euros', ')', ',', 'is', "n't", 'it', '?']
>>> word_tokenize("the answer is 2.")
['the', 'answer', 'is', '2', '.']
>>> word_tokenize("there are 2. the others left. ok")
['there', 'are', '2.', 'the', 'others', 'left', '.', 'ok']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# ---------------------------------------------------------------- sentence splitting

#: Abbreviation types of NLTK's English Punkt model (lowercase, final period removed): a
#: period after one of these does not end a sentence.
ABBREVIATIONS = frozenset(
    """a.a a.c a.d a.g a.h a.m a.m.e a.s a.t adm ala ariz aug ave b.f b.v bros c c.i.t c.o.m.b c.v
    calif chg cie co col colo conn corp cos ct d d.c d.h d.w dec dr e e.f e.h e.l e.m f f.g f.j feb
    fla fri ft g g.d g.f g.k ga gen h h.c h.f h.m i.m.s ill inc j.b j.c j.j j.k j.p j.r jan jr k kan
    ky l l.a l.f l.p lt ltd m m.b.a m.d.c m.j maj messrs mg mich minn mr mrs ms n n.c n.d n.h n.j n.m
    n.v n.y nev nov oct ok okla ore p p.a.m p.m pa ph.d prof r r.a r.h r.i r.j r.k r.t rep reps s
    s.a s.a.y s.c s.g s.p.a s.s sen sep sept sr st sw t t.j tenn tues u.k u.n u.s u.s.a u.s.s.r v va
    vs vt w w.c w.r w.va w.w wash wed wis yr""".split()
) | {". . "}
#: Lowercase words the English model has seen starting a sentence and never capitalised:
#: after a number or an initial they leave the sentence break in place.
_LOWERCASE_SENTENCE_STARTERS = frozenset({"administrators", "b-week", "r-revised", "z-holiday"})

_PUNKT_WHITESPACE = " \t\n\r\x0b\x0c"  # what Punkt's look-back for the previous word calls a space
_NON_WORD = r"""[)";}\]*:@'({\[?!]"""
_MULTI_CHAR = r"(?:-{2,}|\.{2,}|(?:\.\s){2,}\.)"
_CANDIDATE_RE = re.compile(rf"[.?!](?=(?P<after>{_NON_WORD}|\s+(?P<next>\S+)))")
_PUNKT_WORD_RE = re.compile(
    rf"""{_MULTI_CHAR}
    |(?=[^("`{{\[:;&\#*@)}}\]\-,])\S+?(?=\s|$|{_NON_WORD}|{_MULTI_CHAR}|,(?=$|\s|{_NON_WORD}|{_MULTI_CHAR}))
    |\S""",
    re.VERBOSE,
)
_NUMBER_RE = re.compile(r"^-?[.,]?\d[\d,.\-]*\.?$")
_INITIAL_RE = re.compile(r"[^\W\d]\.$")
_CLOSERS_RE = re.compile(r"""["')\]}]+?(?:\s+|(?=--)|$)""", re.MULTILINE)
_PUNCTUATION_TOKENS = frozenset(";:,.!?")


class _Token:
    """A Punkt word token and what the two annotation passes decide about it."""

    __slots__ = ("text", "kind", "breaks", "abbreviation", "ellipsis")

    def __init__(self, text: str):
        self.text = text
        lowered = text.lower()
        self.kind = "##number##" if _NUMBER_RE.match(lowered) else lowered
        self.breaks = self.abbreviation = self.ellipsis = False
        if text in (".", "?", "!"):
            self.breaks = True
        elif re.match(r"\.\.+$", text):
            self.ellipsis = True
        elif text.endswith(".") and not text.endswith(".."):
            bare = lowered[:-1]
            if bare in ABBREVIATIONS or bare.split("-")[-1] in ABBREVIATIONS:
                self.abbreviation = True
            else:
                self.breaks = True

    def kind_without_break_period(self) -> str:
        if self.breaks and len(self.kind) > 1 and self.kind.endswith("."):
            return self.kind[:-1]
        return self.kind

    def starts_sentence(self) -> bool | None:
        """The orthographic heuristic: True, False, or None when there is no evidence."""
        if self.text in _PUNCTUATION_TOKENS:
            return False
        if self.text[0].islower():
            return None if self.kind_without_break_period() in _LOWERCASE_SENTENCE_STARTERS else False
        return None


def _reclassify(token: _Token, following: _Token) -> None:
    """Punkt's second pass on a period-final token, given the token after it."""
    if not token.text.endswith("."):
        return
    initial = bool(_INITIAL_RE.match(token.text))
    kind = token.kind[:-1] if len(token.kind) > 1 and token.kind.endswith(".") else token.kind
    if (token.abbreviation or token.ellipsis) and not initial and following.starts_sentence() is True:
        token.breaks = True
        return
    if initial or kind == "##number##":
        verdict = following.starts_sentence()
        if verdict is False or (verdict is None and initial and following.text[0].isupper()):
            token.breaks, token.abbreviation = False, True


def _context_has_break(context: str) -> bool:
    """Whether Punkt puts a sentence break after any token of ``context`` but its last."""
    tokens = [_Token(word) for line in context.split("\n") if line.strip() for word in _PUNKT_WORD_RE.findall(line)]
    for token, following in zip(tokens, tokens[1:], strict=False):
        _reclassify(token, following)
        if token.breaks:
            return True
    return False


def _candidates(text: str) -> Iterator[tuple[re.Match[str], str]]:
    """Each possible sentence end with its context (the word before it, itself, what follows).

    A candidate whose word reaches back into the previous candidate's word replaces it.
    """
    previous: re.Match[str] | None = None
    word_start = word_end = 0
    for match in _CANDIDATE_RE.finditer(text):
        space = max(text.rfind(c, word_end, match.start()) for c in _PUNKT_WHITESPACE)
        # a space found at the very start of the gap counts as none (as in NLTK)
        start = space + 1 if space > word_end else word_start
        if previous is not None and word_end <= start:
            yield previous, text[word_start:word_end] + previous.group() + previous.group("after")
        previous, word_start, word_end = match, start, match.start()
    if previous is not None:
        yield previous, text[word_start:word_end] + previous.group() + previous.group("after")


def _sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    last = 0
    for match, context in _candidates(text):
        if _context_has_break(context):
            yield last, match.end()
            last = match.start("next") if match.group("next") else match.end()
    yield last, len(text.rstrip())


def split_sentences(text: str) -> list[str]:
    """Sentences as Punkt cuts them (closing quotes and brackets stay with their sentence).

    >>> split_sentences("i paid 5. then i left. (it was late.) ok")
    ['i paid 5. then i left.', '(it was late.)', 'ok']
    """
    spans = list(_sentence_spans(text))
    sentences = []
    shift = 0
    for (start, end), following in zip(spans, [*spans[1:], None], strict=True):
        start += shift
        if following is None:
            if text[start:end]:
                sentences.append(text[start:end])
            break
        closers = _CLOSERS_RE.match(text, following[0], max(following[0], following[1]))
        if closers:
            sentences.append(text[start : following[0] + len(closers.group().rstrip())])
            shift = closers.end() - following[0]
        else:
            shift = 0
            if text[start:end]:
                sentences.append(text[start:end])
    return sentences


# ---------------------------------------------------------------- word tokenization

_FINAL_CLOSERS = "])}>\"'»”’ "
_FINAL_CLOSERS_ASCII = "])}>\"'"
_STARTING_QUOTES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"([«“‘„]|`+)"), r" \1 "),
    (re.compile(r'^"'), "``"),
    (re.compile(r"(``)"), r" \1 "),
    (re.compile(r"""([ (\[{<])("|'')"""), r"\1 `` "),
    (re.compile(r"(?i)(')(?!re|ve|ll|m|t|s|d|n)(\w)\b"), r"\1 \2"),
]
_PUNCTUATION_BEFORE_FINAL: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"([:,])([^\d])"), r" \1 \2"),
    (re.compile(r"([:,])$"), r" \1 "),
    (re.compile(r"\.{2,}"), r" \g<0> "),
    (re.compile(r"[;@#$%&]"), r" \g<0> "),
]
_PUNCTUATION_AFTER_FINAL: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"[?!]"), r" \g<0> "),
    (re.compile(r"([^'])' "), r"\1 ' "),
    (re.compile(r"[*]"), r" \g<0> "),
    (re.compile(r"[\]\[(){}<>]"), r" \g<0> "),
    (re.compile(r"--"), r" -- "),
]
_ENDING_QUOTES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"([»”’])"), r" \1 "),
    (re.compile(r"''"), " '' "),
    (re.compile(r'"'), " '' "),
    (re.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') "), r"\1 \2 "),
    (re.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), r"\1 \2 "),
]
# words that are two words: cannot -> can not, gonna -> gon na, 'tis -> 't is
_CONTRACTIONS = [
    re.compile(pattern)
    for pattern in (
        r"(?i)\b(can)(not)\b",
        r"(?i)\b(d)('ye)\b",
        r"(?i)\b(gim)(me)\b",
        r"(?i)\b(gon)(na)\b",
        r"(?i)\b(got)(ta)\b",
        r"(?i)\b(lem)(me)\b",
        r"(?i)\b(more)('n)\b",
        r"(?i)\b(wan)(na)(?=\s)",
        r"(?i) ('t)(is)\b",
        r"(?i) ('t)(was)\b",
    )
]


def _split_final_period(text: str, closing: str, separator: str) -> str:
    """A Treebank final-period rule, without its regex's backtracking over long runs of spaces.

    The rule: the text's last period (not after another period, not its first character),
    followed only by a run of ``closing`` characters and then whitespace, becomes
    ``" ." + separator + closers + " "``; the trailing whitespace is dropped.
    """
    period = text.rfind(".")
    if period < 1 or text[period - 1] == ".":
        return text
    closers_end = period + 1
    while closers_end < len(text) and text[closers_end] in closing:
        closers_end += 1
    if text[closers_end:].strip():
        return text
    return text[:period] + " ." + separator + text[period + 1 : closers_end] + " "


def treebank_tokenize(sentence: str) -> list[str]:
    """Penn Treebank tokens of one sentence (NLTK 3.8.1's improved Treebank rules).

    >>> treebank_tokenize("They'll say \\"I can't\\" -- cannot!")
    ['They', "'ll", 'say', '``', 'I', 'ca', "n't", "''", '--', 'can', 'not', '!']
    """
    text = sentence
    for pattern, replacement in _STARTING_QUOTES:
        text = pattern.sub(replacement, text)
    text = _split_final_period(text, _FINAL_CLOSERS, " ")
    for pattern, replacement in _PUNCTUATION_BEFORE_FINAL:
        text = pattern.sub(replacement, text)
    text = _split_final_period(text, _FINAL_CLOSERS_ASCII, "")
    for pattern, replacement in _PUNCTUATION_AFTER_FINAL:
        text = pattern.sub(replacement, text)
    text = f" {text} "
    for pattern, replacement in _ENDING_QUOTES:
        text = pattern.sub(replacement, text)
    for pattern in _CONTRACTIONS:
        text = pattern.sub(r" \1 \2 ", text)
    return text.split()


def word_tokenize(text: str) -> list[str]:
    """Tokens as ``nltk.word_tokenize(text)`` (NLTK 3.8.1) gives them: sentences, then Treebank rules."""
    return [token for sentence in split_sentences(text) for token in treebank_tokenize(sentence)]
