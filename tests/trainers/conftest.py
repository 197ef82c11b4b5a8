"""Fixtures for the trainer tests: the place family (see place_family.py), a tiny model trained
offline on its text, and a BC warm start shared by the GRPO tests."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("trl")

from .place_family import bc_config, build_place_family, place_envs  # noqa: E402


@pytest.fixture(scope="session")
def place_family():
    return build_place_family()


@pytest.fixture(scope="session")
def shared_place_envs(place_family):
    """8 rollout envs over the place family in 2 worker processes (what the trainers build from a config)."""
    tasks, _demos = place_family
    envs = place_envs(tasks, 8)
    yield envs
    envs.close()


@pytest.fixture(scope="session")
def tiny_model_dir(place_family, tmp_path_factory) -> Path:
    from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts

    _tasks, demos = place_family
    return build_tiny_model(tmp_path_factory.mktemp("tiny"), texts=demonstration_texts(demos) * 4,
                            spec=TinyModelSpec(vocab_size=3000, hidden_size=64, intermediate_size=192))


@pytest.fixture(scope="session")
def tiny_tokenizer(tiny_model_dir):
    from trainers.policy import load_tokenizer

    return load_tokenizer(str(tiny_model_dir))


@pytest.fixture(scope="session")
def bc_model_dir(place_family, tiny_model_dir, tmp_path_factory) -> Path:
    """The tiny model after a short BC warm start on the family (shared, read-only)."""
    from trainers.bc import train_bc

    _tasks, demos = place_family
    output = tmp_path_factory.mktemp("bc")
    train_bc(bc_config(output, num_train_epochs=40, logging_steps=4), str(tiny_model_dir), demonstrations=demos)
    return output


@pytest.fixture
def nan_model_dir(tiny_model_dir, tmp_path) -> Path:
    """A copy of the tiny model with one weight not a number (what a diverged run leaves)."""
    import shutil

    import torch
    from safetensors.torch import load_file, save_file

    model_dir = shutil.copytree(tiny_model_dir, tmp_path / "nan")
    weights = load_file(str(model_dir / "model.safetensors"))
    name = next(n for n in weights if "layers.0" in n and n.endswith("weight"))
    weights[name].view(-1)[0] = torch.nan
    save_file(weights, str(model_dir / "model.safetensors"), metadata={"format": "pt"})
    return model_dir
