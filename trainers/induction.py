"""Copy pretraining: train a fresh tiny model to repeat spans of its corpus, meant to stand in for a pretrained base.

WebAgent-R1 starts from pretrained language models, which can already continue a string they
have read earlier in their context. A tiny model built from a config cannot: after behaviour
cloning it writes the strings of its train tasks from memory and never copies an unseen
entity from the intent into its action. Copy pretraining was meant as the smallest stand-in
for the pretrained base: every row is some text of the corpus, then a span of it (optionally
followed by a gap of other text), then the same span again, and only the repeat carries loss,
so that the model would learn to find what it is repeating and continue it (induction heads).

What it teaches, measured: next-token accuracy on repeats of the corpus rises from about 0% to
about 80% in 600 steps, but accuracy on repeats of the same tokens in shuffled order (text that
only copying can predict: :func:`shuffled`, ``copy_accuracy_shuffled``) stays under 1%. The model
learns to predict its corpus, not to copy: the repeat of a corpus span is corpus text. Spans of
random tokens drawn uniformly from the vocabulary (``spans="random"``), which only copying
predicts, do teach a 2-layer model of width 96 to copy, if the learning rate warms up
(:data:`WARMUP_STEPS`): at 3e-3 from the first step the model sat on the plateau of a uniform guess for
1,400 to over 5,000 steps, by the draw of rows; warmed up over 500 steps it copies most shuffled
tokens by step 750 (README, "A base meant to copy").

>>> from trainers.induction import copy_pretrain                                  # doctest: +SKIP
>>> copy_pretrain("runs/tiny", texts, steps=600)  # trains the model directory in place  # doctest: +SKIP
{'copy_accuracy_before': 0.0, 'copy_accuracy': 0.82, ..., 'copy_accuracy_shuffled': 0.007, 'steps': 600}
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

#: Labels the loss ignores (the text before the repeat, and padding).
IGNORED = -100
#: The longest gap, in tokens, over which ``copy_accuracy_far`` measures copying: about the page an
#: agent's row holds between its task and its action (2,000 characters of simplified HTML).
FAR_GAP = 384
#: What a copy row's span is made of: a run of the corpus, or tokens drawn uniformly from its vocabulary.
COPY_SPANS = ("corpus", "random")
#: Steps over which the learning rate rises linearly to its value, by the kind of span. Random spans need it:
#: full-size AdamW steps from the first left seed 0's tiny model on the plateau for over 5,000 steps, where 500
#: steps of warm-up (or 1e-3 throughout) took it off by step 750. Corpus spans keep none, as the bases measured.
WARMUP_STEPS = {"corpus": 0, "random": 500}


def token_stream(tokenizer: Any, texts: Iterable[str]) -> list[int]:
    """The token ids of the distinct ``texts``, in order, one after another."""
    stream: list[int] = []
    for text in dict.fromkeys(texts):
        stream.extend(tokenizer(text, add_special_tokens=False)["input_ids"])
    return stream


def shuffled(stream: Sequence[int], seed: int = 3) -> list[int]:
    """The tokens of ``stream`` in a random order: its vocabulary without its sequences, so a repeat of a span
    of it can be predicted only by copying the span."""
    tokens = list(stream)
    random.Random(seed).shuffle(tokens)
    return tokens


def repeated_spans(stream: Sequence[int], rng: random.Random, batch_size: int, *, max_prefix: int = 64,
                   min_span: int = 4, max_span: int = 64, max_gap: int = 0, vocabulary: Sequence[int] | None = None,
                   pad_id: int = 0) -> dict[str, Any]:
    """One batch of copy rows: up to ``max_prefix`` tokens of ``stream``, a span of it, up to ``max_gap``
    tokens of other text, the span again.

    The gap is what an agent's row has between the intent and the action that copies from it (a
    page of a few hundred tokens); without one, a repeat only ever follows its span directly.
    With ``vocabulary``, a span is tokens drawn uniformly from it instead of a run of ``stream``:
    a repeat of corpus text can be predicted from the corpus, a repeat of random tokens only by
    copying.
    Returns ``input_ids``, ``attention_mask`` and ``labels`` tensors (right-padded); the labels
    are the repeat's tokens and :data:`IGNORED` elsewhere.
    """
    import torch

    longest = max(max_prefix, max_span, max_gap)
    if len(stream) <= longest:
        raise ValueError(f"the token stream has {len(stream)} tokens; copy rows need more than {longest}: "
                         "pass more text")
    rows = []
    for _ in range(batch_size):
        prefix_length, span_length = rng.randint(0, max_prefix), rng.randint(min_span, max_span)
        start = rng.randrange(len(stream) - prefix_length)
        prefix = stream[start : start + prefix_length]
        if vocabulary is None:
            span_start = rng.randrange(len(stream) - span_length)
            span = stream[span_start : span_start + span_length]
        else:
            span = [rng.choice(vocabulary) for _ in range(span_length)]
        gap: Sequence[int] = []
        if max_gap:  # drawn only then, so rows without a gap are those drawn before the option existed
            gap_length = rng.randint(0, max_gap)
            gap_start = rng.randrange(len(stream) - gap_length)
            gap = stream[gap_start : gap_start + gap_length]
        rows.append((list(prefix) + list(span) + list(gap), list(span)))
    width = max(len(context) + len(repeat) for context, repeat in rows)
    input_ids = torch.full((batch_size, width), pad_id, dtype=torch.long)
    attention_mask = torch.zeros((batch_size, width), dtype=torch.long)
    labels = torch.full((batch_size, width), IGNORED, dtype=torch.long)
    for i, (context, repeat) in enumerate(rows):
        ids = context + repeat
        input_ids[i, : len(ids)] = torch.tensor(ids)
        attention_mask[i, : len(ids)] = 1
        labels[i, len(context) : len(ids)] = torch.tensor(repeat)
    return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


def repeat_logits(model: Any, batch: dict[str, Any]) -> tuple[Any, Any]:
    """The model's next-token logits at the positions that predict a repeat's tokens, and those tokens.

    The output layer runs on those positions only, as TRL's fused head does for BC; over every position
    it is about half of a step (``benchmarks/copy_pretraining_step.py``: the same loss, a step 1.6x
    faster without a gap and 1.9x with gaps up to 384 tokens).
    """
    hidden = model.base_model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).last_hidden_state
    targets = batch["labels"][:, 1:]
    scored = targets != IGNORED
    return model.get_output_embeddings()(hidden[:, :-1][scored]).float(), targets[scored]


def copy_accuracy(model: Any, stream: Sequence[int], *, batches: int = 2, batch_size: int = 32, seed: int = 12345,
                  max_gap: int = 0, shuffled_tokens: bool = False, pad_id: int = 0) -> float:
    """Greedy next-token accuracy on the repeats of ``batches`` copy batches drawn with ``seed`` (gaps up to
    ``max_gap`` tokens), from ``stream`` or, with ``shuffled_tokens``, from its tokens in a random order."""
    import torch

    stream = shuffled(stream) if shuffled_tokens else stream
    rng = random.Random(seed)
    correct = total = 0
    device = next(model.parameters()).device
    with torch.no_grad():
        for _ in range(batches):
            batch = {k: v.to(device) for k, v in repeated_spans(stream, rng, batch_size, max_gap=max_gap,
                                                                      pad_id=pad_id).items()}
            logits, targets = repeat_logits(model, batch)
            correct += int((logits.argmax(-1) == targets).sum())
            total += len(targets)
    return correct / total


def check_count(name: str, value: Any, unit: str, *, at_least: int = 0) -> None:
    """Refuse ``value`` unless it is a whole number (not a bool) of at least ``at_least``, naming it and its ``unit``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < at_least:
        raise ValueError(f"{name} must be a whole number of {unit}, at least {at_least}, got {value!r}")


def copy_pretrain(model_dir: str | Path, texts: Iterable[str], *, steps: int = 600, batch_size: int = 32,
                  learning_rate: float = 3e-3, max_gap: int = 0, spans: str = "corpus", seed: int = 0,
                  warmup_steps: int | None = None, progress: bool = True) -> dict[str, float]:
    """Train the model saved in ``model_dir`` on repeated spans of ``texts`` and save it there again.

    AdamW with gradients clipped at norm 1, on the saved model's device, with float32 weights (bf16
    autocast on CUDA where supported: weights trained in bf16 alone turned to NaN on an H200 for the
    small model, 2 seeds of 3) and, in bf16 on CUDA, eager attention (SDPA's memory-efficient backward
    returned NaN gradients there: :func:`~trainers.config.training_attention`). ``max_gap`` puts up to
    that many tokens of other text between a span and its repeat (:func:`repeated_spans`). ``spans="random"`` makes every span tokens drawn
    uniformly from the corpus's vocabulary, which only copying predicts; ``"corpus"`` takes runs of
    the corpus, which the model can learn to predict without copying. The learning rate rises linearly
    to ``learning_rate`` over ``warmup_steps`` (``None``: :data:`WARMUP_STEPS` of the kind of span). Returns the copy accuracy
    (:func:`copy_accuracy` on spans never trained on) before and after: right after the span (``copy_accuracy``), across
    gaps of up to :data:`FAR_GAP` tokens (``copy_accuracy_far``) and on the corpus's tokens shuffled
    (``copy_accuracy_shuffled``, the only one of the three that memorising the corpus cannot
    raise), and the step count. A loss that is no longer finite stops it with ``FloatingPointError``,
    the saved model left as it was.
    """
    import torch
    from tqdm.auto import tqdm

    from .config import cuda_bf16_available, training_attention
    from .policy import load_policy

    check_count("steps", steps, "optimizer steps", at_least=1)
    check_count("max_gap", max_gap, "tokens")
    if spans not in COPY_SPANS:
        raise ValueError(f"spans must be one of {COPY_SPANS}, got {spans!r}")
    warmup_steps = WARMUP_STEPS[spans] if warmup_steps is None else warmup_steps
    check_count("warmup_steps", warmup_steps, "steps")
    model_dir = Path(model_dir)
    mixed = cuda_bf16_available()  # bf16 autocast on CUDA, with the attention that trains finite there
    model, tokenizer = load_policy(str(model_dir), dtype=torch.float32, attn_implementation=training_attention(mixed))
    stream = token_stream(tokenizer, texts)
    pad_id = tokenizer.pad_token_id or 0
    vocabulary = sorted(set(stream)) if spans == "random" else None
    measures = {"copy_accuracy": {}, "copy_accuracy_far": {"max_gap": FAR_GAP},
                "copy_accuracy_shuffled": {"shuffled_tokens": True}}
    before = {name: copy_accuracy(model, stream, pad_id=pad_id, **how) for name, how in measures.items()}
    rng = random.Random(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
    warmup = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda done: min(1.0, (done + 1) / max(warmup_steps, 1)))
    device = next(model.parameters()).device
    model.train()
    with torch.random.fork_rng(devices=[]), tqdm(total=steps, desc="copy pretraining", disable=not progress) as bar:
        torch.manual_seed(seed)
        for _ in range(steps):
            batch = {k: v.to(device) for k, v in repeated_spans(stream, rng, batch_size, max_gap=max_gap,
                                                                      vocabulary=vocabulary, pad_id=pad_id).items()}
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=mixed):
                loss = torch.nn.functional.cross_entropy(*repeat_logits(model, batch))
            if not torch.isfinite(loss):
                raise FloatingPointError(f"copy pretraining diverged at step {bar.n + 1}: loss {loss.item()} "
                                         f"({model_dir} is left as it was); lower learning_rate")
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
            warmup.step()
            bar.set_postfix(loss=f"{loss.item():.3f}", refresh=False)
            bar.update()
    model.eval()
    after = {name: copy_accuracy(model, stream, pad_id=pad_id, **how) for name, how in measures.items()}
    model.save_pretrained(model_dir)
    logger.info("Copy pretraining: %d steps, %s", steps,
                ", ".join(f"{name} {before[name]:.3f} -> {after[name]:.3f}" for name in measures))
    return {**{f"{name}_before": value for name, value in before.items()}, **after, "steps": steps}
