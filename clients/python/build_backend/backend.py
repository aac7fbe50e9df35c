# SPDX-License-Identifier: Apache-2.0
"""A PEP 517 build backend for this pure-Python package, with the standard library only.

It builds the one wheel the package needs (py3-none-any: src/neardup/*.py plus the dist-info
files of the wheel format, PEP 427 and 491) so that pip installs it without a package index and
without setuptools or wheel. The package's metadata is below; its version is __version__ in
src/neardup/__init__.py.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

NAME = "neardup"
SUMMARY = "Client of the neardup near-duplicate detection service (standard library only)"
HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(HOME, "src", NAME)


def _version():
    with open(os.path.join(PACKAGE, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__ = "([^"]+)"', f.read(), re.M)
    if not m:
        raise RuntimeError("no __version__ in src/neardup/__init__.py")
    return m.group(1)


def _metadata(version):
    with open(os.path.join(HOME, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return (
        "Metadata-Version: 2.1\n"
        "Name: %s\n"
        "Version: %s\n"
        "Summary: %s\n"
        "Home-page: https://github.com/neardup/neardup\n"
        "Author: The neardup authors\n"
        "License: Apache-2.0\n"
        "Classifier: License :: OSI Approved :: Apache Software License\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Requires-Python: >=3.8\n"
        "Description-Content-Type: text/markdown\n"
        "\n%s" % (NAME, version, SUMMARY, readme)
    )


def _sources():
    for name in sorted(os.listdir(PACKAGE)):
        if name.endswith(".py"):
            yield os.path.join(PACKAGE, name), NAME + "/" + name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    info = "%s-%s.dist-info" % (NAME, version)
    wheel_name = "%s-%s-py3-none-any.whl" % (NAME, version)
    files = []
    for path, arcname in _sources():
        with open(path, "rb") as f:
            files.append((arcname, f.read()))
    with open(os.path.join(HOME, "LICENSE"), "rb") as f:
        files.append((info + "/LICENSE", f.read()))
    files.append((info + "/METADATA", _metadata(version).encode("utf-8")))
    files.append(
        (
            info + "/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: neardup build_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
    )
    files.append((info + "/top_level.txt", (NAME + "\n").encode("utf-8")))
    record = io.StringIO()
    for arcname, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        record.write("%s,sha256=%s,%d\n" % (arcname, digest, len(data)))
    record.write("%s/RECORD,,\n" % info)
    files.append((info + "/RECORD", record.getvalue().encode("utf-8")))
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in files:
            z.writestr(zipfile.ZipInfo(arcname, date_time=(2026, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    version = _version()
    base = "%s-%s" % (NAME, version)
    name = base + ".tar.gz"

    def keep(info):
        parts = info.name.split("/")
        if "__pycache__" in parts or any(p.endswith(".egg-info") for p in parts):
            return None
        return info

    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for entry in ("pyproject.toml", "README.md", "LICENSE", "build_backend", "src", "tests", "examples"):
            t.add(os.path.join(HOME, entry), arcname=base + "/" + entry, filter=keep)
        pkg_info = _metadata(version).encode("utf-8")
        ti = tarfile.TarInfo(base + "/PKG-INFO")
        ti.size = len(pkg_info)
        t.addfile(ti, io.BytesIO(pkg_info))
    return name
