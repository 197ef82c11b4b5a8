"""A policy served by any OpenAI-compatible chat-completions endpoint (vLLM, TGI, llama.cpp, OpenAI).

Requests go through the official ``openai`` client (``pip install webarena-gym[openai]``),
one per episode in flight, concurrently. Rate limits (429), timeouts, dropped connections
and server errors (5xx) are retried with exponential backoff (``Retry-After`` is honoured);
an endpoint still failing after every retry, or refusing the credentials or the model
name, raises :class:`~webarena_gym.errors.EndpointError`, and a resumed run picks up
where it stopped. A request the endpoint rejects as invalid (a context longer than the
model's window) gives an empty answer: an agent mistake, like any bad output.

>>> policy = ChatCompletionsPolicy("Qwen/Qwen2.5-3B-Instruct", base_url="http://127.0.0.1:8000/v1")  # doctest: +SKIP
>>> policy.act([[{"role": "user", "content": "..."}]])[0].text                                      # doctest: +SKIP
"""

from __future__ import annotations

import logging
import math
import os
import random
import socket
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any
from urllib.parse import urlsplit
from urllib.request import getproxies, proxy_bypass

from ..errors import ConfigurationError, EndpointError
from .policy import Messages, PolicyOutput

logger = logging.getLogger(__name__)

OPENAI_URL = "https://api.openai.com/v1"
#: HTTP statuses worth retrying: timeout, conflict, rate limit, and every server error.
RETRY_STATUSES = (408, 409, 429)
#: Optional request fields a model may refuse ("Unsupported parameter"); dropped with a warning once.
DROPPABLE = ("temperature", "top_p", "seed")


#: What each numeric setting of :class:`ChatCompletionsPolicy` must be: (test, requirement). Every test is
#: False for NaN, which would otherwise pass a comparison unnoticed and fail every request.
_SETTING_RULES: dict[str, tuple[Any, str]] = {
    "max_tokens": (lambda v: isinstance(v, int) and v >= 1, "an integer >= 1"),
    "concurrency": (lambda v: isinstance(v, int) and v >= 1, "an integer >= 1"),
    "max_retries": (lambda v: isinstance(v, int) and v >= 0, "an integer >= 0"),
    "timeout": (lambda v: 0 < v < math.inf, "a finite number of seconds > 0"),
    "backoff": (lambda v: 0 <= v < math.inf, "a finite number of seconds >= 0"),
    "max_backoff": (lambda v: 0 <= v < math.inf, "a finite number of seconds >= 0"),
    "temperature": (lambda v: 0 <= v < math.inf, "a finite number >= 0 (0 decodes greedily)"),
    "top_p": (lambda v: v is None or 0 < v <= 1, "in (0, 1] (unset: the server's default)"),
}


def check_settings(labels: dict[str, str] | None = None, **settings: Any) -> None:
    """Raise a :class:`ConfigurationError` naming the first setting that breaks its rule.

    ``labels`` names settings as the caller's user knows them (``{"max_retries": "--retries"}``).
    """
    for name, value in settings.items():
        test, requirement = _SETTING_RULES[name]
        try:
            valid = not isinstance(value, bool) and test(value)
        except TypeError:
            valid = False
        if not valid:
            raise ConfigurationError(f"{(labels or {}).get(name, name)} must be {requirement}; got {value!r}.")


#: Seconds between the waiting thread's checks for Ctrl-C while requests are in flight.
SIGNAL_CHECK_S = 0.2

class ChatCompletionsPolicy:
    """Answers each context with one chat completion.

    Args:
        model: The model name the endpoint serves.
        base_url: The endpoint, e.g. ``http://127.0.0.1:8000/v1`` (default: OpenAI's API).
        api_key: Default ``$OPENAI_API_KEY``; local servers that need none get a placeholder.
        temperature: 0 decodes greedily (where the server honours it).
        max_tokens: Token limit of one answer.
        top_p: Nucleus sampling mass (None: the server's default).
        seed: Sampling seed passed to the server (None: none).
        timeout: Seconds one request may take before it is retried.
        max_retries: Retries of one request after a rate limit, timeout or server error.
        backoff: First retry delay in seconds (doubled each retry, with jitter) when the
            server sends no ``Retry-After``.
        max_backoff: Longest delay between two retries.
        concurrency: Requests in flight at once.
    """

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 temperature: float = 0.0, max_tokens: int = 1024, top_p: float | None = None,
                 seed: int | None = None, timeout: float = 120.0, max_retries: int = 6, backoff: float = 1.0,
                 max_backoff: float = 60.0, concurrency: int = 16):
        if not model:
            raise ConfigurationError("An endpoint policy needs the served model's name (--model NAME).")
        check_settings(max_tokens=max_tokens, concurrency=concurrency, max_retries=max_retries, timeout=timeout,
                        backoff=backoff, max_backoff=max_backoff, temperature=temperature, top_p=top_p)
        try:
            import openai
        except ImportError:
            raise ConfigurationError(
                "Evaluating an endpoint needs the openai client: pip install 'webarena-gym[openai]'."
            ) from None
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or ("EMPTY" if base_url else None)
        if api_key is None:
            raise ConfigurationError(
                "No API key for OpenAI's API: set OPENAI_API_KEY (or --api-key), or point --endpoint at a local server."
            )
        self._openai = openai
        self.model, self.base_url = model, base_url or OPENAI_URL
        self.sampling = {"temperature": temperature, "max_tokens": max_tokens, "top_p": top_p, "seed": seed}
        self.max_retries, self.backoff, self.max_backoff, self.timeout = max_retries, backoff, max_backoff, timeout
        self.client = openai.OpenAI(base_url=self.base_url, api_key=api_key, max_retries=0, timeout=timeout)
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="chat-completions")
        self._token_field = "max_tokens"
        self._dropped: set[str] = set()
        self._lock = threading.Lock()
        self.retries = 0  # how many requests were retried, for logs and tests

    def check_server(self, timeout: float = 10.0) -> None:
        """Raise :class:`EndpointError` at once when nothing listens at the endpoint's host and port.

        A refused connection or a host name that does not resolve will not mend itself within
        the retries (a minute of backoff), so a run is told before it starts; a server that
        is slow to accept, or goes down later, is left to the retries.
        """
        url = urlsplit(self.base_url)
        host, port = url.hostname or "", url.port or (443 if url.scheme == "https" else 80)
        proxies = getproxies()
        if (url.scheme in proxies or "all" in proxies) and not proxy_bypass(host):
            return  # requests go through a proxy (as the client reads HTTPS_PROXY...): the host may not be reachable directly
        try:
            socket.create_connection((host, port), timeout=min(timeout, self.timeout)).close()
        except socket.gaierror as exc:
            raise EndpointError(f"{self.base_url}: the host name {host!r} does not resolve ({exc.strerror}). "
                                "Check --endpoint.") from None
        except ConnectionRefusedError:
            raise EndpointError(
                f"Nothing listens at {host}:{port} ({self.base_url} refused the connection). Start the server "
                "(e.g. `vllm serve MODEL --port 8000`), wait until it answers, or check --endpoint."
            ) from None
        except OSError as exc:  # a timeout, an unreachable network: the retries may yet get through
            logger.warning("Could not connect to %s:%s before the run (%s); its requests will retry.", host, port,
                           _short(exc))

    def describe(self) -> dict[str, Any]:
        return {"model": self.model, "endpoint": self.base_url, **self.sampling}

    def act(self, contexts: Sequence[Messages]) -> list[PolicyOutput]:
        futures = [self._pool.submit(self.complete, messages) for messages in contexts]
        try:
            # Waits in short slices: Ctrl-C is run on the main thread, which a signal that the OS
            # handed to a request's thread would not wake from one long wait.
            while wait(futures, timeout=SIGNAL_CHECK_S).not_done:
                pass
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        return [future.result() for future in futures]

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self.client.close()

    def complete(self, messages: Messages) -> PolicyOutput:
        """One chat completion, retried on rate limits, timeouts and server errors."""
        openai = self._openai
        attempt = 0
        while True:
            request = self._request(messages)
            try:
                response = self.client.chat.completions.create(**request)
            except openai.APIStatusError as exc:
                if exc.status_code in (400, 422):
                    if self._adapt(str(exc), request):
                        continue
                    return PolicyOutput("", error=f"The endpoint refused the request: {_short(exc)}")
                if exc.status_code not in RETRY_STATUSES and exc.status_code < 500:
                    raise EndpointError(
                        f"{self.base_url} answered {exc.status_code} for model {self.model!r}: {_short(exc)}. "
                        "Check --endpoint, --model and the API key (OPENAI_API_KEY or --api-key)."
                    ) from None
                attempt = self._wait_before_retry(attempt, exc, exc.response.headers)
            except openai.APIConnectionError as exc:  # timeouts included
                attempt = self._wait_before_retry(attempt, exc, {})
            except (openai.APIError, ValueError) as exc:  # a body that is not a completion (or not JSON)
                return PolicyOutput("", error=f"The endpoint's answer was not a completion: {_short(exc)}")
            else:
                return _output(response)

    def _request(self, messages: Messages) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self.model, "messages": list(messages)}
        for name, value in self.sampling.items():
            if value is None or name in self._dropped:
                continue
            request[self._token_field if name == "max_tokens" else name] = value
        return request

    def _adapt(self, message: str, request: dict[str, Any]) -> bool:
        """Follow a refusal of a request field the model does not take; True when the request should be sent again.

        Requests in flight concurrently may all be refused for the same field: each sees
        that the field it sent is now replaced or dropped, and is sent again.
        """
        with self._lock:
            if "max_completion_tokens" in message and "max_tokens" in request:
                if self._token_field == "max_tokens":
                    self._token_field = "max_completion_tokens"
                    logger.warning("%s takes max_completion_tokens instead of max_tokens; using it.", self.model)
                return True
            if "nsupported" in message:
                for name in DROPPABLE:
                    if f"'{name}'" in message and name in request:
                        if name not in self._dropped:
                            self._dropped.add(name)
                            logger.warning("%s does not take %s=%r; requests go without it.", self.model, name,
                                           self.sampling[name])
                        return True
        return False

    def _wait_before_retry(self, attempt: int, error: Exception, headers: Any) -> int:
        if attempt >= self.max_retries:
            raise EndpointError(
                f"{self.base_url} still failed after {self.max_retries} retries ({_short(error)}). Is the server up "
                "and the model served? The run file keeps every finished episode: run the same command again to "
                "resume."
            ) from None
        delay = _retry_after(headers)
        if delay is None:
            delay = self.backoff * 2**attempt * random.uniform(0.5, 1.0)
        delay = min(delay, self.max_backoff)
        logger.info("Retrying %s in %.1f s (%s)", self.base_url, delay, _short(error))
        with self._lock:
            self.retries += 1
        time.sleep(delay)
        return attempt + 1


def _retry_after(headers: Any) -> float | None:
    """Seconds the server asked to wait (``retry-after-ms`` or ``retry-after`` in seconds), if any."""
    for name, scale in (("retry-after-ms", 1e-3), ("retry-after", 1.0)):
        value = headers.get(name) if headers is not None else None
        try:
            if value is not None:
                return max(0.0, float(value) * scale)
        except ValueError:  # an HTTP date: fall back to our own backoff
            continue
    return None


def _output(response: Any) -> PolicyOutput:
    """The answer of a completion, tolerant of servers that leave fields out."""
    try:
        choice = response.choices[0]
        message = choice.message
        text = message.content or ""
        reasoning = getattr(message, "reasoning_content", None) or getattr(message, "reasoning", None) or ""
        usage = response.usage
    except (AttributeError, IndexError, TypeError):
        return PolicyOutput("", error=f"The endpoint's answer held no message: {str(response)[:200]}")
    return PolicyOutput(
        text=text if isinstance(text, str) else str(text),
        prompt_tokens=_count(getattr(usage, "prompt_tokens", None)),
        completion_tokens=_count(getattr(usage, "completion_tokens", None)),
        reasoning=reasoning if isinstance(reasoning, str) else "",
    )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _short(error: Exception) -> str:
    return str(error).replace("\n", " ")[:300]
