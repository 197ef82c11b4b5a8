"""Does a GRPO step of a Qwen2.5-3B-shaped model fit one GPU, with LoRA and activation checkpointing?

A step of ``--tasks`` tasks x G rollouts of ``--context-tokens`` tokens each (the last
``--completion-tokens`` of them the policy's turn) has two peaks, measured apart on the trainer's own
model (:class:`trainers.grpo.MultiTurnGRPOTrainer` with ``lora_r``, bf16 and activation checkpointing,
the attention its config picks):

- generation: every rollout's context in one ``generate`` call, as the trainer batches a turn
  (prompts of the whole context less two tokens, two tokens sampled: the KV cache ends as long as a
  generated turn's would);
- update: one micro-batch (``--micro-batch`` rows) through the reference log-probs (LoRA off), TRL's
  loss, its backward, and an optimizer step.

A probe that runs out of memory does not fit. ``--search`` then looks for the largest context at
G=``--num-generations`` and the largest group at the largest context that fits, within ``--budget-s``;
``--compare-attention`` also probes the first point with SDPA. Every probe goes to ``--json`` as it
finishes. Random weights and token ids: memory does not depend on their values.

The default lengths (16,384 tokens of context, 1,024 per turn) are this script's assumption of the
paper's setting, not read from it: pass the paper's own numbers where they differ.

Run: ``python benchmarks/gpu_memory.py --search --json runs/gpu_memory.json`` (CUDA);
``--shape tiny --context-tokens 256 --completion-tokens 16`` runs the same code on a CPU.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import torch
from model_shapes import SHAPES, build_shaped_model, project_tokenizer

#: Contexts tried by the search, and groups: powers of two around the paper's point.
CONTEXT_LADDER = (1024, 2048, 4096, 8192, 16384, 32768)
GROUP_LADDER = (2, 4, 8, 16, 32, 64)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="qwen2.5-3b", choices=sorted(SHAPES))
    parser.add_argument("--tasks", type=int, default=4, help="tasks per step")
    parser.add_argument("--num-generations", type=int, default=8, help="G, rollouts per task")
    parser.add_argument("--context-tokens", type=int, default=16384, help="tokens of one rollout's context")
    parser.add_argument("--completion-tokens", type=int, default=1024, help="tokens of the policy's turn")
    parser.add_argument("--micro-batch", type=int, default=1, help="rows per forward pass of the update")
    parser.add_argument("--lora-r", type=int, default=16)
    parser.add_argument("--search", action="store_true", help="also the largest context and the largest group")
    parser.add_argument("--compare-attention", action="store_true", help="also the first point with SDPA")
    parser.add_argument("--budget-s", type=float, default=float("inf"), help="start no probe after this many seconds")
    parser.add_argument("--json", help="write the probes here as they finish")
    return parser.parse_args(argv)


class Probe:
    """The trainer of a shaped model, and the two peaks of a step at given sizes."""

    def __init__(self, args: argparse.Namespace, directory: str):
        from trainers.config import MultiTurnGRPOConfig
        from trainers.grpo import MultiTurnGRPOTrainer
        from trainers.rollout import make_rollout_envs

        self.cuda = torch.cuda.is_available()
        self.device = "cuda" if self.cuda else "cpu"
        self.tokenizer = project_tokenizer()
        bf16 = self.cuda  # the trainer's own default: bf16 where CUDA supports it
        rows = args.tasks * args.num_generations
        model = build_shaped_model(args.shape, self.tokenizer, device=self.device,
                                   dtype=torch.bfloat16 if bf16 else torch.float32)
        config = MultiTurnGRPOConfig(
            output_dir=directory, lora_r=args.lora_r, bf16=bf16, gradient_checkpointing=True,
            num_generations=args.num_generations, per_device_train_batch_size=args.micro_batch,
            gradient_accumulation_steps=rows // args.micro_batch, steps_per_generation=rows // args.micro_batch,
            max_steps=1, max_completion_length=args.completion_tokens, save_strategy="no", report_to="none",
            plot_metrics=False, disable_tqdm=True, seed=0,
        )
        if config.attn_implementation:  # the model is built here, not loaded: give it the config's attention
            model.set_attn_implementation(config.attn_implementation)
        self.attention = config.attn_implementation or model.config._attn_implementation
        envs = make_rollout_envs(config, 1, workers=0)
        self.trainer = MultiTurnGRPOTrainer(model, config, processing_class=self.tokenizer, envs=envs)
        self.trainer.create_optimizer()
        self.trainer.current_gradient_accumulation_steps = config.gradient_accumulation_steps  # set by its loop
        self.vocab = len(self.tokenizer)

    def close(self) -> None:
        self.trainer.envs.close()

    def set_attention(self, name: str) -> None:
        self.trainer.accelerator.unwrap_model(self.trainer.model).set_attn_implementation(name)
        self.attention = name

    def _ids(self, rows: int, length: int) -> torch.Tensor:
        return torch.randint(300, self.vocab, (rows, length), device=self.device)

    def _peak(self) -> float | None:
        return torch.cuda.max_memory_allocated() / 2**30 if self.cuda else None

    def _reset(self) -> None:
        if self.cuda:
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()

    def generation(self, rows: int, context: int) -> float | None:
        model = self.trainer.accelerator.unwrap_model(self.trainer.model)
        model.eval()
        self._reset()
        prompt = self._ids(rows, context - 2)
        with torch.no_grad(), self.trainer.accelerator.autocast():
            model.generate(input_ids=prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=2,
                           min_new_tokens=2, do_sample=True, pad_token_id=self.tokenizer.pad_token_id)
        return self._peak()

    def update(self, context: int, completion: int) -> float | None:
        from trainers.scoring import labelled_positions_scored

        trainer, micro = self.trainer, self.trainer.args.per_device_train_batch_size
        trainer.model.train()
        self._reset()
        prompt, done = self._ids(micro, context - completion), self._ids(micro, completion)
        batch = {"prompt_ids": prompt, "prompt_mask": torch.ones_like(prompt), "completion_ids": done,
                 "completion_mask": torch.ones_like(done), "tool_mask": torch.ones_like(done),
                 "advantages": torch.randn(micro, device=self.device)}
        batch["num_items_in_batch"] = batch["completion_mask"].sum()
        ids, mask = torch.cat([prompt, done], dim=1), torch.ones(micro, context, dtype=torch.long, device=self.device)
        with labelled_positions_scored(True), trainer.accelerator.autocast():
            if trainer.beta:
                with torch.no_grad():
                    batch["ref_per_token_logps"] = trainer._reference_logps(ids, mask, completion)
            loss = trainer.compute_loss(trainer.model, batch)
        trainer.accelerator.backward(loss)
        trainer.optimizer.step()
        trainer.optimizer.zero_grad(set_to_none=True)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"the loss is {loss.item()}")
        return self._peak()

    def run(self, group: int, context: int, tasks: int, completion: int) -> dict[str, Any]:
        """One probe: both peaks, or the phase that ran out of memory."""
        record: dict[str, Any] = {"tasks": tasks, "group": group, "context": context, "completion": completion,
                                  "attention": self.attention, "generation_peak_gib": None, "update_peak_gib": None}
        start = time.perf_counter()
        try:
            record["generation_peak_gib"] = self.generation(tasks * group, context)
            record["update_peak_gib"] = self.update(context, min(completion, context - 2))
            record["fits"] = True
        except torch.OutOfMemoryError as exc:
            record["fits"] = False
            record["error"] = f"out of memory in {'update' if record['generation_peak_gib'] else 'generation'}: " \
                              f"{str(exc).splitlines()[0][:200]}"
        finally:
            self.trainer.optimizer.zero_grad(set_to_none=True)
            if self.cuda:
                torch.cuda.empty_cache()
        record["seconds"] = round(time.perf_counter() - start, 2)
        return record


def search(probe: Probe, args: argparse.Namespace, write) -> dict[str, Any]:
    """The paper's point, then (``--search``) the largest context at G and the largest group at that context."""
    deadline = time.perf_counter() + args.budget_s
    probes: list[dict[str, Any]] = []
    result: dict[str, Any] = {"shape": args.shape, "attention": probe.attention, "lora_r": args.lora_r,
                              "micro_batch": args.micro_batch, "activation_checkpointing": True, "probes": probes,
                              "device_gib": (torch.cuda.get_device_properties(0).total_memory / 2**30
                                             if probe.cuda else None),
                              "complete": False}

    def run(group: int, context: int) -> bool:
        if time.perf_counter() > deadline:
            raise TimeoutError
        probes.append(probe.run(group, context, args.tasks, args.completion_tokens))
        write(result)
        return probes[-1]["fits"]

    try:
        fits = run(args.num_generations, args.context_tokens)
        result["paper_step_fits"] = fits
        if args.compare_attention and probe.attention != "sdpa":
            chosen = probe.attention
            probe.set_attention("sdpa")
            try:
                result["paper_step_fits_with_sdpa"] = run(args.num_generations, args.context_tokens)
            finally:
                probe.set_attention(chosen)
        if args.search:
            best = args.context_tokens if fits else None
            if fits:  # longer contexts, up to the first that does not fit
                ladder = [c for c in CONTEXT_LADDER if c > args.context_tokens]
            else:  # shorter ones, down to the first that fits
                ladder = [c for c in reversed(CONTEXT_LADDER) if args.completion_tokens < c < args.context_tokens]
            for context in ladder:
                if run(args.num_generations, context) != fits:
                    best = context if not fits else best
                    break
                best = context if fits else best
            result["largest_context_at_group"] = best
            if best is not None:
                largest = args.num_generations
                for group in (g for g in GROUP_LADDER if g > args.num_generations):
                    if not run(group, best):
                        break
                    largest = group
                result["largest_group_at_context"] = largest
        result["complete"] = True
    except TimeoutError:
        result["stopped"] = f"the {args.budget_s:.0f} s budget ended the search"
    write(result)
    return result


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)

    def write(result: dict[str, Any]) -> None:
        if args.json:
            path = Path(args.json)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.with_suffix(".tmp").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
            path.with_suffix(".tmp").replace(path)

    with tempfile.TemporaryDirectory() as tmp:
        probe = Probe(args, tmp)
        try:
            result = search(probe, args, write)
        finally:
            probe.close()
    memory = "peak CUDA memory" if probe.cuda else "no CUDA: peaks not measured"
    print(f"{args.shape}, LoRA r={args.lora_r}, activation checkpointing, micro-batch {args.micro_batch}, "
          f"{result['attention']} attention; {memory}")
    print(f"{'tasks x G':>9} {'context':>8} {'attention':>9} {'generation':>11} {'update':>8} {'fits':>5}")
    for p in result["probes"]:
        gib = ["-" if v is None else f"{v:.1f}G" for v in (p["generation_peak_gib"], p["update_peak_gib"])]
        print(f"{p['tasks']:>3} x {p['group']:<3} {p['context']:>8} {p['attention']:>9} {gib[0]:>11} {gib[1]:>8} "
              f"{'yes' if p['fits'] else 'no':>5}")


if __name__ == "__main__":
    main()
