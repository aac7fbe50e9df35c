# SPDX-License-Identifier: Apache-2.0
# What the HBase side-by-side scripts share (sourced, not run).
# old_tree COMMIT FILE...: exports COMMIT's tree to a new temporary directory, removed on exit,
# copies in this tree's FILEs (paths relative to the root: the benchmark's test classes and
# script), and makes it a repository of one commit, since the benchmark scripts print the commit
# of the tree they run in. Sets $old to the directory.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old_tree() {
  local commit="$1" f
  shift
  old="$(mktemp -d /tmp/neardup-hbase-old.XXXXXX)"
  trap 'rm -rf "$old"' EXIT
  git -C "$root" archive "$commit" | tar -x -C "$old"
  for f in "$@"; do
    cp "$root/$f" "$old/$f"
  done
  git -C "$old" init -q
  git -C "$old" add -A
  git -C "$old" -c user.name=bench -c user.email=bench@localhost commit -q -m "$commit + bench"
}
