#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A crawler's item pipeline that drops near-duplicate pages.

Each page the crawler scrapes is checked and stored in one call; a page whose text repeats one seen
before (a repost, a mirror, the same article with another footer) is dropped, and the first page
of its cluster is named. Written for Scrapy's item-pipeline interface (process_item, open_spider,
close_spider; enable it in ITEM_PIPELINES), but it needs nothing beyond the neardup client: without
Scrapy, call process_item yourself, as main() below does.

    NEARDUP_URL=http://127.0.0.1:8080 NEARDUP_TOKEN=... python3 crawler_pipeline.py pages.jsonl

pages.jsonl: one {"url": ..., "text": ...} object per line; prints the kept pages as JSON lines.
"""

import json
import sys

from neardup import Client

try:
    from scrapy.exceptions import DropItem  # type: ignore
except ImportError:  # no Scrapy: the same idea, an exception that drops the item

    class DropItem(Exception):
        pass


class NeardupPipeline:
    """Keeps an item only if no page stored in ``collection`` is a near-duplicate of its text."""

    def __init__(self, collection="pages", url=None, token=None):
        self.collection = collection
        self.client = Client(url=url, token=token)
        self.kept = 0
        self.dropped = 0

    def open_spider(self, spider=None):
        if self.client.collection(self.collection) is None:
            self.client.create_collection(self.collection)

    def close_spider(self, spider=None):
        self.client.close()

    def process_item(self, item, spider=None):
        result = self.client.insert(self.collection, item["url"], item["text"])
        if result.exists:
            self.dropped += 1
            raise DropItem("%s: crawled before" % item["url"])
        if result.is_duplicate:
            self.dropped += 1
            best = result.matches[0] if result.matches else None
            raise DropItem(
                "%s: near-duplicate of %s%s"
                % (item["url"], result.cluster, " (similarity %.2f)" % best.similarity if best and best.similarity is not None else "")
            )
        self.kept += 1
        return item


def main(argv):
    pipeline = NeardupPipeline(collection=argv[2] if len(argv) > 2 else "pages")
    pipeline.open_spider()
    try:
        with open(argv[1], encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                try:
                    item = pipeline.process_item(json.loads(line))
                except DropItem as e:
                    print("dropped", e, file=sys.stderr)
                    continue
                print(json.dumps(item, ensure_ascii=False))
    finally:
        pipeline.close_spider()
    print("kept %d, dropped %d" % (pipeline.kept, pipeline.dropped), file=sys.stderr)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv))
