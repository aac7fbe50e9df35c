# SPDX-License-Identifier: Apache-2.0
"""Client of the neardup near-duplicate detection service (standard library only).

    from neardup import Client
    with Client() as nd:                      # NEARDUP_URL, NEARDUP_TOKEN from the environment
        r = nd.insert("default", url, text)
        if r.is_duplicate:
            print(url, "repeats", r.cluster)
"""

from .client import (
    BatchSequence,
    Client,
    CollectionInfo,
    Doc,
    Fingerprint,
    Match,
    NeardupError,
    Result,
    StoredDoc,
)

__version__ = "0.1.0"

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
