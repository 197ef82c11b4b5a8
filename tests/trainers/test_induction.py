"""Copy pretraining (trainers/induction.py): its rows, its errors, and that it teaches a tiny model to copy."""

from __future__ import annotations

import random
import shutil

import pytest
import torch
from safetensors import safe_open

from trainers.induction import IGNORED, copy_accuracy, copy_pretrain, repeated_spans, shuffled, token_stream
from trainers.policy import Sampler, load_policy
from trainers.tiny import demonstration_texts

pytestmark = pytest.mark.train


def test_a_copy_row_is_text_a_span_and_the_span_again_with_loss_on_the_repeat_only():
    stream = list(range(1000, 1400))
    batch = repeated_spans(stream, random.Random(0), 16, max_prefix=8, min_span=4, max_span=12, pad_id=7)
    for ids, mask, labels in zip(batch["input_ids"].tolist(), batch["attention_mask"].tolist(),
                                 batch["labels"].tolist(), strict=True):
        length = sum(mask)
        assert mask == [1] * length + [0] * (len(mask) - length)
        assert ids[length:] == [7] * (len(ids) - length)
        scored = [i for i, label in enumerate(labels) if label != IGNORED]
        repeat = [ids[i] for i in scored]
        assert scored == list(range(length - len(repeat), length))  # the row's tail, nothing else
        assert [labels[i] for i in scored] == repeat and 4 <= len(repeat) <= 12
        assert ids[length - 2 * len(repeat) : length - len(repeat)] == repeat  # the span, just before its repeat
        prefix = ids[: length - 2 * len(repeat)]
        assert len(prefix) <= 8
        for piece in filter(None, (prefix, repeat)):  # each a run of the stream (whose ids count up)
            assert piece == list(range(piece[0], piece[0] + len(piece)))


def test_a_gap_of_other_text_may_lie_between_a_span_and_its_repeat():
    stream = list(range(1000, 1400))
    batch = repeated_spans(stream, random.Random(0), 64, max_prefix=8, min_span=4, max_span=12, max_gap=40)
    gaps = []
    for ids, mask, labels in zip(batch["input_ids"].tolist(), batch["attention_mask"].tolist(),
                                 batch["labels"].tolist(), strict=True):
        length = sum(mask)
        repeat = [label for label in labels if label != IGNORED]
        assert ids[length - len(repeat) : length] == repeat and 4 <= len(repeat) <= 12
        before = ids[: length - len(repeat)]
        # The span is a run of the stream somewhere before the repeat; after it, at most 40 tokens of other text.
        starts = [i for i in range(len(before) - len(repeat) + 1) if before[i : i + len(repeat)] == repeat]
        assert starts, (before, repeat)
        gaps.append(len(before) - len(repeat) - starts[-1])
        assert gaps[-1] <= 40
    assert min(gaps) < 10 and max(gaps) > 30  # gaps of every length up to the bound, not one fixed distance
    with pytest.raises(ValueError, match="pass more text"):
        repeated_spans(stream[:300], random.Random(0), 1, max_gap=384)


def test_the_stream_reads_each_distinct_text_once(tiny_tokenizer):
    once = token_stream(tiny_tokenizer, ["Search for a cafe", "Click the first result"])
    assert token_stream(tiny_tokenizer, ["Search for a cafe", "Click the first result", "Search for a cafe"]) == once
    assert tiny_tokenizer.decode(once) == "Search for a cafeClick the first result"


def test_copy_pretraining_teaches_the_tiny_model_its_corpus_not_copying(place_family, tiny_model_dir, tmp_path):
    _tasks, demos = place_family
    texts = demonstration_texts(demos)
    model_dir = shutil.copytree(tiny_model_dir, tmp_path / "tiny")
    result = copy_pretrain(model_dir, texts, steps=300, batch_size=16, progress=False)

    model, tokenizer = load_policy(str(model_dir))  # saved in place
    stream = token_stream(tokenizer, texts)
    assert copy_accuracy(model, stream) == pytest.approx(result["copy_accuracy"])
    assert copy_accuracy(model, stream, shuffled_tokens=True) == pytest.approx(result["copy_accuracy_shuffled"])
    assert result["steps"] == 300 and result["copy_accuracy_before"] < 0.1
    # A fresh model predicts a repeat no better than any other text; after pretraining it predicts most of a
    # repeated span of its corpus, right after the span and across a page's worth of other text (0.95, 0.90 here)...
    assert result["copy_accuracy"] > 0.5 and result["copy_accuracy_far_before"] < 0.1 and result["copy_accuracy_far"] > 0.5
    # ... because it predicts its corpus: the same tokens shuffled, which only copying predicts, stay far below.
    assert result["copy_accuracy_shuffled"] < result["copy_accuracy"] - 0.3
    # Saved as built, in float32 (on CUDA too, where it trains under bf16 autocast), every weight finite,
    # and the policy samples from it.
    with safe_open(str(model_dir / "model.safetensors"), framework="pt") as saved:
        weights = [saved.get_tensor(name) for name in saved.keys()]
    assert all(w.dtype == torch.float32 and torch.isfinite(w).all() for w in weights)
    torch.manual_seed(0)
    sampled = Sampler(model, tokenizer, max_new_tokens=8, temperature=1.0)([stream[:64]] * 4)
    assert len(sampled) == 4 and all(0 < len(ids) <= 8 and max(ids) < len(tokenizer) for ids in sampled)


def test_random_spans_are_tokens_of_the_vocabulary_that_no_run_of_the_corpus_holds():
    stream = list(range(1000, 1400))
    vocabulary = list(range(5000, 5050))
    batch = repeated_spans(stream, random.Random(0), 32, max_prefix=8, min_span=4, max_span=12, max_gap=20,
                           vocabulary=vocabulary)
    drawn = []
    for ids, mask, labels in zip(batch["input_ids"].tolist(), batch["attention_mask"].tolist(),
                                 batch["labels"].tolist(), strict=True):
        repeat = [label for label in labels if label != IGNORED]
        assert set(repeat) <= set(vocabulary) and 4 <= len(repeat) <= 12
        length = sum(mask)
        start = next(i for i, token in enumerate(ids) if token in vocabulary)
        assert ids[start : start + len(repeat)] == repeat and ids[length - len(repeat) : length] == repeat
        # prefix and gap are corpus text
        assert not set(ids[:start] + ids[start + len(repeat) : length - len(repeat)]) & set(vocabulary)
        drawn += repeat
    assert len(set(drawn)) > 40  # spread over the vocabulary, not a few favourite tokens


def test_shuffled_tokens_keep_the_vocabulary_and_lose_the_order():
    stream = list(range(500)) * 2
    mixed = shuffled(stream)
    assert sorted(mixed) == sorted(stream) and mixed != stream
    assert shuffled(stream) == mixed and shuffled(stream, seed=4) != mixed  # one order per seed


def _largest_change(model_dir, before) -> float:
    after = dict(load_policy(str(model_dir))[0].named_parameters())
    return max(float((after[name].detach() - weight).abs().max()) for name, weight in before.items())


def test_random_spans_warm_the_learning_rate_up_and_corpus_spans_do_not(place_family, tiny_model_dir, tmp_path):
    """AdamW's first step moves some weight by about the learning rate; warmed up over 500 steps, by 1/500 of it."""
    texts = demonstration_texts(place_family[1])
    before = {name: weight.detach().clone() for name, weight in load_policy(str(tiny_model_dir))[0].named_parameters()}
    change = {}
    for spans, warmup in (("corpus", None), ("random", None), ("random", 0), ("corpus", 10)):
        model_dir = shutil.copytree(tiny_model_dir, tmp_path / f"{spans}_{warmup}")
        copy_pretrain(model_dir, texts, steps=1, batch_size=4, learning_rate=1e-2, spans=spans, warmup_steps=warmup,
                      progress=False)
        change[spans, warmup] = _largest_change(model_dir, before)
    assert change["corpus", None] == pytest.approx(1e-2, rel=0.05)  # no warm-up: the full rate at once
    assert change["random", 0] == pytest.approx(1e-2, rel=0.05)
    assert change["random", None] == pytest.approx(1e-2 / 500, rel=0.05)  # WARMUP_STEPS["random"]
    assert change["corpus", 10] == pytest.approx(1e-2 / 10, rel=0.05)


def test_copy_pretraining_refuses_a_bad_step_count_or_too_little_text(tiny_model_dir, tmp_path):
    model_dir = shutil.copytree(tiny_model_dir, tmp_path / "tiny")
    before = (model_dir / "model.safetensors").read_bytes()
    for steps in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="steps must be a whole number"):
            copy_pretrain(model_dir, ["some text"], steps=steps, progress=False)
    for gap in (-1, 2.5, True):
        with pytest.raises(ValueError, match="max_gap must be a whole number"):
            copy_pretrain(model_dir, ["some text"], steps=1, max_gap=gap, progress=False)
    with pytest.raises(ValueError, match=r"spans must be one of \('corpus', 'random'\), got 'words'"):
        copy_pretrain(model_dir, ["some text"], steps=1, spans="words", progress=False)
    for warmup in (-1, 2.5, True):
        with pytest.raises(ValueError, match="warmup_steps must be a whole number"):
            copy_pretrain(model_dir, ["some text"], steps=1, warmup_steps=warmup, progress=False)
    with pytest.raises(ValueError, match="pass more text"):
        copy_pretrain(model_dir, ["too short"], steps=1, progress=False)
    assert (model_dir / "model.safetensors").read_bytes() == before
    assert torch.isfinite(next(load_policy(str(model_dir))[0].parameters())).all()


def test_copy_pretraining_stops_with_a_clear_error_when_the_loss_is_not_finite(place_family, nan_model_dir):
    _tasks, demos = place_family
    saved = (nan_model_dir / "model.safetensors").read_bytes()
    with pytest.raises(FloatingPointError, match="copy pretraining diverged at step 1: loss nan.*lower learning_rate"):
        copy_pretrain(nan_model_dir, demonstration_texts(demos), steps=5, batch_size=4, progress=False)
    assert (nan_model_dir / "model.safetensors").read_bytes() == saved
