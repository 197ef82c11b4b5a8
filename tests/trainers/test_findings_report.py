"""The findings report's gains: how far BC+GRPO's lead over BC would move on another draw of held-out tasks.

Synthetic per-seed results with known solved tasks (no training), so every number can be worked out by
hand (``trainers.recipe.findings``); then ``examples/findings_report.py`` as a command on a saved file, an older one and a broken one.
"""

from __future__ import annotations

import json

import pytest

from trainers.recipe import findings as report
from webarena_gym.suites.embedded import all_families, family_task_ids

from .examples import load_example

script = load_example("findings_report")

# Real held-out ids of the embedded suite: three N/A summaries, the top_search_terms pair, one map N/A.
NA_SUMMARIES, SEARCH_TERMS, MAP_NA = [7, 22, 37], [47, 66], [115]
TEST_IDS = [*NA_SUMMARIES, *SEARCH_TERMS, *MAP_NA]
FAMILIES = [*["shopping.summarize_missing_reviews"] * 3, *["shopping_admin.top_search_terms"] * 2,
            "map.missing_information"]


def seed_result(solved: dict[str, list[int]]) -> dict:
    """One seed's arms as reproduce_findings.py records them (greedy success and solved ids; sampled passes)."""
    arms = {arm: {"greedy": {"success": len(ids) / len(TEST_IDS), "solved": ids, "na_answers": 0.0},
                  "sampled": {"success": 0.0, "passes": [0.0]}} for arm, ids in solved.items()}
    return {"arms": arms, "scaling": {}, "dynamics": {}, "timing_s": {}}


# BC solves the pair on both seeds; BC+GRPO trades it for the three N/A summaries (seed 0) or the pair and one (1).
SEEDS = {"0": seed_result({"untrained": [], "grpo_zero": [], "bc": SEARCH_TERMS, "bc_grpo": NA_SUMMARIES}),
         "1": seed_result({"untrained": [], "grpo_zero": [115], "bc": SEARCH_TERMS, "bc_grpo": [*SEARCH_TERMS, 7]})}
TASKS = {"test_ids": TEST_IDS, "test_task_families": FAMILIES}


def test_a_gain_is_the_paired_difference_averaged_over_seeds_and_tasks():
    gains = report.summarize(SEEDS, TASKS)["gains"]
    # Per task, mean over seeds: 7 -> +1, 22 and 37 -> +0.5, 47 and 66 -> -0.5, 115 -> 0; mean over 6 tasks.
    assert gains["bc_grpo_minus_bc"]["points"] == pytest.approx(1.0 / 6)
    assert gains["grpo_zero_minus_untrained"]["points"] == pytest.approx(0.5 / 6)
    for gain in gains.values():
        assert {gain["families"]["groups"], gain["tasks"]["groups"]} == {3, 6}
        for interval in (gain["families"], gain["tasks"]):
            assert interval["low"] <= gain["points"] <= interval["high"]
    # Without the families only the task interval; without tasks no gains; an arm not run has none.
    assert "families" not in report.gains(SEEDS, {"test_ids": TEST_IDS})["bc_grpo_minus_bc"]
    assert "gains" not in report.summarize(SEEDS)
    partial = {seed: {**result, "arms": {k: v for k, v in result["arms"].items() if k in ("bc", "bc_grpo")}}
               for seed, result in SEEDS.items()}
    assert set(report.gains(partial, TASKS)) == {"bc_grpo_minus_bc"}


def test_sampled_gains_average_each_tasks_passes_where_every_pass_lists_its_solved_tasks():
    with_passes = json.loads(json.dumps(SEEDS))
    for seed, (bc, bc_grpo) in {"0": ([[47], [47, 66]], [[7, 22], []]), "1": ([[], []], [[7], [7]])}.items():
        with_passes[seed]["arms"]["bc"]["sampled"]["solved_passes"] = bc
        with_passes[seed]["arms"]["bc_grpo"]["sampled"]["solved_passes"] = bc_grpo
    gains = report.gains(with_passes, TASKS)
    # Per task over 2 seeds x 2 passes: 7 -> (0.5 + 1) / 2, 22 -> 0.25, 47 -> -0.5, 66 -> -0.25; over 6 tasks.
    assert gains["bc_grpo_minus_bc_sampled"]["points"] == pytest.approx((0.75 + 0.25 - 0.5 - 0.25) / 6)
    assert "grpo_zero_minus_untrained_sampled" not in gains  # their passes list nothing: no sampled gain
    assert gains["bc_grpo_minus_bc"] == report.gains(SEEDS, TASKS)["bc_grpo_minus_bc"]
    lines = report.format_report({"tasks": {**TASKS, "test_sites": ["map"]}, "seeds": with_passes,
                                  "summary": report.summarize(with_passes, TASKS)}).splitlines()
    assert "  sampled BC + GRPO (R1) - BC: +4.2 [" in "\n".join(lines)


def older_file_seeds() -> tuple[list[int], dict]:
    """SEEDS on held-out ids of today's suite: an older file records no families, so the report looks them up
    there; three families with two held-out tasks each stand in for the six tasks, solved as in SEEDS."""
    pairs = [ids for ids in (family_task_ids("test", [f.name]) for f in all_families()) if len(ids) == 2][:3]
    remap = dict(zip(TEST_IDS, [task_id for ids in pairs for task_id in ids], strict=True))
    seeds = json.loads(json.dumps(SEEDS))
    for seed in seeds.values():
        for arm in seed["arms"].values():
            arm["greedy"]["solved"] = [remap[task_id] for task_id in arm["greedy"]["solved"]]
    return list(remap.values()), seeds


def test_the_command_reports_a_saved_file_again_and_refuses_a_broken_one(tmp_path, capsys):
    test_ids, seeds = older_file_seeds()
    findings = {"config": {}, "tasks": {"test_ids": test_ids, "test_sites": ["map", "shopping", "shopping_admin"]},
                "seeds": seeds, "summary": {}}
    older = tmp_path / "findings.json"  # written before the findings recorded their families: looked up
    older.write_text(json.dumps(findings))
    script.main([str(older)])
    out = capsys.readouterr().out
    assert "resampling the 3 families | the 6 tasks" in out
    assert "BC + GRPO (R1) - BC: +16.7" in out and "target (greedy) bc grpo at least bc plus 10 points: met" in out
    assert report.report_file(older) == out.split("\n", 1)[1].rstrip("\n")
    assert not (tmp_path / "findings.png").exists()
    script.main([str(older), "--plot"])
    assert (tmp_path / "findings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    for name, content in (("cut.json", b'{"seeds": {'), ("bytes.json", b"\xff\xfe"), ("other.json", b"[1, 2]"),
                          ("no_tasks.json", json.dumps({"seeds": seeds}).encode()),
                          ("no_seeds.json", json.dumps({**findings, "seeds": {}}).encode()),
                          ("unknown_task.json", json.dumps({**findings, "tasks": {"test_ids": [10**6]}}).encode())):
        (tmp_path / name).write_bytes(content)
        with pytest.raises(SystemExit, match=rf"{name}: not a findings.json"):
            report.report_file(tmp_path / name)
    with pytest.raises(SystemExit, match="missing.json: not a findings.json.*FileNotFoundError"):
        report.report_file(tmp_path / "missing.json")


def test_runs_side_by_side_one_row_each_and_files_that_are_not_runs_named(tmp_path, capsys):
    base = {"config": {}, "tasks": {**TASKS, "test_sites": ["map"]}, "summary": {}}
    (tmp_path / "a.json").write_text(json.dumps({**base, "seeds": SEEDS}))
    only_bc = {seed: {**result, "arms": {k: v for k, v in result["arms"].items() if k in ("bc", "bc_grpo")}}
               for seed, result in SEEDS.items() if seed == "0"}  # one seed, two arms
    (tmp_path / "b.json").write_text(json.dumps({**base, "seeds": only_bc}))
    (tmp_path / "c.json").write_text("not json")
    script.main([str(tmp_path / name) for name in ("a.json", "b.json", "c.json")] + ["--compare"])
    header, rule, a, b, skipped = capsys.readouterr().out.strip().split("\n")
    assert header.split() == ["run", "seeds", "untrained", "R1-Zero", "BC", "BC+GRPO", "gain", "families", "tasks"]
    # a: both seeds; BC 2/6 tasks, BC+GRPO 3/6, gain +16.7 (worked out in the first test).
    assert a.split()[1:7] == ["2", "0.0", "8.3", "33.3", "50.0", "+16.7"]
    # b: seed 0 alone, arms not run shown as '-': BC+GRPO's 3 summaries against BC's pair, +1/6.
    assert b.split()[1:7] == ["1", "-", "-", "33.3", "50.0", "+16.7"]
    assert skipped.startswith(f"skipped: {tmp_path / 'c.json'}: not a findings.json")


def test_held_out_success_along_grpo_is_summarised_at_the_steps_every_seed_evaluated(tmp_path):
    seeds = json.loads(json.dumps(SEEDS))
    seeds["0"]["along_training"] = {"bc_grpo": {"0": 2 / 6, "10": 3 / 6, "20": 3 / 6}, "grpo_zero": {"10": 0.0}}
    seeds["1"]["along_training"] = {"bc_grpo": {"0": 2 / 6, "20": 1 / 6, "30": 3 / 6}}  # step 10 not kept here
    along = report.summarize(seeds, TASKS)["along_training"]
    assert list(along) == ["bc_grpo"]  # R1-Zero's curve is on one seed only
    assert list(along["bc_grpo"]) == ["0", "20"]  # steps sorted as numbers, only those both seeds have
    assert along["bc_grpo"]["20"]["mean"] == pytest.approx(2 / 6) and along["bc_grpo"]["20"]["values"] == [0.5, 1 / 6]
    assert "along_training" not in report.summarize(SEEDS, TASKS)  # runs without --eval-every, older files
    findings = {"config": {}, "tasks": {**TASKS, "test_sites": ["map"]}, "seeds": seeds,
                "summary": report.summarize(seeds, TASKS)}
    lines = report.format_report(findings).splitlines()
    at = lines.index("Held-out greedy success along GRPO: step -> success %")
    assert lines[at + 1] == "  BC + GRPO (R1): 0: 33.3 ±  0.0 [33 33]   20: 33.3 ± 23.6 [50 17]"
    assert report.plot_findings(findings, tmp_path / "along.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
