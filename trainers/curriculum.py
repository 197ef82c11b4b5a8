"""Which tasks GRPO practises: TRL's uniform shuffle, or a curriculum over task families.

A group of G rollouts teaches GRPO something only when its rewards differ: with binary
rewards, a group that all fails or all succeeds has zero advantage everywhere. From a weak
policy most groups are like that (the findings' runs logged 80-95% of groups with zero
reward spread), so most of a uniform batch's rollouts are spent on families the policy
cannot solve yet, or has already mastered.

The ``"learnable"`` curriculum keeps, per task family (the task's ``intent_template_id``,
so it means the same on the embedded and the real suite), how many of its groups were
informative and how many were not, and draws each task of a batch by Thompson sampling:
every family gets a draw from Beta(1 + informative, 1 + uninformative) and the highest
draw picks the family; within it, the task drawn least often so far. Families never tried
draw from Beta(1, 1), so each is tried early; a family that keeps giving flat groups is
drawn less and less, though never not at all. The counts decay by ``memory`` per batch
(0.98), so a family that becomes learnable as the policy improves is found again.

``"learnable_distinct"`` gives each family of a batch one draw instead of one per task:
the batch takes the families with the highest draws, one task from each (and a second round
only when the batch has more tasks than there are families). One family that looks
learnable then holds one slot of the batch, not all of them, and the rest go to the next
most learnable families.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Sequence

from torch.utils.data import Sampler

from .checkpoint import random_state, set_random_state


class FamilyLearnability:
    """Per family, the (decayed) counts of informative and uninformative groups."""

    def __init__(self, families: Sequence[Hashable], memory: float = 0.98):
        if not 0.0 < memory <= 1.0:
            raise ValueError(f"memory must be in (0, 1], got {memory!r}.")
        self.memory = memory
        self.informative = {family: 0.0 for family in families}
        self.uninformative = {family: 0.0 for family in families}

    def record(self, groups: Sequence[tuple[Hashable, Sequence[float]]]) -> None:
        """Count one batch's groups, given as (family, the group's rewards); older counts decay first."""
        for counts in (self.informative, self.uninformative):
            for family in counts:
                counts[family] *= self.memory
        for family, rewards in groups:
            if family not in self.informative:
                continue  # a task from outside the sampled set (e.g. an eval batch)
            counts = self.informative if max(rewards) > min(rewards) else self.uninformative
            counts[family] += 1.0

    def rate(self, family: Hashable) -> float:
        """The posterior mean chance that a group of this family is informative."""
        return (1.0 + self.informative[family]) / (2.0 + self.informative[family] + self.uninformative[family])

    def table(self, draws: dict[Hashable, int] | None = None) -> list[dict]:
        """One row per family, most learnable first: its counts, its rate and (given) how often it was drawn."""
        rows = [{"family": family, "informative": round(self.informative[family], 3),
                 "flat": round(self.uninformative[family], 3), "rate": round(self.rate(family), 3),
                 **({} if draws is None else {"drawn": draws.get(family, 0)})} for family in self.informative]
        return sorted(rows, key=lambda row: -row["rate"])

    def rank(self, families: Sequence[Hashable], rng: random.Random) -> list[Hashable]:
        """Thompson sampling: the families ordered by one draw each from their posterior, highest first."""
        draws = {f: rng.betavariate(1.0 + self.informative[f], 1.0 + self.uninformative[f]) for f in families}
        return sorted(families, key=lambda f: -draws[f])


class LearnableTaskSampler(Sampler[int]):
    """Dataset indices in the order TRL's ``RepeatSampler`` gives them, tasks chosen by learnability.

    Each generation batch holds ``batch_size`` distinct tasks; each task index is repeated
    ``mini_repeat_count`` (G) times in a row, and the whole batch ``repeat_count`` times.
    Tasks are drawn when the batch is, so the counts recorded since the last batch steer it.
    Every process of a run draws the same tasks: the same seed and the same (gathered) counts.
    With ``distinct_families``, a batch's tasks come from as many families as it can.
    """

    def __init__(self, families: Sequence[Hashable], learnability: FamilyLearnability, *, mini_repeat_count: int,
                 batch_size: int = 1, repeat_count: int = 1, seed: int | None = None, distinct_families: bool = False):
        if batch_size > len(families):
            raise ValueError(f"A batch of {batch_size} distinct tasks needs at least that many tasks, got {len(families)}.")
        self.families, self.learnability = list(families), learnability
        self.mini_repeat_count, self.batch_size, self.repeat_count = mini_repeat_count, batch_size, repeat_count
        self.distinct_families = distinct_families
        self.rng = random.Random(seed)
        self.draws = [0] * len(self.families)
        self.members: dict[Hashable, list[int]] = {}
        for index, family in enumerate(self.families):
            self.members.setdefault(family, []).append(index)
        self.batches_begun = 0  # over all passes: the number the next batch begun gets
        self._recent: dict[int, list[int]] = {}  # batches begun lately, by number (the Trainer's loader reads ahead)
        self._resume: tuple[int, list[list[int]]] | None = None

    def draws_by_family(self) -> dict[Hashable, int]:
        """How many batches drew each family so far (a task counts once per batch)."""
        totals: dict[Hashable, int] = {}
        for index, family in enumerate(self.families):
            totals[family] = totals.get(family, 0) + self.draws[index]
        return totals

    def __len__(self) -> int:
        return (len(self.families) // self.batch_size) * self.batch_size * self.mini_repeat_count * self.repeat_count

    def __iter__(self) -> Iterator[int]:
        per_pass = len(self.families) // self.batch_size
        skipped, pending = 0, []
        if self._resume is not None:  # resumed mid-pass: the batches trained before the checkpoint come as placeholders
            self.batches_begun, pending = self._resume
            skipped, self._resume = self.batches_begun % per_pass, None
        for position in range(per_pass):
            if position < skipped:
                batch = [0] * self.batch_size  # the Trainer skips these (it fast-forwards past trained batches)
            else:
                batch = pending.pop(0) if pending else self._draw_batch()
                self._recent = {n: b for n, b in self._recent.items() if n >= self.batches_begun - 4}
                self._recent[self.batches_begun] = batch
                self.batches_begun += 1
            for _ in range(self.repeat_count):
                for index in batch:
                    yield from [index] * self.mini_repeat_count

    # -- checkpoints ------------------------------------------------------------------------
    def state_dict(self, next_batch: int) -> dict:
        """What resuming needs, as JSON, when ``next_batch`` is the first batch not yet trained on: the draw state,
        the counts and the batches already drawn ahead of training (drawn again, they could differ)."""
        if not self.batches_begun - len(self._recent) <= next_batch <= self.batches_begun:
            raise ValueError(f"batch {next_batch} is not among the recent ones ({sorted(self._recent)}).")
        return {"rng": random_state(self.rng), "draws": list(self.draws), "next_batch": next_batch,
                "ahead": [self._recent[n] for n in range(next_batch, self.batches_begun)],
                "informative": list(self.learnability.informative.values()),
                "uninformative": list(self.learnability.uninformative.values())}

    def load_state_dict(self, state: dict) -> None:
        """Continue from :meth:`state_dict`'s record, in the sampler of a run with the same tasks and settings."""
        counts = (self.learnability.informative, self.learnability.uninformative)
        if len(state["draws"]) != len(self.draws) or any(len(state[k]) != len(c) for k, c in
                                                         zip(("informative", "uninformative"), counts, strict=True)):
            raise ValueError("the checkpoint's curriculum covers other tasks than this run's.")
        set_random_state(self.rng, state["rng"])
        self.draws = list(state["draws"])
        for key, count in zip(("informative", "uninformative"), counts, strict=True):
            count.update(zip(count, state[key], strict=True))
        self._resume = (int(state["next_batch"]), [list(b) for b in state["ahead"]])

    def _draw_batch(self) -> list[int]:
        batch: list[int] = []
        ranked: list[Hashable] = []  # families still to take a slot, best first
        while len(batch) < self.batch_size:
            if not ranked:  # per task: a new ranking for every slot; distinct: one per round over the families
                open_families = [f for f, members in self.members.items() if any(i not in batch for i in members)]
                ranked = self.learnability.rank(open_families, self.rng)
                ranked = ranked if self.distinct_families else ranked[:1]
            batch.append(self._least_drawn_task(ranked.pop(0), batch))
        return batch

    def _least_drawn_task(self, family: Hashable, batch: list[int]) -> int:
        candidates = [i for i in self.members[family] if i not in batch]
        fewest = min(self.draws[i] for i in candidates)
        index = self.rng.choice([i for i in candidates if self.draws[i] == fewest])
        self.draws[index] += 1
        return index
