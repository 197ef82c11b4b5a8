"""Evaluator throughput on long answers: characters per second, so the linear bound stays visible.

Each row scores answers of 1k, 10k and 100k characters against a one-token
``must_include`` reference (the path that tokenizes the whole answer, like NLTK's
``word_tokenize``); ``ratio`` is the time for 100k over the time for 10k (10 when
linear, 100 when quadratic). The baseline row is ``str.lower`` plus a substring search
over the same text, the least any evaluator must do, measured in the same run.

    python benchmarks/evaluator_throughput.py
"""

from __future__ import annotations

import time

from webarena_gym.evaluators import evaluate

SIZES = (1_000, 10_000, 100_000)
TEXTS = {
    "prose": "The order #000180 cost $12.99. Mr. Smith paid it on Jan. 5th, 2023 (see gitlab.com/yjlou). ",
    "no spaces": "a",
    "periods": "a. ",
    "bangs": "!",
    "spaces after a period": "x." + " " * 50,
    "control characters": "\x1b[0m\x07 ok\t",
}
TASK = {
    "task_id": 1,
    "sites": ["shopping"],
    "start_url": "__SHOPPING__",
    "intent": "How many?",
    "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["zzz", "0 |OR| 180"]}},
}


def seconds(run, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    print(f"{'answer':<24}" + "".join(f"{f'{n // 1000}k chars/s':>16}" for n in SIZES) + f"{'ratio 100k/10k':>16}")
    for name, unit in {"baseline (lower + find)": TEXTS["prose"], **TEXTS}.items():
        times = []
        for size in SIZES:
            answer = (unit * (size // len(unit) + 1))[:size]
            if name.startswith("baseline"):
                times.append(seconds(lambda a=answer: a.lower().find("zzz"), 20))
            else:
                times.append(seconds(lambda a=answer: evaluate(TASK, answer=a, url="http://127.0.0.1:7770"), 3))
        rates = "".join(f"{size / t:>16,.0f}" for size, t in zip(SIZES, times, strict=True))
        print(f"{name:<24}{rates}{times[-1] / times[1]:>16.1f}")


if __name__ == "__main__":
    main()
