"""The findings experiment's plumbing, with a budget far too small to learn anything.

Runs ``examples/reproduce_findings.py`` end to end (real embedded sites, a real tiny model,
BC and GRPO for one step each) on one train task of each of three families on three sites, some
arms first and then the rest, then checks what a user reads: the JSON holds every arm greedy and
sampled and every scaling point, demonstration replay reaches GRPO from BC and not R1-Zero, every
evaluation's episodes are kept as run files, the PNG is a PNG, the table names every arm, a second
run resumes instead of training again (an evaluation file cut off is made again), and a run with
other settings into the same folder stops instead of mixing results.
Where training lands is not asserted.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import torch

from trainers.cpu import cpu_description
from webarena_gym.evaluation import read_run
from webarena_gym.suites.embedded import embedded_tasks, family_of

from ..references import reference_is_na
from .examples import load_example

pytestmark = [pytest.mark.train, pytest.mark.slow]

FAMILIES = ["map.around", "shopping.search_keyword", "reddit.forum_post_count"]  # 2-turn oracles (the admin families take 3 since its menu sections open first)


def test_the_experiment_reports_every_arm_and_scaling_point_and_resumes(tmp_path, capsys, caplog):
    script = load_example("reproduce_findings")
    argv = ["--output", str(tmp_path / "run"), "--families", *FAMILIES, "--train-per-family", "1", "--test-limit", "3",
            "--seeds", "0", "--bc-epochs", "1", "--grpo-steps", "1", "--grpo-tasks-per-step", "1",
            "--num-generations", "2", "--sampled-passes", "1", "--scaling", "2", "3", "--max-turns", "2",
            "--copy-pretraining-steps", "2", "--bc-replay", "0.5", "--no-progress"]  # the findings' defaults otherwise
    # Some arms first: BC+GRPO trains BC as its start without evaluating it; only targets whose arms ran are checked.
    partial = script.main([*argv, "--arms", "untrained", "bc_grpo"])
    table = capsys.readouterr().out
    assert set(partial["seeds"]["0"]["arms"]) == set(partial["summary"]["arms"]) == {"untrained", "bc_grpo"}
    assert {"train bc", "train bc_grpo"} <= set(partial["seeds"]["0"]["timing_s"])
    assert "eval bc" not in partial["seeds"]["0"]["timing_s"] and partial["summary"]["targets"] == {}
    assert set(partial["summary"]["scaling"]) == {"2", "3"}
    assert "target" not in table and any(line.startswith("BC ") and line.split()[1] == "-" for line in table.splitlines())
    bc_weights = tmp_path / "run" / "seed0" / "bc" / "model.safetensors"
    bc_trained = bc_weights.stat().st_mtime_ns

    # The rest of the arms into the same folder: what the partial run finished is kept, not trained again.
    findings = script.main(argv)
    table = capsys.readouterr().out
    assert bc_weights.stat().st_mtime_ns == bc_trained
    assert findings["seeds"]["0"]["arms"]["bc_grpo"] == partial["seeds"]["0"]["arms"]["bc_grpo"]

    saved = json.loads((tmp_path / "run" / "findings.json").read_text())
    assert saved["summary"] == json.loads(json.dumps(findings["summary"]))
    assert len(saved["tasks"]["test_ids"]) == 3 and len(saved["tasks"]["families"]) == 3
    assert saved["machine"]["cpu"] == json.loads(json.dumps(cpu_description()))  # its numbers depend on the CPU
    # Options not given take the findings' defaults (the best configuration measured), not the main job's.
    assert {k: saved["config"][k] for k in script.FINDINGS_DEFAULTS} == {
        **script.FINDINGS_DEFAULTS, "bc_epochs": 1.0, "copy_pretraining_steps": 2}
    assert saved["config"]["tokenizer_swaps"] == 3 and saved["config"]["grpo_sampling"] == "learnable"
    # GRPO draws from every solvable train task of the families (BC's one per family among them; the held-out
    # tasks are the test split's, never drawn).
    grpo_ids, train_ids = set(saved["tasks"]["grpo_ids"]), set(saved["tasks"]["train_ids"])
    assert len(train_ids) == 3 and train_ids < grpo_ids
    assert all(family_of(i, "train").name in FAMILIES for i in grpo_ids)
    seed = saved["seeds"]["0"]
    for arm in ("untrained", "grpo_zero", "bc", "bc_grpo"):
        assert 0.0 <= seed["arms"][arm]["greedy"]["success"] <= 1.0
        assert 0.0 <= seed["arms"][arm]["greedy"]["na_answers"] <= 1.0
        assert len(seed["arms"][arm]["sampled"]["passes"]) == 1
        assert set(saved["summary"]["arms"][arm]) == {"greedy", "sampled"}
    assert set(seed["scaling"]) == {"2", "3"}
    assert seed["scaling"]["2"] == seed["arms"]["bc_grpo"]["greedy"]["success"]
    assert any("rollout/reward" in r for r in seed["dynamics"]["bc_grpo"])
    # BC's demonstrations are replayed in GRPO from BC only: R1-Zero has none.
    assert any("replay/nll" in r for r in seed["dynamics"]["bc_grpo"])
    assert not any("replay/nll" in r for r in seed["dynamics"]["grpo_zero"])
    assert any("train_loss" in r for r in seed["dynamics"]["bc"])
    # Every piece's seconds, the tiny model's build (tokenizer and weights) among them.
    assert {"build tiny", "train bc", "train grpo_zero", "train bc_grpo", "eval bc"} <= set(seed["timing_s"])
    assert seed["timing_s"]["build tiny"] > 0.0
    # The curriculum's final state, one row per family GRPO could draw from, with what it drew.
    for arm in ("grpo_zero", "bc_grpo"):
        rows = json.loads((tmp_path / "run" / "seed0" / arm / "curriculum.json").read_text())
        assert len(rows) == len(FAMILIES) and sum(row["drawn"] for row in rows) >= 1
        assert all(0.0 < row["rate"] < 1.0 and row["example_intent"] for row in rows)
    # Each held-out task's family is recorded, so the gains' intervals can resample whole families.
    assert saved["tasks"]["test_task_families"] == [family_of(i, "test").name for i in saved["tasks"]["test_ids"]]
    assert set(saved["summary"]["gains"]) == {"bc_grpo_minus_bc", "grpo_zero_minus_untrained",
                                              "bc_grpo_minus_bc_sampled", "grpo_zero_minus_untrained_sampled"}
    assert all(len(seed_arm["sampled"]["solved_passes"]) == 1 for seed_arm in saved["seeds"]["0"]["arms"].values())
    for gain in saved["summary"]["gains"].values():
        assert gain["families"]["low"] <= gain["points"] <= gain["families"]["high"]
    assert set(saved["summary"]["targets"]["greedy"]) == {
        "bc_at_least_3x_untrained", "bc_grpo_at_least_bc_plus_10_points", "grpo_zero_within_5_points_of_untrained"}

    # Every evaluation's episodes are kept as run files: one per pass, the held-out tasks in order, their
    # rewards the solved lists the JSON reports.
    for arm in ("untrained", "grpo_zero", "bc", "bc_grpo"):
        for pass_name, solved in (("greedy", seed["arms"][arm]["greedy"]["solved"]),
                                  ("sampled1", seed["arms"][arm]["sampled"]["solved_passes"][0])):
            run = read_run(tmp_path / "run" / "seed0" / f"trajectories_{arm}_{pass_name}.jsonl", strict=True)
            assert run.settings["pass"] == pass_name and run.settings["max_chars"] > 0
            assert [e.task_id for e in run.episodes] == saved["tasks"]["test_ids"]
            assert sorted(e.task_id for e in run.episodes if e.success) == solved
            assert all(e.turns for e in run.episodes)

    # The floor: answering N/A at once scores the held-out tasks whose reference is N/A (none of these families').
    tasks = {t.task_id: t for t in embedded_tasks("test")}
    unachievable = sorted(i for i in saved["tasks"]["test_ids"] if reference_is_na(tasks[i]))
    assert saved["floor"] == {"answer": "N/A", "success": len(unachievable) / 3, "solved": unachievable}
    assert set(saved["summary"]["na_answers"]) == set(saved["summary"]["arms"])

    assert (tmp_path / "run" / "findings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for label in ("untrained", "GRPO from untrained", "BC", "BC + GRPO", "Test-time scaling", "target",
                  "answer N/A at once", "bare N/A", "Gain, points"):
        assert label in table

    # A second run finds every training and evaluation on disk and only reports again.
    trained = {p: p.stat().st_mtime_ns for p in (tmp_path / "run" / "seed0").glob("*/model.safetensors")}
    assert len(trained) == 4  # tiny, grpo_zero, bc, bc_grpo
    again = script.main(argv)
    assert again["summary"] == findings["summary"]
    assert {p: p.stat().st_mtime_ns for p in trained} == trained
    # Every piece is written whole (no temporary is left behind); an evaluation file cut off some other way
    # is made again, with a warning, and the resume goes on.
    assert not list((tmp_path / "run").rglob("*.tmp"))
    cached = tmp_path / "run" / "seed0" / "eval_bc.json"
    cached.write_text(cached.read_text()[:40])
    with caplog.at_level(logging.WARNING):
        redone = script.main(argv)
    assert "eval_bc.json is unreadable" in caplog.text
    assert redone["seeds"]["0"]["arms"]["bc"]["greedy"] == findings["seeds"]["0"]["arms"]["bc"]["greedy"]
    assert json.loads(cached.read_text())["greedy"] == findings["seeds"]["0"]["arms"]["bc"]["greedy"]
    assert {p: p.stat().st_mtime_ns for p in trained} == trained
    # Only the redone evaluation's seconds differ: the report from here on is the redone one.
    findings, saved = redone, json.loads((tmp_path / "run" / "findings.json").read_text())

    # Other result-deciding settings into the same --output stop before anything is touched,
    # naming what differs; so does a settings file that cannot be read.
    with pytest.raises(SystemExit, match=r"--bc-epochs: 1\.0 there, 2\.0 now; --test-limit: 3 there, 2 now"):
        script.main([*argv, "--bc-epochs", "2", "--test-limit", "2"])  # the last of a repeated option wins
    assert {p: p.stat().st_mtime_ns for p in trained} == trained
    assert json.loads((tmp_path / "run" / "findings.json").read_text())["summary"] == saved["summary"]
    # A run saved before an option existed ran as its default does: it resumes at the default, and stops at
    # any other value.
    settings_path = tmp_path / "run" / "settings.json"
    older = {k: v for k, v in json.loads(settings_path.read_text()).items() if k != "curriculum_memory"}
    settings_path.write_text(json.dumps(older))
    assert script.main(argv)["summary"] == findings["summary"]
    with pytest.raises(SystemExit, match=r"--curriculum-memory: 0\.98 there, 0\.9 now"):
        script.main([*argv, "--curriculum-memory", "0.9"])
    # ... as the main job's default, not the findings' own: a run saved before --grpo-sampling existed drew
    # its tasks uniformly, so today's default (learnable) is another setting.
    settings_path.write_text(json.dumps({k: v for k, v in older.items() if k != "grpo_sampling"}))
    with pytest.raises(SystemExit, match=r"--grpo-sampling: 'uniform' there, 'learnable' now"):
        script.main(argv)
    assert script.main([*argv, "--grpo-sampling", "uniform"])["summary"] == findings["summary"]
    assert {p: p.stat().st_mtime_ns for p in trained} == trained
    # A run saved when the page budget was --max-observation-chars resumes under --max-chars.
    renamed = json.loads(settings_path.read_text())
    renamed["max_observation_chars"] = renamed.pop("max_chars")
    settings_path.write_text(json.dumps(renamed))
    assert script.main([*argv, "--grpo-sampling", "uniform"])["summary"] == findings["summary"]
    settings_path.write_bytes(b'{"bc_epochs": \xff')
    with pytest.raises(SystemExit, match="settings.json is unreadable.*--fresh"):
        script.main(argv)
    assert {p: p.stat().st_mtime_ns for p in trained} == trained


def test_a_grpo_run_killed_after_a_checkpoint_goes_on_from_it_as_if_never_stopped(tmp_path, monkeypatch, caplog):
    """BC+GRPO for 4 steps, checkpointed every 2: killed right after its checkpoint at step 2 (an interrupt raised
    as it is written), the same command goes on from there, and the run ends as the uninterrupted one does,
    held-out success at step 2 (``--eval-every 2``, from the weights kept at that checkpoint) included."""
    from safetensors.torch import load_file

    script = load_example("reproduce_findings")
    argv = ["--families", *FAMILIES, "--train-per-family", "1", "--test-limit", "3", "--seeds", "0",
            "--bc-epochs", "1", "--grpo-steps", "4", "--grpo-save-every", "2", "--grpo-tasks-per-step", "1",
            "--num-generations", "2", "--sampled-passes", "0", "--scaling", "2", "--max-turns", "2",
            "--copy-pretraining-steps", "2", "--bc-replay", "0.5", "--arms", "bc_grpo", "--eval-every", "2",
            "--no-progress"]
    whole = script.main([*argv, "--output", str(tmp_path / "whole")])

    saved = script.PieceCheckpoints.on_save

    def killed_after_step_2(self, args, state, control, **kwargs):
        saved(self, args, state, control, **kwargs)
        if state.global_step == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(script.PieceCheckpoints, "on_save", killed_after_step_2)
    with pytest.raises(KeyboardInterrupt):
        script.main([*argv, "--output", str(tmp_path / "killed")])
    monkeypatch.undo()
    piece = tmp_path / "killed" / "seed0" / "bc_grpo"
    assert not (piece / "DONE").exists() and [p.name for p in piece.glob("checkpoint-*")] == ["checkpoint-2"]
    # What the step-2 evaluation loads is kept apart from the checkpoint, without its optimizer state.
    kept = piece / "steps" / "step-2"
    assert (kept / "model.safetensors").is_file() and (kept / "tokenizer.json").is_file()
    assert not list(kept.glob("optimizer*")) and not list(kept.glob("rng_state*"))
    seconds_before = json.loads((piece / "checkpoint-2" / "piece_seconds.json").read_text())["seconds"]

    with caplog.at_level(logging.WARNING):
        resumed = script.main([*argv, "--output", str(tmp_path / "killed")])
    assert "bc_grpo: going on from checkpoint-2" in caplog.text
    def steps(run):  # what each step logged, less its timings (and the summary of the last train() call)
        return [{k: v for k, v in record.items() if not k.startswith(("time/", "train_", "step_time"))}
                for record in run["seeds"]["0"]["dynamics"]["bc_grpo"]]

    assert steps(resumed) == steps(whole) and [r["step"] for r in steps(whole) if "rollout/reward" in r] == [1, 2, 3, 4]
    assert resumed["seeds"]["0"]["arms"]["bc_grpo"]["greedy"] == whole["seeds"]["0"]["arms"]["bc_grpo"]["greedy"]
    weights = load_file(piece / "model.safetensors")
    for name, tensor in load_file(tmp_path / "whole" / "seed0" / "bc_grpo" / "model.safetensors").items():
        torch.testing.assert_close(weights[name], tensor, rtol=1e-4, atol=1e-6, msg=name)
    assert not list(piece.glob("checkpoint-*"))  # only for resuming: gone once the piece is done
    # Held-out success along GRPO: step 2 from its kept weights (then removed), step 4 the arm's own evaluation.
    for run, folder in ((whole, tmp_path / "whole"), (resumed, tmp_path / "killed")):
        curve = run["seeds"]["0"]["along_training"]["bc_grpo"]
        assert list(curve) == ["2", "4"] and curve["4"] == run["seeds"]["0"]["arms"]["bc_grpo"]["greedy"]["success"]
        step_2 = json.loads((folder / "seed0" / "eval_bc_grpo_step2.json").read_text())
        assert curve["2"] == step_2["greedy"]["success"] and step_2["max_turns"] == 2 and "sampled" not in step_2
        episodes = read_run(folder / "seed0" / "trajectories_bc_grpo_step2_greedy.jsonl", strict=True).episodes
        assert len(episodes) == 3 and sum(e.success for e in episodes) / 3 == curve["2"]
        assert not (folder / "seed0" / "bc_grpo" / "steps").exists()
        assert list(run["summary"]["along_training"]["bc_grpo"]) == ["2", "4"]
    assert resumed["seeds"]["0"]["along_training"] == whole["seeds"]["0"]["along_training"]
    assert "Held-out greedy success along GRPO" in script.format_report(resumed)
    assert resumed["seeds"]["0"]["timing_s"]["train bc_grpo"] >= seconds_before


def test_seeds_run_as_parallel_processes_into_one_report(tmp_path, capsys):
    """``--jobs 2``: one process per seed (after ``--fresh`` clears the folder once), then this process reports."""
    script = load_example("reproduce_findings")
    with pytest.raises(SystemExit):
        script.parse_args(["--jobs", "0"])
    assert "argument --jobs: must be at least 1, got 0" in capsys.readouterr().err
    out = tmp_path / "run"
    out.mkdir()
    (out / "stale.txt").write_text("from an earlier run")
    argv = ["--output", str(out), "--families", *FAMILIES, "--train-per-family", "1", "--test-limit", "2",
            "--bc-epochs", "1", "--sampled-passes", "1", "--max-turns", "2", "--copy-pretraining-steps", "2",
            "--arms", "untrained", "bc", "--no-progress"]
    findings = script.main([*argv, "--seeds", "0", "1", "--jobs", "2", "--fresh"])
    assert not (out / "stale.txt").exists()  # cleared once, by this process: no child cleared its sibling's work
    assert set(findings["seeds"]) == {"0", "1"} and set(findings["summary"]["arms"]) == {"untrained", "bc"}
    for seed in (0, 1):
        log = out / "logs" / f"seed{seed}.txt"
        assert f"seeds [{seed}]" in log.read_text()  # the child ran that seed alone
        # Every piece was made by the seed's own process; this one only read them back.
        pieces = [out / f"seed{seed}" / "bc" / "model.safetensors", out / f"seed{seed}" / "eval_bc.json"]
        assert all(p.stat().st_mtime_ns <= log.stat().st_mtime_ns for p in pieces)
    assert findings["seeds"]["1"]["arms"]["bc"]["max_turns"] == 2  # the child took this run's options

    # A seed whose process fails stops the run, naming the seed and its log, once the other has finished.
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "seed1").write_text("a file where the seed's folder goes")
    failing = [a if a != str(out) else str(broken) for a in argv]
    with pytest.raises(SystemExit, match=r"Failed: seed 1 \(exit status 1; log .*seed1\.txt\)"):
        script.main([*failing, "--arms", "untrained", "--seeds", "0", "1", "--jobs", "2"])
    assert (broken / "seed0" / "eval_untrained.json").exists()


def test_the_gpu_script_stops_at_its_budget_and_the_same_command_resumes(tmp_path):
    """``scripts/gpu_findings.sh``: SIGINT at the budget keeps what finished, the same command finishes the run
    and copies the report to ``$OUT`` (the tiny model on CPU here; the script's own arguments come first, so
    later ones win), with the run's records but not its weights, from which another machine resumes."""
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "OUT": str(out),
           "FINDINGS_OUTPUT": str(tmp_path / "run"), "WHEELS_DIR": str(tmp_path / "no wheels")}
    argv = ["--model-size", "tiny", "--jobs", "2", "--threads", "1", "--seeds", "0", "1", "--families", *FAMILIES,
            "--train-per-family", "1", "--test-limit", "2", "--bc-epochs", "1", "--sampled-passes", "0",
            "--scaling", "2", "--max-turns", "2", "--copy-pretraining-steps", "2", "--grpo-steps", "1",
            "--grpo-tasks-per-step", "1", "--num-generations", "2", "--arms", "untrained", "bc"]
    script = Path(__file__).resolve().parents[2] / "scripts" / "gpu_findings.sh"

    def run(budget: str, *more: str, env: dict[str, str] = env) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(script), budget, *argv, *more], env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=1800)

    stopped = run("1")  # a second: stopped wherever it is, before it can finish
    assert stopped.returncode == 124, stopped.stdout + stopped.stderr
    assert "run the same command again to resume" in stopped.stdout
    assert not (out / "findings.json").exists()
    finished = run("1200")
    assert finished.returncode == 0, finished.stdout + finished.stderr
    report = json.loads((out / "findings.json").read_text())
    assert set(report["seeds"]) == {"0", "1"} and set(report["summary"]["arms"]) == {"untrained", "bc"}
    assert report["config"]["model_size"] == "tiny" and (out / "findings.png").read_bytes()[:4] == b"\x89PNG"
    assert {"seed0.txt", "seed1.txt", "settings.json"} <= {p.name for p in out.iterdir()}

    # Another machine: the records unpacked (no weights among them), BC+GRPO added. It starts from BC, whose
    # weights (and the tiny model's, BC's own start) are made again; what was measured is read back as it was.
    with tarfile.open(out / "findings_pieces.tar.gz") as pieces:
        names = pieces.getnames()
        assert {"run/settings.json", "run/demos.jsonl", "run/seed0/eval_bc.json", "run/seed1/bc/DONE"} <= set(names)
        assert not [n for n in names if n.endswith((".safetensors", ".bin", ".tmp"))]
        pieces.extractall(tmp_path / "carried", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    carried = tmp_path / "carried" / "run"
    out_there = tmp_path / "out there"
    out_there.mkdir()
    there = run("1200", "--arms", "untrained", "bc", "bc_grpo",
                env={**env, "OUT": str(out_there), "FINDINGS_OUTPUT": str(carried)})
    assert there.returncode == 0, there.stdout + there.stderr
    resumed = json.loads((out_there / "findings.json").read_text())
    assert set(resumed["summary"]["arms"]) == {"untrained", "bc", "bc_grpo"}
    for seed in ("0", "1"):
        log = (out_there / f"seed{seed}.txt").read_text()
        assert f"seed{seed}/bc holds no weights" in log and f"seed{seed}/tiny holds no weights" in log
        assert resumed["seeds"][seed]["arms"]["bc"] == report["seeds"][seed]["arms"]["bc"]
        assert resumed["seeds"][seed]["dynamics"]["bc"] == report["seeds"][seed]["dynamics"]["bc"]
        for piece in ("tiny", "bc"):  # records kept as first measured; the weights are back
            assert (carried / f"seed{seed}" / piece / "DONE").read_text() == \
                (tmp_path / "run" / f"seed{seed}" / piece / "DONE").read_text()
            assert (carried / f"seed{seed}" / piece / "model.safetensors").exists()


@pytest.mark.parametrize(("argv", "named"), [
    (["--seeds", "0", "1", "0"], "--seeds: 0 given more than once"),  # one run counted twice in the spread
    (["--scaling", "3", "5", "5"], "--scaling: 5 given more than once"),
    (["--arms", "bc", "bc"], "--arms: bc given more than once"),
])
def test_a_value_given_twice_is_a_usage_error(argv, named, capsys):
    with pytest.raises(SystemExit) as exited:
        load_example("reproduce_findings").parse_args(argv)
    assert exited.value.code == 2 and named in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--grpo-save-every", "2", "--eval-every", "3"],
                                  ["--grpo-save-every", "0", "--eval-every", "2"]])
def test_held_out_steps_that_fall_between_checkpoints_are_a_usage_error(argv, capsys):
    with pytest.raises(SystemExit) as exited:
        load_example("reproduce_findings").parse_args(argv)
    assert exited.value.code == 2
    assert f"--eval-every {argv[3]} is not a multiple of --grpo-save-every {argv[1]}" in capsys.readouterr().err


def test_an_output_folder_that_cannot_be_made_is_one_line_from_the_command(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    for name in ("main_job.py", "reproduce_findings.py"):
        run = subprocess.run([sys.executable, str(Path(__file__).resolve().parents[2] / "examples" / name),
                              "--output", str(blocker / "out"), "--threads", "1"], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, timeout=600)
        assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr[-2000:]
        assert run.stderr.strip().splitlines()[-1] == f"error: {blocker / 'out'}: Not a directory"
