"""Multi-turn GRPO on TRL: the WebAgent-R1 recipe.

One training step, top to bottom:

1. TRL's sampler draws tasks (or, with ``task_sampling="learnable"`` or ``"learnable_distinct"``,
   a curriculum over task families, :mod:`.curriculum`) and repeats each ``num_generations`` (G) times.
2. :meth:`MultiTurnGRPOTrainer._play` runs the G rollouts of every task, each in its own
   env and world: every turn, the contexts of all live rollouts are generated as one
   batch (TRL's own generation path: ``generate`` or vLLM), then their envs step in worker
   processes (optionally overlapped: half the envs step while the other half is generated).
3. Each trajectory's binary reward becomes a group-relative advantage,
   ``(r - mean_group) / (std_group + 1e-4)``, shared by all its action tokens.
4. The trajectories become training rows in the configured layout (:mod:`.layouts`):
   ``"turn"`` (exact contexts, exactly on-policy) or ``"trajectory"`` (one compressed
   sequence per trajectory, environment tokens masked, as WebAgent-R1 does).
5. TRL's loss: the clipped, token-level objective over action tokens only, plus
   ``beta`` times the KL to the reference model (the BC model; with LoRA, the adapter off),
   plus, with ``bc_replay_coef > 0``, that times BC's loss on a batch of demonstrations (:mod:`.replay`).

The trajectory layout fits TRL's ``rollout_func`` hook: one completion per prompt, with an
``env_mask``. The turn layout does not: a trajectory gives as many rows as it has turns,
while TRL computes rewards and advantages per prompt row; so for it this trainer replaces
``_generate_and_score_completions`` (the seam between generation and the loss) and hands
TRL's loss the same tensors TRL would build.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from datasets import Dataset
from transformers.trainer import TRAINER_STATE_NAME
from transformers.trainer_callback import TrainerState
from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR, TrainOutput
from trl import GRPOTrainer
from trl.models.utils import disable_gradient_checkpointing
from trl.trainer.utils import use_adapter

from webarena_gym.demos import Demonstration, read_demonstrations
from webarena_gym.errors import ConfigurationError

from .agent_record import agent_settings_of, warn_about_agent_settings
from .chat import require_chat_template
from .checkpoint import ROLLOUT_STATE_FILE
from .config import MultiTurnGRPOConfig
from .curriculum import FamilyLearnability, LearnableTaskSampler
from .layouts import pad_row_count, trajectory_rows, turn_rows
from .memory import FreedMemoryReleaser
from .metrics import MetricsRecorder, use_compact_progress
from .objective import collate_rows, group_advantages, row_advantages
from .policy import load_tokenizer, save_policy
from .replay import DemonstrationReplay
from .rollout import (
    RolloutClock,
    Trajectory,
    collect_rollouts_rerunning_lost,
    executor_kwargs,
    make_rollout_envs,
)
from .scoring import labelled_positions_scored

logger = logging.getLogger(__name__)


def task_dataset(envs: Any, task_ids: Sequence[int] | None = None) -> Dataset:
    """One row per task of the envs' task list (or of ``task_ids``): its intent as the prompt, and its id."""
    tasks = envs.tasks
    if task_ids is not None:
        wanted = set(task_ids)
        tasks = [t for t in tasks if t.task_id in wanted]
    return Dataset.from_list(
        [{"prompt": [{"role": "user", "content": t.intent}], "task_id": int(t.task_id)} for t in tasks]
    )


def environment_reward(completions: list[Any], env_reward: list[float], **_: Any) -> list[float]:
    """The env's final reward of each trajectory (exactly 0 or 1), passed on from the rollout."""
    return [float(r) for r in env_reward]


class MultiTurnGRPOTrainer(GRPOTrainer):
    """TRL's GRPOTrainer with multi-turn web rollouts.

    Args:
        model: A model directory, hub id or loaded model (with ``beta > 0`` and no LoRA,
            TRL reloads the reference from ``model.config._name_or_path``: save first).
        args: The run's settings; the task list comes from its agent fields.
        processing_class: The tokenizer (default: loaded with the model). It needs a chat template.
        train_dataset: Rows with ``prompt`` and ``task_id`` (default: every task of the split).
        peft_config: A ``peft.LoraConfig`` for LoRA (default: ``args.peft_config()``; None = full fine-tuning).
        callbacks: Extra ``TrainerCallback`` s (a :class:`MetricsRecorder` and a
            :class:`~trainers.memory.FreedMemoryReleaser` are always added).
        envs: The rollout envs, a :func:`~trainers.rollout.make_rollout_envs` vector env (default: built from
            ``args``: ``rollout_envs`` envs in ``rollout_workers`` processes; closed by :func:`train_grpo`).
        demonstrations: With ``args.bc_replay_coef > 0``, the demonstrations to replay (default: read from
            ``args.bc_replay_demonstrations``).
    """

    def __init__(
        self,
        model: Any,
        args: MultiTurnGRPOConfig,
        *,
        processing_class: Any = None,
        train_dataset: Dataset | None = None,
        peft_config: Any = None,
        callbacks: Sequence[Any] = (),
        envs: Any = None,
        demonstrations: Sequence[Demonstration] | None = None,
    ):
        if not isinstance(args, MultiTurnGRPOConfig):
            raise TypeError(f"args must be a MultiTurnGRPOConfig, got {type(args).__name__}.")
        if isinstance(model, str):  # a model BC or GRPO saved says how it was prompted
            warn_about_agent_settings(model, agent_settings_of(args))
            if processing_class is None:
                processing_class = load_tokenizer(model)
        check_checkpoint_steps(args)  # before envs are started
        replayed = replay_demonstrations(args, demonstrations)  # before envs are started: a bad file fails first
        if envs is None:
            # This process's share of a generation batch: every rollout of it plays at once.
            count = args.rollout_envs or args.per_device_train_batch_size * args.steps_per_generation
            envs = make_rollout_envs(args, count, workers=args.rollout_workers, **executor_kwargs(args))
        self.envs = envs
        self._batch_task_ids: list[int] = []
        # A task's family is its intent template (a task without one is a family of its own).
        self._family = {int(t.task_id): (t.intent_template_id if t.intent_template_id is not None else ("task", t.task_id))
                        for t in self.envs.tasks}
        self._task_sampler: LearnableTaskSampler | None = None  # the curriculum's, when there is one
        self._resumed_curriculum: dict | None = None  # its state in the checkpoint resumed from
        super().__init__(
            model=model,
            reward_funcs=[environment_reward],
            args=args,
            train_dataset=train_dataset if train_dataset is not None else task_dataset(self.envs, args.task_ids),
            processing_class=processing_class,
            peft_config=peft_config if peft_config is not None else args.peft_config(),
            callbacks=[*callbacks, MetricsRecorder(plot=args.plot_metrics), FreedMemoryReleaser()],
            rollout_func=self._trajectory_rollout if args.layout == "trajectory" else None,
        )
        require_chat_template(self._tokenizer)
        use_compact_progress(self)
        self._replay = None if replayed is None else DemonstrationReplay(
            replayed, args, self._tokenizer, batch_size=args.bc_replay_batch_size, seed=args.seed)

    # -- 0. checkpoints: TRL's, plus the rollout side's random state (:mod:`.checkpoint`) ------------
    def train(self, resume_from_checkpoint: str | Path | None = None, **kwargs: Any) -> Any:
        """TRL's training loop; ``resume_from_checkpoint``: a checkpoint folder of an earlier run with the same
        settings (:func:`~trainers.checkpoint.latest_checkpoint`), from which training goes on as if never stopped."""
        if resume_from_checkpoint is not None:
            path = Path(resume_from_checkpoint)
            try:
                state = json.loads((path / ROLLOUT_STATE_FILE).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise ConfigurationError(f"{path} is not a whole GRPO checkpoint ({exc}).") from None
            if (state.get("curriculum") is None) != (self.args.task_sampling == "uniform"):
                raise ConfigurationError(f"{path} was saved by a run with another task_sampling than "
                                         f"{self.args.task_sampling!r}.")
            if (state.get("replay") is None) != (self._replay is None):
                raise ConfigurationError(f"{path} was saved by a run with another bc_replay_coef than "
                                         f"{self.args.bc_replay_coef!r}.")
            self._resumed_curriculum = state["curriculum"]
            if self._replay is not None:
                self._replay.load_state_dict(state["replay"])
            resume_from_checkpoint = str(path)
            if (finished := self._finish_at(path)) is not None:
                return finished
        with labelled_positions_scored(not self.args.score_every_position):
            return super().train(resume_from_checkpoint=resume_from_checkpoint, **kwargs)

    def _finish_at(self, path: Path) -> TrainOutput | None:
        """With ``path`` at ``max_steps`` already (a run stopped after its last checkpoint): its weights, state and
        curriculum loaded and nothing trained, where the Trainer's loop would train one more step. None when
        steps are left; a checkpoint past ``max_steps`` is refused."""
        state = TrainerState.load_from_json(str(path / TRAINER_STATE_NAME))
        if self.args.max_steps <= 0 or state.global_step < self.args.max_steps:
            return None
        if state.global_step > self.args.max_steps:
            raise ConfigurationError(f"{path} is at step {state.global_step}, past this run's max_steps="
                                     f"{self.args.max_steps}: resume a checkpoint of a run with these settings.")
        self._load_from_checkpoint(str(path))
        state.max_steps = self.args.max_steps
        self.state = state
        self._get_train_sampler()  # the curriculum as the checkpoint left it (curriculum_table)
        for event in (self.callback_handler.on_train_begin, self.callback_handler.on_train_end):
            self.control = event(self.args, self.state, self.control)  # the metrics file and plot as at the end
        return TrainOutput(state.global_step, float("nan"), {})  # no loss: nothing was trained in this call

    def _save_checkpoint(self, model: Any, trial: Any) -> None:
        super()._save_checkpoint(model, trial)
        if not self.args.should_save:
            return
        folder = Path(self._get_output_dir(trial=trial)) / f"{PREFIX_CHECKPOINT_DIR}-{self.state.global_step}"
        # The generation batches trained on so far: the next one is where a resumed run's sampler goes on.
        trained = self.state.global_step * self.args.gradient_accumulation_steps // micro_batches_per_generation(self.args)
        state = {"curriculum": None if self._task_sampler is None else self._task_sampler.state_dict(trained),
                 "replay": None if self._replay is None else self._replay.state_dict()}
        partial = folder / f"{ROLLOUT_STATE_FILE}.partial"  # renamed once whole: its presence marks a whole checkpoint
        partial.write_text(json.dumps(state), encoding="utf-8")
        partial.replace(folder / ROLLOUT_STATE_FILE)

    def _issue_warnings_after_load(self, load_result: Any) -> None:
        """Transformers' warning of keys a resumed checkpoint lacks, less the tied weights (an LM head that is the
        input embedding) it stores once and that load with their source."""
        tied = getattr(self.accelerator.unwrap_model(self.model), "all_tied_weights_keys", None) or {}
        if tied and hasattr(load_result, "_replace"):
            missing = [key for key in load_result.missing_keys if tied.get(key, key) in load_result.missing_keys]
            load_result = load_result._replace(missing_keys=missing)
        super()._issue_warnings_after_load(load_result)

    # -- 1. tasks ------------------------------------------------------------------------
    def _get_train_sampler(self, dataset: Dataset | None = None) -> Any:
        if self.args.task_sampling == "uniform":
            return super()._get_train_sampler(dataset)
        dataset = self.train_dataset if dataset is None else dataset
        families = [self._family[int(task_id)] for task_id in dataset["task_id"]]
        self._task_sampler = LearnableTaskSampler(
            families, FamilyLearnability(families, memory=self.args.curriculum_memory), mini_repeat_count=self.num_generations,
            batch_size=self.args.generation_batch_size // self.num_generations,
            repeat_count=micro_batches_per_generation(self.args), seed=self.args.seed,
            distinct_families=self.args.task_sampling == "learnable_distinct",
        )
        if self._resumed_curriculum is not None:
            self._task_sampler.load_state_dict(self._resumed_curriculum)
        return self._task_sampler

    def curriculum_table(self) -> list[dict] | None:
        """The curriculum's state per family (None with uniform sampling), each row with one of its intents."""
        if self._task_sampler is None:
            return None
        intents = {self._family[int(t.task_id)]: t.intent for t in reversed(self.envs.tasks)}
        rows = self._task_sampler.learnability.table(self._task_sampler.draws_by_family())
        return [{**row, "family": str(row["family"]), "example_intent": intents.get(row["family"], "")} for row in rows]

    def _record_learnability(self, trajectories: Sequence[Trajectory]) -> None:
        """Tell the curriculum which families' groups were informative (every process's groups, gathered)."""
        if self._task_sampler is None or not self.model.training:
            return
        device = self.accelerator.device
        local = torch.tensor([[t.task_id, t.reward] for t in trajectories], dtype=torch.float64, device=device)
        gathered = self.accelerator.gather(local).view(-1, self.num_generations, 2).tolist()
        self._task_sampler.learnability.record([(self._family[int(group[0][0])], [r for _, r in group]) for group in gathered])

    # -- 2. rollouts --------------------------------------------------------------------
    def _play(self, task_ids: Sequence[int]) -> list[Trajectory]:
        """All rollouts of a generation batch, generated with TRL's own single-turn path."""

        def generate(batch: list[list[int]]) -> list[list[int]]:
            completion_ids, _logprobs = self._generate_single_turn(batch, None, {}, 1)
            return completion_ids

        clock = RolloutClock()
        # an episode lost to the infrastructure (a Ray env worker died or hung) is played again, not scored 0
        trajectories, rerun = collect_rollouts_rerunning_lost(self.envs, task_ids, generate, self._tokenizer,
                                                              clock=clock, overlap=self.args.rollout_overlap)
        self._metrics["train" if self.model.training else "eval"]["rollout/rerun_lost"].append(float(rerun))
        self._log_rollouts(trajectories, clock)
        self._record_learnability(trajectories)
        return trajectories

    def _generate_and_score_completions(self, inputs: list[dict[str, Any]]) -> dict[str, Any]:
        # TRL's rollout_func receives only the prompts; the task ids ride along here.
        self._batch_task_ids = [int(x["task_id"]) for x in inputs]
        if self.args.layout == "trajectory":
            return super()._generate_and_score_completions(inputs)
        return self._score_turns(inputs)

    # -- 3-4, trajectory layout: TRL's rollout_func hook ------------------------------------
    def _trajectory_rollout(self, prompts: list[Any], trainer: GRPOTrainer) -> dict[str, Any]:
        """One completion per prompt: the whole compressed trajectory, environment tokens masked."""
        trajectories = self._play(self._batch_task_ids)
        rows = trajectory_rows(trajectories, self._tokenizer)
        return {
            "prompt_ids": [r.prompt_ids for r in rows],
            "completion_ids": [r.completion_ids for r in rows],
            "logprobs": None,  # recomputed by TRL; sampling logprobs only matter for vLLM's correction
            "env_mask": [r.action_mask for r in rows],
            "env_reward": [t.reward for t in trajectories],
        }

    # -- 3-4, turn layout: replaces TRL's scoring (rows per trajectory vary) -------------------
    def _score_turns(self, inputs: list[dict[str, Any]]) -> dict[str, Any]:
        device = self.accelerator.device
        mode = "train" if self.model.training else "eval"
        group_size = self.num_generations if mode == "train" else self.num_generations_eval
        trajectories = self._play(self._batch_task_ids)
        rewards, local_advantages = self._advantages(trajectories, group_size)

        pad_id = self._tokenizer.pad_token_id
        slices = self.args.steps_per_generation if mode == "train" else 1
        rows = pad_row_count(turn_rows(trajectories), slices, pad_id)
        batch = {key: value.to(device) for key, value in collate_rows(rows, pad_id).items()}
        batch["advantages"] = row_advantages(rows, local_advantages).to(device)
        batch["num_items_in_batch"] = self.accelerator.gather((batch["completion_mask"] * batch["tool_mask"]).sum()).sum()

        input_ids = torch.cat([batch["prompt_ids"], batch["completion_ids"]], dim=1)
        attention_mask = torch.cat([batch["prompt_mask"], batch["completion_mask"]], dim=1)
        logits_to_keep = batch["completion_ids"].size(1)
        with torch.no_grad(), disable_gradient_checkpointing(self.model, self.args.gradient_checkpointing_kwargs):
            # Same rule as TRL: old log-probs are needed only when updates happen between sampling and use.
            if self.args.gradient_accumulation_steps % micro_batches_per_generation(self.args):
                batch["old_per_token_logps"] = self._token_logps(self.model, input_ids, attention_mask, logits_to_keep)
            if self.beta != 0.0:
                batch["ref_per_token_logps"] = self._reference_logps(input_ids, attention_mask, logits_to_keep)

        grouped = rewards.view(-1, group_size)
        self._metrics[mode]["reward"].append(rewards.mean().item())
        self._metrics[mode]["reward_std"].append(rewards.std().item() if rewards.numel() > 1 else 0.0)
        self._metrics[mode]["frac_reward_zero_std"].append((grouped.std(dim=1) == 0).float().mean().item())
        return batch

    def _advantages(self, trajectories: Sequence[Trajectory], group_size: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Every process's rewards (gathered, in process order) and the advantages of this process's trajectories.

        TRL's sampler may spread a task's G rollouts over processes (when a process's batch
        is smaller than G), so each group is normalised over the gathered rewards, exactly
        as one process holding the whole batch would, and each process keeps its own slice.
        """
        local_rewards = torch.tensor([t.reward for t in trajectories], dtype=torch.float32,
                                     device=self.accelerator.device)
        rewards = self.accelerator.gather(local_rewards)
        advantages = group_advantages(rewards.cpu(), group_size, self.scale_rewards)
        start = self.accelerator.process_index * len(trajectories)
        return rewards, advantages[start : start + len(trajectories)]

    def _token_logps(self, model: Any, input_ids: torch.Tensor, attention_mask: torch.Tensor, keep: int) -> torch.Tensor:
        batch_size = self.args.per_device_train_batch_size
        logps, _entropies, _aux = self._get_per_token_logps_and_entropies(
            model, input_ids, attention_mask, keep, batch_size=batch_size
        )
        return logps

    def _reference_logps(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, keep: int) -> torch.Tensor:
        if self.ref_model is not None:
            return self._token_logps(self.ref_model, input_ids, attention_mask, keep)
        # LoRA: the reference is the base model, i.e. the adapter switched off (as TRL does it).
        model = self.accelerator.unwrap_model(self.model)
        with use_adapter(model, adapter_name="ref" if "ref" in model.peft_config else None):
            return self._token_logps(self.model, input_ids, attention_mask, keep)

    # -- 5. the loss: TRL's, plus demonstration replay ---------------------------------------
    def compute_loss(self, model: Any, inputs: dict[str, Any], return_outputs: bool = False,
                     num_items_in_batch: Any = None) -> torch.Tensor:
        loss = super().compute_loss(model, inputs, return_outputs, num_items_in_batch)
        if self._replay is None or not model.training:
            return loss
        nll = self._replay.loss(model, self.accelerator.device)
        self._metrics["train"]["replay/nll"].append(nll.item())
        # TRL's loss is already divided for gradient accumulation; the replay term is too.
        return loss + self.args.bc_replay_coef * nll / self.current_gradient_accumulation_steps

    # -- metrics ------------------------------------------------------------------------
    def _log_rollouts(self, trajectories: Sequence[Trajectory], clock: RolloutClock) -> None:
        """WebAgent-R1's training-dynamics metrics over the rollouts of every process, and where the time went.

        Each process sums its own rollouts; the sums are gathered, so the logged means cover
        the whole batch (a process's own share would be a biased sample when groups span
        processes). Times are per process, averaged over processes.
        """
        mode = "train" if self.model.training else "eval"
        turns = [turn for t in trajectories for turn in t.turns]
        local = [
            len(trajectories), len(turns),
            sum(t.reward for t in trajectories), sum(t.reward >= 1.0 for t in trajectories),
            sum(t.action_tokens for t in trajectories), sum(t.truncated for t in trajectories),
            sum(len(turn.prompt_ids) for turn in turns), sum(bool(turn.error) for turn in turns),
            clock.generation_s, clock.env_s, clock.generated_tokens,
        ]
        totals = self.accelerator.gather(
            torch.tensor(local, dtype=torch.float64, device=self.accelerator.device)).view(-1, len(local)).sum(dim=0)
        (episodes, turn_count, reward, successes, tokens, truncated, context_tokens, invalid, generation_s, env_s,
         generated_tokens) = totals.tolist()
        episodes, per_turn, processes = max(episodes, 1), max(turn_count, 1), self.accelerator.num_processes
        values = {
            "rollout/reward": reward / episodes,
            "rollout/success_rate": successes / episodes,
            "rollout/interactions": turn_count / episodes,
            "rollout/tokens_per_trajectory": tokens / episodes,
            "rollout/context_tokens": context_tokens / per_turn,
            "rollout/invalid_action_rate": invalid / per_turn,
            "rollout/truncated_rate": truncated / episodes,
            "time/generation_s": generation_s / processes,
            "time/env_s": env_s / processes,
            "time/generated_tokens_per_s": generated_tokens / generation_s if generation_s > 0 else 0.0,
        }
        if torch.cuda.is_available():
            values["memory/peak_gib"] = torch.cuda.max_memory_allocated() / 2**30
        for key, value in values.items():
            self._metrics[mode][key].append(float(value))


def replay_demonstrations(args: MultiTurnGRPOConfig,
                          demonstrations: Sequence[Demonstration] | None) -> list[Demonstration] | None:
    """What the run replays: ``demonstrations``, or the successful ones of ``args.bc_replay_demonstrations``
    (None when ``bc_replay_coef`` is 0)."""
    if not args.bc_replay_coef:
        return None
    if demonstrations is None:
        if not args.bc_replay_demonstrations:
            raise ConfigurationError("bc_replay_coef > 0 needs demonstrations: set bc_replay_demonstrations to a JSONL file "
                             "(`webarena-gym demos`) or pass demonstrations= to the trainer.")
        demonstrations = [d for d in read_demonstrations(args.bc_replay_demonstrations, strict=True).demonstrations
                          if d.reward >= 1.0]
    if not demonstrations:
        raise ConfigurationError("bc_replay_coef > 0 needs at least one successful demonstration to replay; none was given.")
    return list(demonstrations)


def micro_batches_per_generation(args: MultiTurnGRPOConfig) -> int:
    """Micro-batches one generation batch lasts (TRL's rule: it generates anew every this many)."""
    return args.steps_per_generation * args.num_iterations


def check_checkpoint_steps(args: MultiTurnGRPOConfig) -> None:
    """Refuse checkpoints that would fall inside a generation batch: its rollouts are not saved, so a run
    resumed there could not go on as the uninterrupted one."""
    if args.save_strategy != "steps":
        return
    every = micro_batches_per_generation(args)
    if (args.save_steps * args.gradient_accumulation_steps) % every:
        raise ConfigurationError(
            f"save_steps={args.save_steps:g} would save inside a batch of rollouts (one batch lasts {every} micro-batches, "
            f"a step {args.gradient_accumulation_steps}): save every whole number of batches (a multiple of "
            f"num_iterations={args.num_iterations} steps where a step takes a whole batch).")


def train_grpo(
    args: MultiTurnGRPOConfig, model: Any, *, processing_class: Any = None, callbacks: Sequence[Any] = (),
    demonstrations: Sequence[Demonstration] | None = None, resume_from_checkpoint: str | Path | None = None,
) -> MultiTurnGRPOTrainer:
    """Run multi-turn GRPO and save the policy (LoRA merged into the weights) to ``args.output_dir``;
    with the learnable curriculum, also its final state per family as ``curriculum.json``.
    ``demonstrations``: what ``args.bc_replay_coef > 0`` replays (default: ``args.bc_replay_demonstrations``).
    ``resume_from_checkpoint``: go on from this checkpoint of an interrupted run (``model`` stays the run's start,
    the reference model of ``beta > 0``)."""
    trainer = MultiTurnGRPOTrainer(model, args, processing_class=processing_class, callbacks=callbacks,
                                   demonstrations=demonstrations)
    try:
        trainer.train(resume_from_checkpoint=resume_from_checkpoint)
    finally:
        trainer.envs.close()
    table = trainer.curriculum_table()
    if save_policy(trainer, args.output_dir) and table is not None:
        path = Path(args.output_dir) / "curriculum.json"
        path.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return trainer

