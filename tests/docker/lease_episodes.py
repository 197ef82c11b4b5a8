"""What one rollout worker process does in the replica tests (importable by spawned processes)."""

from __future__ import annotations

import re
import sys
import time
import urllib.request

NOTES_TASK = {
    "task_id": "notes-write",
    "sites": ["reddit"],
    "start_url": "__REDDIT__/cgi-bin/notes",
    "intent": "Save a note that says your name.",
    "require_login": False,
    "eval": {
        "eval_types": ["program_html"],
        "reference_answers": None,
        "reference_url": "",
        # the episode's own note and nobody else's: another episode's write would make it 2
        "program_html": [{"url": "__REDDIT__/cgi-bin/notes", "locator": "",
                          "required_contents": {"must_include": ["notes stored: 1"]}}],
    },
}


def play_writing_episode(leases: str, site_urls: dict[str, str], token: str) -> dict:
    """Reset on a leased replica, save a note, answer; returns what the episode saw."""
    from webarena_gym.env import WebArenaEnv

    env = WebArenaEnv(suite="webarena-lite", tasks=[NOTES_TASK], site_urls=site_urls, leases=leases,
                      backend="playwright", max_steps=5)
    try:
        first, info = env.reset(options={"task_id": "notes-write"})
        field = re.search(r'<input[^>]*id="(\d+)"', first).group(1)
        after, _, _, _, _ = env.step(f'do(action="Search", element="{field}", argument="{token}")')
        _, reward, terminated, _, final = env.step('exit(message="done")')
        return {"token": token, "first": first, "after": after, "reward": reward, "terminated": terminated,
                "replica": info["replicas"]["reddit"], "url": env.backend.url, "final_replicas": final.get("replicas")}
    finally:
        env.close()


def hold_and_die(leases: str) -> None:
    """Lease a replica for writing, write to it, say which, then hang until killed (no release)."""
    from webarena_gym.backends.site_leases import LeaseClient

    client = LeaseClient(leases, holder="doomed-worker", ttl=1.0)
    lease = client.acquire(["reddit"], writes=True)
    url = lease.urls["reddit"]
    urllib.request.urlopen(urllib.request.Request(url + "/cgi-bin/notes", data=b"note=orphan", method="POST"), timeout=10)
    print(lease.replicas["reddit"], url, flush=True)
    time.sleep(3600)


if __name__ == "__main__":
    hold_and_die(sys.argv[1])
