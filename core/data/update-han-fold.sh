#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Re-derives core's han-fold.txt (HanFolder's table) from OpenCC's data as Debian packages it
# (libopencc-data, Apache-2.0) and writes OPENCC-NOTICE.txt beside it. Needs the packages opencc
# (for opencc_dict) and libopencc-data installed, and /usr/bin/python3:
#
#   apt-get install -y opencc libopencc-data && core/data/update-han-fold.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../src/main/resources/org/neardup/text"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in TSCharacters STCharacters TWVariants HKVariants; do
  opencc_dict -i "/usr/share/opencc/$t.ocd2" -o "$work/$t.txt" -f ocd2 -t text
done
/usr/bin/python3 "$here/make_han_fold.py" "$work" "$out/han-fold.txt"
version=$(dpkg-query -W -f '${Version}' libopencc-data)
{
  echo "han-fold.txt in this directory is derived from OpenCC's conversion tables"
  echo "(https://github.com/BYVoid/OpenCC), as packaged by Debian in libopencc-data $version,"
  echo "by core/data/update-han-fold.sh: TSCharacters, STCharacters, TWVariants and HKVariants"
  echo "dumped with opencc_dict and composed into one character table by make_han_fold.py."
  echo
  echo "OpenCC's copyright and licence, the package's debian/copyright verbatim:"
  echo
  cat /usr/share/doc/libopencc-data/copyright
} > "$out/OPENCC-NOTICE.txt"
ls -l "$out/han-fold.txt" "$out/OPENCC-NOTICE.txt"
