# SPDX-License-Identifier: Apache-2.0
"""A client of the neardup service over HTTP/1.1, with the standard library only.

The service's API is described in server/README.md of the neardup repository (and at /openapi.json
of a running service); this module maps each call to one method and each answer to a dataclass.
"""

import datetime as _dt
import http.client
import itertools
import json
import os
import threading
import time
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

__all__ = [
    "BatchSequence",
    "Client",
    "CollectionInfo",
    "Doc",
    "Fingerprint",
    "Match",
    "NeardupError",
    "Result",
    "StoredDoc",
]

DEFAULT_URL = "http://127.0.0.1:8080"
URL_ENV = "NEARDUP_URL"
TOKEN_ENV = "NEARDUP_TOKEN"
SEQUENCE_HEADER = "Neardup-Sequence"

Timestamp = Union[int, str, _dt.datetime, None]


class NeardupError(Exception):
    """The service refused a request: ``status`` is the HTTP status, ``message`` its error text,
    ``retry_after`` the seconds of its Retry-After header (503), or None."""

    def __init__(self, status: int, message: str, retry_after: Optional[float] = None):
        super().__init__("HTTP %d: %s" % (status, message))
        self.status = status
        self.message = message
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        """True for 503 (at capacity or shutting down): the same request may succeed later."""
        return self.status == 503


@dataclass(frozen=True)
class Doc:
    """A document to insert: an id and either a text or a precomputed fingerprint (collections
    created with verify false). ``timestamp``: epoch milliseconds, an ISO-8601 string or a
    timezone-aware datetime; None means its arrival."""

    id: str
    text: Optional[str] = None
    fingerprint: Optional[int] = None
    timestamp: Timestamp = None

    def to_json(self) -> Dict[str, Any]:
        if (self.text is None) == (self.fingerprint is None):
            raise ValueError("document %r: give exactly one of text and fingerprint" % (self.id,))
        out: Dict[str, Any] = {"id": self.id}
        if self.text is not None:
            out["text"] = self.text
        else:
            out["fingerprint"] = _hex(self.fingerprint)  # type: ignore[arg-type]
        ts = _timestamp(self.timestamp)
        if ts is not None:
            out["timestamp"] = ts
        return out


@dataclass(frozen=True)
class Match:
    """A stored near-duplicate: its id, Hamming distance in bits, and verified Jaccard similarity
    of the shingles (None when the collection does not verify)."""

    id: str
    distance: int
    similarity: Optional[float]


@dataclass(frozen=True)
class Result:
    """The service's answer about one document.

    ``status``: ``stored``, ``checked`` (a check), ``exists`` (the id was stored already: nothing
    changed) or ``expired`` (outside the retention window: checked, not stored). ``is_new``: no
    stored document is a near-duplicate. ``cluster``: the id of its cluster's representative.
    ``matches``: the near-duplicates found, most similar first."""

    status: str
    id: Optional[str]
    is_new: bool
    fingerprint: int
    cluster: Optional[str]
    matches: List[Match] = field(default_factory=list)
    error: Optional[str] = None

    @property
    def stored(self) -> bool:
        return self.status == "stored"

    @property
    def exists(self) -> bool:
        return self.status == "exists"

    @property
    def is_duplicate(self) -> bool:
        """A stored document is a near-duplicate of it."""
        return not self.is_new

    @property
    def fingerprint_hex(self) -> str:
        return _hex(self.fingerprint)

    @staticmethod
    def from_json(n: Dict[str, Any]) -> "Result":
        return Result(
            status=n["status"],
            id=n.get("id"),
            is_new=bool(n["new"]),
            fingerprint=int(n["fingerprint"], 16),
            cluster=n.get("cluster"),
            matches=[
                Match(m["id"], int(m["distance"]), m.get("similarity"))
                for m in n.get("matches") or []
            ],
            error=n.get("error"),
        )


@dataclass(frozen=True)
class StoredDoc:
    """A stored document: ``timestamp`` and ``expires_at`` in epoch milliseconds (``expires_at``
    None when the collection keeps documents forever)."""

    id: str
    fingerprint: int
    timestamp: int
    expires_at: Optional[int]
    cluster: str


@dataclass(frozen=True)
class Fingerprint:
    """The fingerprint of a text under a collection's settings, the count of letters and digits it
    was made from, and the collection's analyzer id."""

    fingerprint: int
    letters: int
    analyzer: str


@dataclass(frozen=True)
class CollectionInfo:
    """A collection: name, settings (k, threshold, verify, retention, ...), analyzer id, and
    counters (documents, ramBytes, inserted, duplicates, checked, expired, deleted)."""

    name: str
    settings: Dict[str, Any]
    analyzer: str
    stats: Dict[str, int]

    @property
    def documents(self) -> int:
        return int(self.stats.get("documents", 0))

    @staticmethod
    def from_json(n: Dict[str, Any]) -> "CollectionInfo":
        return CollectionInfo(
            name=n["name"],
            settings=dict(n.get("settings") or {}),
            analyzer=n.get("analyzer", ""),
            stats={k: int(v) for k, v in (n.get("stats") or {}).items()},
        )


DocLike = Union[Doc, Dict[str, Any], Tuple[str, str]]


class Client:
    """A client of one neardup service.

    ``url`` defaults to the environment variable NEARDUP_URL, else http://127.0.0.1:8080;
    ``token`` to NEARDUP_TOKEN (sent as ``Authorization: Bearer``). A 503 answer (the service at
    capacity) is retried up to ``retries`` times, after the Retry-After the service sends or an
    exponential backoff from ``backoff`` seconds, whichever is longer; other refusals raise
    :class:`NeardupError`. The client keeps one HTTP/1.1 connection open: it is not thread-safe,
    so give each thread its own. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        url: Optional[str] = None,
        token: Optional[str] = None,
        timeout: float = 60.0,
        retries: int = 8,
        backoff: float = 0.25,
        max_backoff: float = 10.0,
    ):
        url = url or os.environ.get(URL_ENV) or DEFAULT_URL
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("url must be http://HOST[:PORT] or https://HOST[:PORT], not %r" % url)
        self.url = url.rstrip("/")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port or (443 if self._https else 80)
        self._prefix = parts.path.rstrip("/")
        token = token if token is not None else os.environ.get(TOKEN_ENV)
        self._auth = "Bearer " + token if token else None
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._conn: Optional[http.client.HTTPConnection] = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # --- documents ------------------------------------------------------------------------------

    def insert(
        self,
        collection: str,
        id: str,
        text: Optional[str] = None,
        fingerprint: Optional[int] = None,
        timestamp: Timestamp = None,
    ) -> Result:
        """Checks a document against everything stored and stores it; answered once durable. An id
        stored already is not an error: the result's status is ``exists``."""
        body = Doc(id, text, fingerprint, timestamp).to_json()
        status, _, data = self._call("POST", self._path(collection, "documents"), body, ok=(200, 409))
        return Result.from_json(json.loads(data))

    def check(self, collection: str, text: Optional[str] = None, fingerprint: Optional[int] = None) -> Result:
        """Checks a text (or a fingerprint) against everything stored; stores nothing."""
        if (text is None) == (fingerprint is None):
            raise ValueError("give exactly one of text and fingerprint")
        body = {"text": text} if text is not None else {"fingerprint": _hex(fingerprint)}  # type: ignore[arg-type]
        _, _, data = self._call("POST", self._path(collection, "check"), body)
        return Result.from_json(json.loads(data))

    def fingerprint(self, collection: str, text: str) -> Fingerprint:
        """The fingerprint of a text under the collection's settings."""
        _, _, data = self._call("POST", self._path(collection, "fingerprint"), {"text": text})
        n = json.loads(data)
        return Fingerprint(int(n["fingerprint"], 16), int(n["letters"]), n["analyzer"])

    def batch(self, collection: str, docs: Sequence[DocLike], sequence: Optional[str] = None) -> List[Result]:
        """Checks and inserts many documents in one request; the results come in the same order,
        with the same meaning as inserting them one by one in that order. ``sequence`` is the
        value of the Neardup-Sequence header (``<stream>/<number>``, see :class:`BatchSequence`),
        or None."""
        if not docs:
            return []
        lines = "".join(json.dumps(_doc(d).to_json(), ensure_ascii=False) + "\n" for d in docs)
        _, _, data = self._call(
            "POST",
            self._path(collection, "batch"),
            lines.encode("utf-8"),
            content_type="application/x-ndjson",
            extra_headers={SEQUENCE_HEADER: sequence} if sequence is not None else None,
        )
        results = [Result.from_json(json.loads(line)) for line in data.decode("utf-8").splitlines() if line.strip()]
        if len(results) != len(docs):
            raise NeardupError(200, "the service answered %d results for %d documents" % (len(results), len(docs)))
        return results

    def sequence(self) -> "BatchSequence":
        """A new sequence of numbered batches that the service decides in the order they are
        numbered, however many are in flight (see :class:`BatchSequence`)."""
        return BatchSequence(self)

    def insert_all(
        self, collection: str, docs: Iterable[DocLike], batch_size: int = 500, in_flight: int = 1
    ) -> Iterator[Tuple[Doc, Result]]:
        """Inserts the documents of any iterable (a generator over a crawl, a file...) in batches,
        yielding ``(doc, result)`` pairs in order.

        Back-pressure: with ``in_flight`` 1, the next batch is read from ``docs`` only when the
        caller has taken the results of the previous one, so memory stays at one batch however
        long the iterable; a service at capacity (503) slows the loop down through the retries
        instead of failing it. With ``in_flight`` N > 1, up to N batches are sent at once, each on
        a connection of its own, numbered in one :class:`BatchSequence`: the service analyses the
        next batches while it stores and answers one, and decides them in the order read, so the
        results are those of one batch at a time; up to N batches are read ahead."""
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        if in_flight < 1:
            raise ValueError("in_flight must be at least 1")
        it = iter(docs)
        if in_flight > 1:
            yield from self.sequence().insert_all(collection, it, batch_size, in_flight)
            return
        while True:
            chunk = [_doc(d) for d in itertools.islice(it, batch_size)]
            if not chunk:
                return
            for d, r in zip(chunk, self.batch(collection, chunk)):
                yield d, r

    def get(self, collection: str, id: str) -> Optional[StoredDoc]:
        """The stored document with this id, or None."""
        status, _, data = self._call("GET", self._path(collection, "documents") + "?id=" + _quote(id), ok=(200, 404))
        if status == 404:
            return None
        n = json.loads(data)
        exp = n.get("expiresAt")
        return StoredDoc(
            id=n["id"],
            fingerprint=int(n["fingerprint"], 16),
            timestamp=int(n["timestamp"]),
            expires_at=None if exp is None else int(exp),
            cluster=n["cluster"],
        )

    def delete(self, collection: str, id: str) -> bool:
        """Forgets a document (durable when answered); False when it was not stored."""
        status, _, _ = self._call("DELETE", self._path(collection, "documents") + "?id=" + _quote(id), ok=(200, 404))
        return status == 200

    # --- collections ----------------------------------------------------------------------------

    def collections(self) -> List[CollectionInfo]:
        _, _, data = self._call("GET", "/v1/collections")
        return [CollectionInfo.from_json(c) for c in json.loads(data)["collections"]]

    def collection(self, name: str) -> Optional[CollectionInfo]:
        status, _, data = self._call("GET", "/v1/collections/" + _quote(name), ok=(200, 404))
        return None if status == 404 else CollectionInfo.from_json(json.loads(data))

    def create_collection(self, name: str, **settings: Any) -> CollectionInfo:
        """Creates a collection; ``settings`` may hold k, threshold, verify, retention ("48h"),
        retentionBasis, lexicon, han, userDictionary, preset ("web" for crawled pages), numbers,
        html, volatileLines, topN, sketchCapacity, scheme; the rest take the service's
        defaults."""
        body = dict(settings)
        body["name"] = name
        _, _, data = self._call("POST", "/v1/collections", body, ok=(201,))
        return CollectionInfo.from_json(json.loads(data))

    def drop_collection(self, name: str) -> bool:
        """Drops a collection and its documents; False when there was none."""
        status, _, _ = self._call("DELETE", "/v1/collections/" + _quote(name), ok=(200, 404))
        return status == 200

    def ready(self) -> bool:
        """Whether /ready answers 200 (503 while shutting down or after a disk failure)."""
        status, _, _ = self._call("GET", "/ready", ok=(200, 503), retry=False)
        return status == 200

    # --- plumbing -------------------------------------------------------------------------------

    def _path(self, collection: str, tail: str) -> str:
        return "/v1/collections/" + _quote(collection) + "/" + tail

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = cls(self._host, self._port, timeout=self.timeout)
        return self._conn

    def _call(
        self,
        method: str,
        path: str,
        body: Union[Dict[str, Any], bytes, None] = None,
        ok: Tuple[int, ...] = (200,),
        content_type: str = "application/json",
        retry: bool = True,
        extra_headers: Optional[Dict[str, str]] = None,
    ) -> Tuple[int, Dict[str, str], bytes]:
        if isinstance(body, dict):
            payload: Optional[bytes] = json.dumps(body, ensure_ascii=False).encode("utf-8")
        else:
            payload = body
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = content_type
        if self._auth:
            headers["Authorization"] = self._auth
        if extra_headers:
            headers.update(extra_headers)
        attempt = 0
        while True:
            status, resp_headers, data = self._send(method, self._prefix + path, payload, headers)
            if status in ok:
                return status, resp_headers, data
            retry_after = _seconds(resp_headers.get("retry-after"))
            if status == 503 and retry and attempt < self.retries:
                delay = min(self.max_backoff, self.backoff * (2 ** attempt))
                time.sleep(max(delay, retry_after or 0.0))
                attempt += 1
                continue
            raise NeardupError(status, _message(data), retry_after)

    def _send(self, method: str, path: str, payload: Optional[bytes], headers: Dict[str, str]) -> Tuple[int, Dict[str, str], bytes]:
        # A kept-alive connection the service has closed fails on first use: reconnect once. (A
        # document whose insert is sent twice this way answers "exists" the second time.)
        for fresh in (False, True):
            conn = self._connection()
            try:
                conn.request(method, path, body=payload, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                resp_headers = {k.lower(): v for k, v in resp.getheaders()}
                if resp_headers.get("connection", "").lower() == "close":
                    self.close()
                return resp.status, resp_headers, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if fresh:
                    raise
            except (OSError, http.client.HTTPException):
                self.close()
                raise
        raise AssertionError("unreachable")


class BatchSequence:
    """Batches that the service decides in the order they are numbered, however many are in
    flight: each request carries the sequence's name and its number in the Neardup-Sequence header
    (``<name>/<number from 0>``), and the service holds a batch until every lower number of the
    sequence was decided or refused. So several threads, or :meth:`insert_all` with ``in_flight``
    > 1, keep batches in flight and still get the answers that sending them one at a time gives.

    A batch the service refuses passes its turn; one retried after a 503 keeps its number, which
    has passed by then, so it is decided at once, after the batches sent meanwhile. A number that
    never reaches the service holds the later ones for the service's request timeout at most.
    :meth:`next_number` is thread-safe; the client whose settings the sequence copies is only used
    to make connections (one per thread).
    """

    def __init__(self, client: Client, name: Optional[str] = None):
        self.client = client
        self.name = name or uuid.uuid4().hex
        self._next = 0
        self._lock = threading.Lock()

    def next_number(self) -> str:
        """The header value of the next batch: ``<name>/<number>``, numbers from 0."""
        with self._lock:
            n = self._next
            self._next += 1
        return "%s/%d" % (self.name, n)

    def batch(self, collection: str, docs: Sequence[DocLike], client: Optional[Client] = None) -> List[Result]:
        """Sends a batch as the next of this sequence, on ``client`` (default: the sequence's
        client; give each thread its own)."""
        return (client or self.client).batch(collection, docs, sequence=self.next_number())

    def insert_all(
        self, collection: str, docs: Iterable[DocLike], batch_size: int = 500, in_flight: int = 2
    ) -> Iterator[Tuple[Doc, Result]]:
        """:meth:`Client.insert_all` with ``in_flight`` batches numbered in this sequence, sent
        by as many threads, each with a connection of its own."""
        if batch_size < 1 or in_flight < 1:
            raise ValueError("batch_size and in_flight must be at least 1")
        c = self.client
        local = threading.local()
        opened: List[Client] = []
        opened_lock = threading.Lock()

        def send(chunk: List[Doc], number: str) -> List[Result]:
            own = getattr(local, "client", None)
            if own is None:
                own = Client(c.url, c._auth[len("Bearer "):] if c._auth else "", c.timeout, c.retries, c.backoff, c.max_backoff)
                local.client = own
                with opened_lock:
                    opened.append(own)
            return own.batch(collection, chunk, sequence=number)

        it = iter(docs)
        pending: List[Tuple[List[Doc], Any]] = []
        with ThreadPoolExecutor(max_workers=in_flight, thread_name_prefix="neardup-batch") as pool:
            try:
                while True:
                    while len(pending) < in_flight:
                        chunk = [_doc(d) for d in itertools.islice(it, batch_size)]
                        if not chunk:
                            break
                        # Numbered here, in the order read, not when a thread picks it up.
                        pending.append((chunk, pool.submit(send, chunk, self.next_number())))
                    if not pending:
                        return
                    chunk, future = pending.pop(0)
                    for d, r in zip(chunk, future.result()):
                        yield d, r
            finally:
                for _, f in pending:
                    f.cancel()
                pool.shutdown(wait=True)
                for o in opened:
                    o.close()


def _doc(d: DocLike) -> Doc:
    if isinstance(d, Doc):
        return d
    if isinstance(d, dict):
        unknown = set(d) - {"id", "text", "fingerprint", "timestamp"}
        if unknown:
            raise ValueError("unknown document field(s) %s (known: fingerprint, id, text, timestamp)" % ", ".join(sorted(unknown)))
        return Doc(d["id"], d.get("text"), d.get("fingerprint"), d.get("timestamp"))
    if isinstance(d, tuple) and len(d) == 2:
        return Doc(d[0], d[1])
    raise TypeError("a document is a Doc, a dict or an (id, text) tuple, not %r" % (type(d).__name__,))


def _timestamp(ts: Timestamp) -> Union[int, str, None]:
    if ts is None or isinstance(ts, (int, str)):
        return ts
    if isinstance(ts, _dt.datetime):
        if ts.tzinfo is None:
            raise ValueError("timestamp %s has no time zone" % ts.isoformat())
        return int(ts.timestamp() * 1000)
    raise TypeError("timestamp must be epoch milliseconds, an ISO-8601 string or a datetime")


def _hex(fp: int) -> str:
    if not 0 <= fp < 1 << 64:
        raise ValueError("a fingerprint is an unsigned 64-bit integer, not %d" % fp)
    return "%016x" % fp


def _quote(s: str) -> str:
    return urllib.parse.quote(s, safe="")


def _seconds(v: Optional[str]) -> Optional[float]:
    try:
        return float(v) if v is not None else None
    except ValueError:
        return None


def _message(data: bytes) -> str:
    try:
        n = json.loads(data)
        if isinstance(n, dict) and "error" in n:
            return str(n["error"])
    except ValueError:
        pass
    return data.decode("utf-8", "replace")
