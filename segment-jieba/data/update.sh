#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Re-derives the jieba data resources of neardup-segment-jieba from the Debian package
# python3-jieba 0.42.1 (MIT/Expat). Needs apt-get (no root: `apt-get download` only fetches the
# .deb), dpkg-deb and /usr/bin/python3. Run from anywhere:
#
#   segment-jieba/data/update.sh
#
# Output (byte-for-byte reproducible): src/main/resources/org/neardup/segment/jieba/
#   {dict.txt.gz, idf.txt.gz, hmm.txt.gz, NOTICE.txt}. See convert.py for the formats.
set -eu

VERSION=0.42.1
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../src/main/resources/org/neardup/segment/jieba"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$work"
apt-get download "python3-jieba" >/dev/null
deb=$(ls python3-jieba_*.deb)
case "$deb" in
  python3-jieba_${VERSION}-*_all.deb) ;;
  *) echo "update.sh: expected python3-jieba ${VERSION}, apt gave $deb" >&2; exit 1 ;;
esac
dpkg-deb -x "$deb" pkg
jieba="$work/pkg/usr/lib/python3/dist-packages/jieba"

mkdir -p "$out"
/usr/bin/python3 "$here/convert.py" "$jieba" "$out"

{
  echo "The files dict.txt.gz, idf.txt.gz and hmm.txt.gz in this directory are derived from jieba"
  echo "${VERSION} (https://github.com/fxsjy/jieba), as packaged by Debian in $deb"
  echo "(sha256 $(sha256sum "$deb" | cut -d' ' -f1)), by segment-jieba/data/update.sh:"
  echo "dict.txt without its part-of-speech column, analyse/idf.txt unchanged, and the"
  echo "finalseg HMM tables (prob_start.py, prob_trans.py, prob_emit.py) as text."
  echo
  echo "jieba's copyright and licence, the package's debian/copyright verbatim:"
  echo
  cat pkg/usr/share/doc/python3-jieba/copyright
} > "$out/NOTICE.txt"

ls -l "$out"
