# SPDX-License-Identifier: Apache-2.0
"""Tests of the Python client against a real neardup serve.

They need a running service: NEARDUP_URL (and NEARDUP_TOKEN if it has one), started with
--max-queued-bytes 65536 --max-in-flight 2 so that the 503 paths can be reached (dist's
PythonClientIT starts one from the release and runs this suite). Without NEARDUP_URL they are
skipped.
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.request
import uuid

from neardup import Client, CollectionInfo, Doc, Fingerprint, Match, NeardupError, Result, StoredDoc

URL = os.environ.get("NEARDUP_URL")
HERE = os.path.dirname(os.path.abspath(__file__))

BASE = (
    "The city council approved the new budget on Tuesday after a long debate about schools, roads "
    "and the public library, and the mayor said the vote showed the town could still agree on things."
)
REPOST = BASE + " (Reposted from the Evening Chronicle)"
OTHER = (
    "A small bakery on the corner of Elm Street sells rye bread every morning and croissants until "
    "they run out, and the queue on Saturdays reaches the post office."
)
CHINESE = "今天上午，市政府召开新闻发布会，介绍了今年城市公共交通建设的最新进展，地铁三号线预计明年年底通车。"


SYLLABLES = ["ka", "ro", "mi", "ten", "sa", "lo", "ve", "dar", "pi", "nu", "tor", "ba", "li", "con", "fer", "gi"]


def sentence(i):
    """A distinct 40-word text for document i: texts of different i share few words."""
    rnd = random.Random(i)
    words = ["".join(rnd.choice(SYLLABLES) for _ in range(3)) for _ in range(40)]
    return " ".join(words).capitalize() + "."


@unittest.skipUnless(URL, "NEARDUP_URL is not set: no service to test against")
class ClientTest(unittest.TestCase):
    def setUp(self):
        self.client = Client()
        self.name = "py-" + uuid.uuid4().hex[:12]
        self.client.create_collection(self.name)

    def tearDown(self):
        self.client.drop_collection(self.name)
        self.client.close()

    def metric(self, name):
        """A counter's value from /metrics (summed over its labels)."""
        req = urllib.request.Request(URL.rstrip("/") + "/metrics")
        token = os.environ.get("NEARDUP_TOKEN")
        if token:
            req.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode("utf-8")
        total = 0.0
        for line in text.splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{"):
                total += float(line.rsplit(" ", 1)[1])
        return total

    def test_insert_newThenRepost_repostNamesTheFirstAsCluster(self):
        first = self.client.insert(self.name, "https://example.com/a", BASE)
        self.assertIsInstance(first, Result)
        self.assertEqual(first.status, "stored")
        self.assertTrue(first.stored and first.is_new and not first.is_duplicate)
        self.assertEqual(first.cluster, "https://example.com/a")
        self.assertEqual(first.matches, [])
        self.assertRegex(first.fingerprint_hex, r"^[0-9a-f]{16}$")

        repost = self.client.insert(self.name, "https://mirror.example.org/a", REPOST)
        self.assertTrue(repost.stored)
        self.assertTrue(repost.is_duplicate)
        self.assertEqual(repost.cluster, "https://example.com/a")
        self.assertIsInstance(repost.matches[0], Match)
        self.assertEqual(repost.matches[0].id, "https://example.com/a")
        self.assertGreaterEqual(repost.matches[0].similarity, 0.8)

        other = self.client.insert(self.name, "https://example.com/bakery", OTHER)
        self.assertTrue(other.is_new)

    def test_insert_chineseText_roundTripsUtf8(self):
        r = self.client.insert(self.name, "新闻/1", CHINESE)
        self.assertTrue(r.is_new)
        again = self.client.insert(self.name, "新闻/2", CHINESE + "转载请注明出处")
        self.assertEqual(again.cluster, "新闻/1")
        self.assertEqual(self.client.get(self.name, "新闻/2").cluster, "新闻/1")

    def test_insert_storedId_answersExistsWithoutChangingIt(self):
        self.client.insert(self.name, "u1", BASE)
        r = self.client.insert(self.name, "u1", OTHER)
        self.assertEqual(r.status, "exists")
        self.assertTrue(r.exists)
        self.assertIsNotNone(r.error)
        self.assertEqual(self.client.collection(self.name).documents, 1)

    def test_check_storesNothing(self):
        self.client.insert(self.name, "u1", BASE)
        r = self.client.check(self.name, REPOST)
        self.assertEqual(r.status, "checked")
        self.assertIsNone(r.id)
        self.assertEqual(r.cluster, "u1")
        self.assertTrue(r.is_duplicate)
        self.assertTrue(self.client.check(self.name, OTHER).is_new)
        self.assertEqual(self.client.collection(self.name).documents, 1)

    def test_fingerprint_equalsTheInsertedOne(self):
        fp = self.client.fingerprint(self.name, BASE)
        self.assertIsInstance(fp, Fingerprint)
        self.assertGreater(fp.letters, 100)
        self.assertEqual(fp.analyzer, self.client.collection(self.name).analyzer)
        self.assertEqual(self.client.insert(self.name, "u1", BASE).fingerprint, fp.fingerprint)

    def test_getAndDelete_storedThenForgotten(self):
        self.client.insert(self.name, "https://example.com/a?x=1&y=2 #frag", BASE, timestamp=1748770200000)
        doc = self.client.get(self.name, "https://example.com/a?x=1&y=2 #frag")
        self.assertIsInstance(doc, StoredDoc)
        self.assertEqual(doc.id, "https://example.com/a?x=1&y=2 #frag")
        self.assertEqual(doc.timestamp, 1748770200000)
        self.assertIsNone(doc.expires_at)
        self.assertEqual(doc.cluster, doc.id)
        self.assertIsNone(self.client.get(self.name, "missing"))
        self.assertTrue(self.client.delete(self.name, doc.id))
        self.assertFalse(self.client.delete(self.name, doc.id))
        self.assertIsNone(self.client.get(self.name, doc.id))
        self.assertTrue(self.client.insert(self.name, "again", REPOST).is_new)

    def test_collections_createListGetDrop(self):
        name = "py-" + uuid.uuid4().hex[:12]
        info = self.client.create_collection(name, k=4, threshold=0.7, retention="48h", lexicon="none")
        self.assertIsInstance(info, CollectionInfo)
        self.assertEqual(info.name, name)
        self.assertEqual(info.settings["k"], 4)
        self.assertEqual(info.settings["threshold"], 0.7)
        self.assertEqual(info.documents, 0)
        self.assertIn(name, [c.name for c in self.client.collections()])
        with self.assertRaises(NeardupError) as e:
            self.client.create_collection(name)
        self.assertEqual(e.exception.status, 409)
        self.client.insert(name, "u1", BASE)
        self.assertIsNotNone(self.client.get(name, "u1").expires_at)
        self.assertEqual(self.client.collection(name).documents, 1)
        self.assertTrue(self.client.drop_collection(name))
        self.assertFalse(self.client.drop_collection(name))
        self.assertIsNone(self.client.collection(name))

    def test_batch_sameAnswersAsOneByOne(self):
        docs = [("a", BASE), Doc("b", OTHER), {"id": "c", "text": REPOST}, ("a", OTHER)]
        rs = self.client.batch(self.name, docs)
        self.assertEqual([r.id for r in rs], ["a", "b", "c", "a"])
        self.assertEqual([r.status for r in rs], ["stored", "stored", "stored", "exists"])
        self.assertEqual(rs[2].cluster, "a")
        self.assertEqual(self.client.batch(self.name, []), [])

    def test_insertAll_readsTheIterableOneBatchAhead(self):
        pulled = []

        def docs():
            for i in range(1000):
                pulled.append(i)
                # every tenth document repeats the one before it, with a footer
                text = sentence(i - 1) + " Read more at example.org" if i % 10 == 9 else sentence(i)
                yield Doc("d%d" % i, text)

        results = self.client.insert_all(self.name, docs(), batch_size=100)
        first_doc, first = next(results)
        self.assertEqual(first_doc.id, "d0")
        self.assertEqual(len(pulled), 100, "back-pressure: one batch read, not the whole iterable")
        rest = list(results)
        self.assertEqual(len(pulled), 1000)
        pairs = [(first_doc, first)] + rest
        self.assertEqual([d.id for d, _ in pairs], ["d%d" % i for i in range(1000)])
        self.assertEqual([r.id for _, r in pairs], ["d%d" % i for i in range(1000)])
        dups = [d.id for d, r in pairs if r.is_duplicate]
        self.assertEqual(dups, ["d%d" % i for i in range(9, 1000, 10)])
        self.assertEqual(pairs[9][1].cluster, "d8")
        self.assertEqual(self.client.collection(self.name).documents, 1000)

    def test_insertAll_batchesInFlight_sameAnswersAsOneAtATime(self):
        # Batch b holds copies of groups b and b + 1, so each group's first copy is in the batch
        # before its others: were a batch decided before the one numbered before it, a later copy
        # would come out new. 2 in flight, the test service's --max-in-flight (a batch refused
        # with 503 passes its turn, and its retry is decided after the ones sent meanwhile).
        docs = [Doc("b%d-%d" % (b, i), sentence(7000 + b + i % 2)) for b in range(30) for i in range(6)]
        first = {}
        expected = []
        for d in docs:
            first.setdefault(d.text, d.id)
            expected.append((d.id, first[d.text] == d.id, first[d.text]))

        pairs = list(self.client.insert_all(self.name, iter(docs), batch_size=6, in_flight=2))
        self.assertEqual([d.id for d, _ in pairs], [d.id for d in docs])
        self.assertEqual([(r.id, r.is_new, r.cluster) for _, r in pairs], expected)
        self.assertEqual(self.client.collection(self.name).documents, len(docs))

    def test_sequence_laterNumberSentFirst_waitsAndItsCopyIsTheDuplicate(self):
        seq = self.client.sequence()
        first, second = seq.next_number(), seq.next_number()
        answers = {}

        def later():
            with Client() as c:
                answers["b"] = c.batch(self.name, [("b", BASE)], sequence=second)

        t = threading.Thread(target=later)
        t.start()
        t.join(1.0)
        # Without the order "b" would be decided, and new, by now.
        self.assertTrue(t.is_alive(), "the batch numbered 1 must wait for number 0")
        a = self.client.batch(self.name, [("a", REPOST)], sequence=first)
        t.join(60)
        self.assertFalse(t.is_alive())
        self.assertTrue(a[0].is_new)
        self.assertTrue(answers["b"][0].is_duplicate)
        self.assertEqual(answers["b"][0].cluster, "a")
        with self.assertRaises(NeardupError) as e:
            self.client.batch(self.name, [("c", OTHER)], sequence="no number")
        self.assertEqual(e.exception.status, 400)
        self.assertIn("<stream>/<number>", e.exception.message)

    def test_errors_badInputNamesTheField(self):
        with self.assertRaises(NeardupError) as e:
            self.client.insert(self.name, "u1", "!!! ???")
        self.assertEqual(e.exception.status, 400)
        self.assertIn("text", e.exception.message)
        self.assertFalse(e.exception.retryable)
        with self.assertRaises(NeardupError) as e:
            self.client.batch(self.name, [("u1", BASE), ("u2", "")])
        self.assertEqual(e.exception.status, 400)
        self.assertIsNone(self.client.get(self.name, "u1"), "nothing stored from a failed batch")
        with self.assertRaises(NeardupError) as e:
            self.client.insert("no-such-collection-" + self.name, "u1", BASE)
        self.assertEqual(e.exception.status, 404)
        self.assertIn("no collection named", e.exception.message)
        with self.assertRaises(ValueError):
            self.client.batch(self.name, [{"id": "u1", "txt": BASE}])
        with self.assertRaises(ValueError):
            Client(url="ftp://example.com")

    def test_token_wrongTokenIsRefused(self):
        if not os.environ.get("NEARDUP_TOKEN"):
            self.skipTest("the service has no token")
        with Client(token="wrong-" + uuid.uuid4().hex) as bad:
            with self.assertRaises(NeardupError) as e:
                bad.collections()
        self.assertEqual(e.exception.status, 401)

    def test_retry_bodyOverQueuedBytes_retriedThenRaises503(self):
        # The service was started with --max-queued-bytes 65536: this body is refused every time.
        big = " ".join(sentence(i) for i in range(1500))
        self.assertGreater(len(big.encode("utf-8")), 65536)
        before = self.metric("neardup_queue_rejected_total")
        with Client(retries=2, backoff=0.01) as c:
            with self.assertRaises(NeardupError) as e:
                c.insert(self.name, "big", big)
        self.assertEqual(e.exception.status, 503)
        self.assertTrue(e.exception.retryable)
        self.assertEqual(e.exception.retry_after, 1.0)
        self.assertEqual(self.metric("neardup_queue_rejected_total") - before, 3, "one try and two retries")

    def test_retry_concurrentClientsBeyondMaxInFlight_allSucceed(self):
        # The service admits 2 requests at once (--max-in-flight 2); 6 threads insert 40 documents
        # each, one per request: those refused with 503 are retried until they get in.
        errors = []
        results = {}

        def work(t):
            try:
                with Client(retries=60, backoff=0.05) as c:
                    for i in range(40):
                        results["t%d-%d" % (t, i)] = c.insert(self.name, "t%d-%d" % (t, i), sentence(1000 * t + i))
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(t,)) for t in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        self.assertEqual(errors, [])
        self.assertEqual(len(results), 240)
        self.assertTrue(all(r.stored and r.is_new for r in results.values()))
        self.assertEqual(self.client.collection(self.name).documents, 240)


@unittest.skipUnless(URL, "NEARDUP_URL is not set: no service to test against")
class CrawlerPipelineTest(unittest.TestCase):
    def test_pipeline_dropsNearDuplicatePages(self):
        collection = "crawl-" + uuid.uuid4().hex[:12]
        pages = [
            {"url": "https://news.example.com/budget", "text": BASE},
            {"url": "https://bakery.example.com/", "text": OTHER},
            {"url": "https://mirror.example.org/budget", "text": REPOST},
            {"url": "https://news.example.com/budget", "text": BASE},
            {"url": "https://news.example.cn/transit", "text": CHINESE},
        ]
        path = os.path.join(HERE, "..", "examples", "crawler_pipeline.py")
        try:
            with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
                for p in pages:
                    f.write(json.dumps(p, ensure_ascii=False) + "\n")
            out = subprocess.run(
                [sys.executable, path, f.name, collection],
                capture_output=True,
                text=True,
                timeout=120,
                env=dict(os.environ, PYTHONIOENCODING="utf-8"),
            )
            os.unlink(f.name)
            self.assertEqual(out.returncode, 0, out.stderr)
            kept = [json.loads(line)["url"] for line in out.stdout.splitlines()]
            self.assertEqual(
                kept, ["https://news.example.com/budget", "https://bakery.example.com/", "https://news.example.cn/transit"]
            )
            self.assertIn("https://mirror.example.org/budget: near-duplicate of https://news.example.com/budget", out.stderr)
            self.assertIn("https://news.example.com/budget: crawled before", out.stderr)
            self.assertIn("kept 3, dropped 2", out.stderr)
        finally:
            with Client() as c:
                c.drop_collection(collection)


if __name__ == "__main__":
    unittest.main()
