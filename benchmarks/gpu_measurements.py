"""Every GPU measurement the trainer needs, in one resumable run that fits a lent machine's few minutes.

Stages, in order, each a subprocess with a time budget of its own (a hang or an out-of-memory crash
costs that stage only), each recorded into one JSON as it ends:

1. ``gpu_tests``: ``pytest -m gpu tests/trainers/test_gpu.py`` (BC and GRPO steps in bf16 on CUDA);
2. ``step_time_0_5b``: ``trainer_step_time.py`` on a Qwen2.5-0.5B-shaped model in bf16: generated
   tokens/s, the GRPO step split (generation / env / update), peak CUDA memory, the share of the
   step the GPU is busy (target: at least 60%);
3. ``memory_3b``: ``gpu_memory.py`` on a Qwen2.5-3B-shaped model with LoRA and activation
   checkpointing: does a step of 4 tasks x G=8 fit, the largest context and group that do;
4. ``vllm``: the 0.5B step with TRL's vLLM generation (colocate) against ``generate()``, where the
   image has vLLM;
5. ``findings``: ``scripts/gpu_findings.sh`` (the findings experiment's four arms) for the time left;
   it resumes from its own pieces on the next call.

A stage that finished (measured, skipped with its reason, failed with its log's tail, or stopped at
its budget) is not run again by the same command: a run cut short goes on where it stopped. The
findings stage, stopped at its budget, goes on the next time. ``--redo`` runs stages again,
``--fresh`` starts over. The table of every stage's figures is printed at the end; where ``$OUT``
is set (the device tool) the JSON and the stages' logs are copied there after every stage.

``--dry-run`` runs the same stages at tiny sizes on a CPU, the CUDA-only ones recorded as skipped with
the reason (the memory probe's code still runs once on the tiny model).

Run: ``bash scripts/gpu_measure.sh`` on the GPU machine (it installs the carried wheels first), or
``python benchmarks/gpu_measurements.py --dry-run --output runs/gpu_dry`` here.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = Path(__file__).resolve().parent
#: A stage with one of these statuses is done; any other (or none) runs on the next call.
FINISHED = ("measured", "skipped", "failed", "timed_out")
#: The share of a GRPO step the GPU should be busy (issue #84).
GPU_BUSY_TARGET = 0.60


@dataclass(frozen=True)
class Stage:
    """One measurement: its name, its budget on a GPU, and how it runs."""

    name: str
    budget_s: float
    run: Callable[[argparse.Namespace, Path, float], dict[str, Any]]
    what: str


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", default="runs/gpu_measurements", help="JSON, logs and the stages' files")
    parser.add_argument("--budget-s", type=float, default=480.0, help="the whole call's time (default 8 minutes)")
    parser.add_argument("--dry-run", action="store_true", help="tiny sizes on a CPU; CUDA-only stages skipped")
    parser.add_argument("--stages", nargs="+", choices=[s.name for s in STAGES], help="only these stages")
    parser.add_argument("--redo", nargs="+", default=[], choices=[s.name for s in STAGES],
                        help="run these stages again even if finished")
    parser.add_argument("--fresh", action="store_true", help="forget every earlier result in --output")
    parser.add_argument("--findings-args", default="--model-size small --threads 4 --jobs 3",
                        help="arguments of reproduce_findings.py for the findings stage on a GPU")
    return parser.parse_args(argv)


# -- running a stage's command -------------------------------------------------------------------
def run_command(argv: list[str], log: Path, budget_s: float, env: dict[str, str] | None = None) -> tuple[int, bool]:
    """Run ``argv`` from the repository root into ``log``; SIGINT at the budget, SIGKILL 20 s later.

    Returns the exit status and whether the budget stopped it.
    """
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        process = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}, start_new_session=True)
        try:
            return process.wait(timeout=max(budget_s, 1.0)), False
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            return process.returncode, True


def log_tail(log: Path, lines: int = 8) -> str:
    text = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    return "\n".join(text[-lines:])


def cuda_device() -> str | None:
    """The CUDA device's name, or None without one."""
    import torch

    return torch.cuda.get_device_name(0) if torch.cuda.is_available() else None


def no_cuda_reason() -> str:
    return "no CUDA device here (torch.cuda.is_available() is False): it runs on a GPU machine"


def python_stage(argv: list[str], output: Path, budget_s: float, name: str, env: dict[str, str] | None = None
                 ) -> dict[str, Any]:
    """A benchmark script that writes ``--json``: its record, or why there is none."""
    result_file = output / f"{name}.result.json"
    result_file.unlink(missing_ok=True)
    log = output / "logs" / f"{name}.txt"
    status, stopped = run_command([sys.executable, *argv, "--json", str(result_file)], log, budget_s, env)
    result = json.loads(result_file.read_text(encoding="utf-8")) if result_file.exists() else None
    if stopped:
        return {"status": "timed_out", "reason": f"stopped at its {budget_s:.0f} s budget", "result": result}
    if status != 0:
        return {"status": "failed", "reason": f"exit status {status}: {log_tail(log)}", "result": result}
    return {"status": "measured", "result": result}


# -- the stages ------------------------------------------------------------------------------------
def gpu_tests(args: argparse.Namespace, output: Path, budget_s: float) -> dict[str, Any]:
    if args.dry_run or cuda_device() is None:
        return {"status": "skipped", "reason": no_cuda_reason()}
    import xml.etree.ElementTree as ElementTree

    report = output / "gpu_tests.xml"
    log = output / "logs" / "gpu_tests.txt"
    status, stopped = run_command([sys.executable, "-m", "pytest", "-m", "gpu", "tests/trainers/test_gpu.py", "-q",
                                   "-p", "no:cacheprovider", f"--junitxml={report}"], log, budget_s)
    if stopped or not report.exists():
        return {"status": "timed_out" if stopped else "failed",
                "reason": f"pytest {'stopped at its budget' if stopped else f'exit status {status}'}: {log_tail(log)}"}
    suite = ElementTree.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    cases = [{"test": case.get("name"),
              "outcome": next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed"),
              "message": next((child.get("message", "")[:300] for child in case), "")} for case in suite.iter("testcase")]
    failed = [c for c in cases if c["outcome"] in ("failure", "error")]
    return {"status": "failed" if failed or status not in (0, 5) else "measured",
            "reason": "; ".join(f"{c['test']}: {c['message']}" for c in failed) or None,
            "result": {"cases": cases, "passed": sum(c["outcome"] == "passed" for c in cases),
                       "failed": len(failed), "skipped": sum(c["outcome"] == "skipped" for c in cases)}}


def step_time_argv(args: argparse.Namespace) -> list[str]:
    if args.dry_run:
        return [str(BENCHMARKS / "trainer_step_time.py"), "--shape", "tiny", "--precision", "fp32", "--steps", "1",
                "--tasks-per-step", "1", "--num-generations", "2", "--max-completion-length", "4", "--layouts", "turn"]
    return [str(BENCHMARKS / "trainer_step_time.py"), "--shape", "qwen2.5-0.5b", "--precision", "bf16", "--steps", "3",
            "--tasks-per-step", "4", "--num-generations", "8", "--max-completion-length", "128", "--layouts", "turn"]


def step_time(args: argparse.Namespace, output: Path, budget_s: float) -> dict[str, Any]:
    record = python_stage(step_time_argv(args), output, budget_s, "step_time_0_5b")
    rows = (record.get("result") or {}).get("rows") or []
    if record["status"] == "measured" and rows and rows[0]["gpu_busy"] is not None:
        record["result"]["gpu_busy_meets_target"] = rows[0]["gpu_busy"] >= GPU_BUSY_TARGET
    if record["status"] == "measured" and args.dry_run:
        record["reason"] = "dry run: a tiny model on the CPU, not the 0.5B shape; GPU busy: no CUDA device"
    return record


def memory(args: argparse.Namespace, output: Path, budget_s: float) -> dict[str, Any]:
    script = str(BENCHMARKS / "gpu_memory.py")
    if args.dry_run or cuda_device() is None:
        # The probe's code once, on the tiny model: nothing to measure, but a broken probe shows here, not there.
        record = python_stage([script, "--shape", "tiny", "--tasks", "1", "--num-generations", "2",
                               "--context-tokens", "128", "--completion-tokens", "8"], output, budget_s, "memory_3b")
        if record["status"] == "measured":
            record.update(status="skipped", reason=f"{no_cuda_reason()}; the probe's code ran once on the tiny model "
                                                   "on the CPU (no CUDA memory to measure)")
        return record
    # Leave the search a minute less than the stage: building the model and the trainer come first.
    return python_stage([script, "--search", "--compare-attention", "--budget-s", str(max(budget_s - 60, 10))],
                        output, budget_s, "memory_3b")


def vllm(args: argparse.Namespace, output: Path, budget_s: float) -> dict[str, Any]:
    if importlib.util.find_spec("vllm") is None:
        return {"status": "skipped", "reason": "vLLM is not installed in this image (no module named vllm)"}
    if args.dry_run or cuda_device() is None:
        return {"status": "skipped", "reason": no_cuda_reason()}
    argv = [*step_time_argv(args), "--steps", "2", "--generation", "generate", "vllm"]
    # TRL's colocate mode runs vLLM in this process as rank 0 of a one-process group.
    env = {"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29533"}
    return python_stage(argv, output, budget_s, "vllm", env)


def findings(args: argparse.Namespace, output: Path, budget_s: float) -> dict[str, Any]:
    run = output / "findings"
    log = output / "logs" / "findings.txt"
    if args.dry_run:
        extra = ["--model-size", "tiny", "--jobs", "1", "--threads", "1", "--seeds", "0", "--families", "map.around",
                 "--train-per-family", "1", "--test-limit", "1", "--bc-epochs", "1", "--sampled-passes", "0",
                 "--scaling", "2", "--max-turns", "2", "--copy-pretraining-steps", "2", "--arms", "untrained"]
    else:
        extra = args.findings_args.split()
    # The script stops itself at its budget (SIGINT, pieces kept); the stage's own limit is a backstop.
    inner = max(budget_s - 40, 20)
    status, stopped = run_command(["bash", "scripts/gpu_findings.sh", str(int(inner)), *extra], log, budget_s,
                                  env={"FINDINGS_OUTPUT": str(run),  # its python3: this interpreter's
                                       "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"})
    report = run / "findings.json"
    if status == 0 and report.exists():
        summary = json.loads(report.read_text(encoding="utf-8")).get("summary", {})
        return {"status": "measured", "result": {"output": str(run), "summary": summary}}
    if stopped or status in (124, 130, 137):
        return {"status": "partial", "reason": f"stopped at its {inner:.0f} s budget; the next call resumes it "
                                               f"from the pieces in {run}", "result": {"output": str(run)}}
    return {"status": "failed", "reason": f"exit status {status}: {log_tail(log)}"}


STAGES = (
    Stage("gpu_tests", 90, gpu_tests, "BC and GRPO steps in bf16, eager attention, masks"),
    Stage("step_time_0_5b", 120, step_time, "Qwen2.5-0.5B-shaped GRPO step"),
    Stage("memory_3b", 120, memory, "Qwen2.5-3B-shaped memory, LoRA + checkpointing"),
    Stage("vllm", 60, vllm, "vLLM (colocate) against generate()"),
    Stage("findings", 0, findings, "findings experiment, four arms, for the time left"),
)
#: Budgets of the dry run: generous, a busy 2-core CPU is slow, and nothing there is a measurement.
DRY_RUN_BUDGET_S = 900.0
#: No stage starts with less than this left of the call's budget (the findings stage gets what is left).
LEAST_S = 30.0


# -- the record --------------------------------------------------------------------------------------
def load_record(path: Path, args: argparse.Namespace) -> dict[str, Any]:
    if args.fresh or not path.exists():
        return {"dry_run": args.dry_run, "stages": {}}
    record = json.loads(path.read_text(encoding="utf-8"))
    if record.get("dry_run") != args.dry_run:
        sys.exit(f"{path} holds a {'dry' if record.get('dry_run') else 'real'} run; this one is "
                 f"{'dry' if args.dry_run else 'real'}: pass --fresh, or another --output.")
    for name in args.redo:
        record["stages"].pop(name, None)
    return record


def save_record(path: Path, record: dict[str, Any]) -> None:
    partial = path.with_suffix(".tmp")
    partial.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)
    if os.environ.get("OUT"):  # the device tool brings $OUT back even when the call is cut off later
        out = Path(os.environ["OUT"])
        shutil.copy(path, out / path.name)
        if (path.parent / "logs").is_dir():
            shutil.copytree(path.parent / "logs", out / "gpu_measurement_logs", dirs_exist_ok=True)


def summary(name: str, stage: dict[str, Any]) -> str:
    """The stage's key figures in a line."""
    result = stage.get("result") or {}
    if name == "gpu_tests" and result:
        return f"{result['passed']} passed, {result['failed']} failed, {result['skipped']} skipped"
    if name in ("step_time_0_5b", "vllm") and result.get("rows"):
        parts = []
        for row in result["rows"]:
            busy = "" if row["gpu_busy"] is None else f", GPU busy {row['gpu_busy']:.0%}"
            parts.append(f"{row['row']}: {row['step_s']:.1f} s/step (gen {row['generation']:.0%} / env "
                         f"{row['env']:.0%} / update {row['update']:.0%}), {row['tokens_per_s']:.0f} tok/s, "
                         f"peak {row['peak_gib']:.1f} GiB{busy}")
        return "; ".join(parts)
    if name == "memory_3b" and result.get("probes"):
        fits = "fits" if result.get("paper_step_fits") else "does not fit"
        first = result["probes"][0]
        line = f"{first['tasks']} x G={first['group']} at {first['context']} tokens {fits} ({result['attention']})"
        if "paper_step_fits_with_sdpa" in result:
            line += f"; with SDPA {'fits' if result['paper_step_fits_with_sdpa'] else 'does not'}"
        if "largest_context_at_group" in result:
            line += f"; largest context at G={first['group']}: {result['largest_context_at_group']}"
        if "largest_group_at_context" in result:
            line += f"; largest G there: {result['largest_group_at_context']}"
        return line
    if name == "findings" and result.get("summary"):
        arms = result["summary"].get("arms", {})
        return "held-out greedy success: " + ", ".join(f"{arm} {v['greedy']['mean']:.1%}" for arm, v in arms.items())
    return ""


def print_table(record: dict[str, Any]) -> None:
    print(f"GPU measurements ({'dry run, ' if record['dry_run'] else ''}{record.get('device') or 'CPU'})")
    print(f"{'stage':<15} {'status':<10} {'seconds':>8}  figures / reason")
    for stage in STAGES:
        entry = record["stages"].get(stage.name)
        if entry is None:
            print(f"{stage.name:<15} {'not run':<10} {'-':>8}  the call's budget ended first: run the command again")
            continue
        detail = summary(stage.name, entry) or (entry.get("reason") or "").splitlines()[0:1]
        detail = detail if isinstance(detail, str) else "".join(detail)
        if entry.get("reason") and summary(stage.name, entry):
            detail += f"  [{entry['reason'].splitlines()[0]}]"
        print(f"{stage.name:<15} {entry['status']:<10} {entry['seconds']:8.1f}  {detail}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    output = ROOT / args.output if not Path(args.output).is_absolute() else Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    path = output / "gpu_measurements.json"
    record = load_record(path, args)
    import torch

    record.update(device=cuda_device(), torch=torch.__version__, dry_run=args.dry_run)
    start = time.perf_counter()
    total = DRY_RUN_BUDGET_S * len(STAGES) if args.dry_run else args.budget_s
    for stage in STAGES:
        if args.stages and stage.name not in args.stages:
            continue
        if record["stages"].get(stage.name, {}).get("status") in FINISHED:
            print(f"{stage.name}: done in an earlier call ({record['stages'][stage.name]['status']}), kept",
                  file=sys.stderr, flush=True)
            continue
        left = total - (time.perf_counter() - start)
        budget = DRY_RUN_BUDGET_S if args.dry_run else (min(stage.budget_s, left) if stage.budget_s else left)
        if left < LEAST_S:
            print(f"{stage.name}: {left:.0f} s left of the call's budget, not started", file=sys.stderr, flush=True)
            continue
        print(f"{stage.name}: {stage.what} (budget {budget:.0f} s) ...", file=sys.stderr, flush=True)
        began = time.perf_counter()
        try:
            entry = stage.run(args, output, budget)
        except Exception as exc:  # a stage's own bug must not cost the stages after it
            entry = {"status": "failed", "reason": f"{type(exc).__name__}: {exc}"}
        entry.setdefault("reason", None)
        entry["seconds"] = round(time.perf_counter() - began, 1)
        record["stages"][stage.name] = entry
        save_record(path, record)
    save_record(path, record)
    print_table(record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
