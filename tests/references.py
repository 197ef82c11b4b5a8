"""What a task's reference answers say, read from the task data (shared by the baseline and findings tests)."""

from __future__ import annotations


def reference_is_na(task) -> bool:
    """The task's reference answer is N/A, whichever kind holds it."""
    references = task.eval.reference_answers
    if references is None:
        return False
    fuzzy = references.fuzzy_match
    fuzzy_values = [fuzzy] if isinstance(fuzzy, str) else list(fuzzy or ())
    return "N/A" in [references.exact_match, *fuzzy_values, *(references.must_include or ())]
