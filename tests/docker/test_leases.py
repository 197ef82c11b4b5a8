"""The lease rules without docker: who shares, who waits, what expires, how URLs move.

The service is the real HTTP service on loopback; only its recycling is instant here (the
docker recycling is tested in test_replicas.py).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest

from webarena_gym.backends.site_leases import LeaseClient, rebase_task, task_writes
from webarena_gym.docker_sites.lease_service import LeaseService
from webarena_gym.docker_sites.leases import LeaseBook
from webarena_gym.errors import ConfigurationError
from webarena_gym.tasks.task import Task


def task(eval_types, **extra):
    evaluation = {"eval_types": eval_types, "reference_answers": {"must_include": ["x"]},
                  "reference_url": "http://h:7780/admin/sales/order/", "url_note": "GOLD in PRED",
                  "program_html": [{"url": "http://h:7780/admin/sales/order/view/id/1", "locator": "",
                                    "required_contents": {"must_include": ["x"]}}]}
    return Task.from_dict({"task_id": 1, "sites": ["shopping_admin"], "intent": "i",
                           "start_url": "http://h:7780/admin", "eval": evaluation, **extra})


@pytest.mark.parametrize(("eval_types", "extra", "writes"), [
    (["string_match"], {}, False),
    (["url_match"], {}, False),
    (["string_match", "url_match"], {}, False),
    (["program_html"], {}, True),
    (["url_match", "program_html"], {}, True),
    (["string_match"], {"require_reset": True}, True),
])
def test_which_tasks_write(eval_types, extra, writes):
    assert task_writes(task(eval_types, **extra)) is writes


def test_rebase_moves_every_url_of_the_site_and_nothing_else():
    original = task(["url_match", "program_html"], instantiation_dict={"url": "http://h:77800/x"})
    moved = rebase_task(original, {"shopping_admin": "http://h:7780/admin"}, {"shopping_admin": "http://h:8780/admin"})
    assert moved.start_url == "http://h:8780/admin"
    assert moved.eval.reference_url == "http://h:8780/admin/sales/order/"
    assert moved.eval.program_html[0].url == "http://h:8780/admin/sales/order/view/id/1"
    assert moved.instantiation_dict == {"url": "http://h:77800/x"}  # another port that starts alike
    assert rebase_task(original, {"shopping_admin": "http://h:7780/admin"}, {}) is original


def test_a_dead_holders_lease_expires_and_its_replica_waits_for_its_readers():
    now = [0.0]
    book = LeaseBook({"reddit": ["http://h:10999"]}, clock=lambda: now[0])
    short = book.acquire(["reddit"], writes=False, holder="dies", ttl=5)
    long = book.acquire(["reddit"], writes=False, holder="lives", ttl=50)
    now[0] = 10.0
    assert book.heartbeat(long.lease_id)  # "dies" sent none
    assert book.expire() == []  # the dead reader's replica is dirty, but a live reader is still on it
    assert not book.heartbeat(short.lease_id)  # expired for good
    assert book.replica("reddit", 1).state == "dirty"
    assert book.acquire(["reddit"], writes=False, holder="new", ttl=5) is None  # nobody joins a dirty replica
    assert book.release(long.lease_id, dirty=False) == [("reddit", 1)]  # the last reader out: recycle it
    assert book.release(long.lease_id, dirty=False) is None


def test_a_multi_site_lease_takes_all_its_replicas_or_none():
    book = LeaseBook({"reddit": ["http://h:10999"], "gitlab": ["http://h:9023"]})
    book.acquire(["gitlab"], writes=True, holder="a", ttl=60)
    assert book.acquire(["reddit", "gitlab"], writes=True, holder="b", ttl=60) is None
    assert book.replica("reddit", 1).state == "free"


def test_a_waiting_writer_gets_the_replica_once_it_is_recycled():
    recycled = []
    service = LeaseService(LeaseBook({"reddit": ["http://h:10999"]}), lambda site, index: recycled.append((site, index)))
    with service:
        client = LeaseClient(service.url, wait=60)
        first = client.acquire(["reddit"], writes=True)
        releaser = threading.Timer(0.5, client.release, args=(first,))
        releaser.start()
        second = LeaseClient(service.url, wait=60).acquire(["reddit"], writes=True)
        releaser.join()
        assert second.replicas == {"reddit": "reddit-1"} and recycled == [("reddit", 1)]
        assert [row["recycled"] for row in client.status()] == [1]


def test_bad_lease_requests_are_refused_with_what_was_expected():
    with LeaseService(LeaseBook({"reddit": ["http://h:10999"]}), None) as service:
        with pytest.raises(ConfigurationError, match=r"sites must be a list of site names such as \['reddit'\], got 'reddit'"):
            LeaseClient(service.url).acquire("reddit", writes=True)
        request = urllib.request.Request(service.url + "/leases", data=json.dumps({"sites": "reddit"}).encode(),
                                         method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        assert json.loads(refused.value.read()) == {"error": "'sites' must be a list of site names, got 'reddit'"}
    with pytest.raises(ConfigurationError, match=r"must be an http:// URL such as http://host:7700, got 'host:7700'"):
        LeaseClient("host:7700")
