# SPDX-License-Identifier: Apache-2.0
# Class-data sharing for start-up, shared by the repository's ./neardup and the release's
# bin/neardup (sourced by both). The JVM maps the classes neardup loads from an archive instead of
# reading, parsing and verifying them again on every run (docs/BENCHMARKS.md, fingerprinting as a
# user runs it). An archive belongs to one java binary and one class path, so it is made on the
# machine that runs neardup, from training runs: `fingerprint` of a two-line input (Chinese and
# English), which loads the classes of reading, analysis and output, `fingerprint --help`,
# `help`, and `send` of the same input to a closed port (the client's classes). Each run lists
# the classes it loads (-XX:DumpLoadedClassList); the lists together make a static archive
# (-Xshare:dump), which replaces the JDK's default one: the JDK's classes, ours and the lambda
# forms all of those runs used, where a dynamic archive (-XX:ArchiveClassesAtExit) holds only
# what one run loaded on top of the default archive.
#
# neardup_cds_archive JSA STAMP JAVA CLASSPATH_ARGS...
#   Makes JSA by training runs of JAVA CLASSPATH_ARGS (e.g. -jar neardup.jar, or -cp 'lib/*'
#   org.neardup.cli.Main) when JSA is missing or older than the file STAMP. The archive is written
#   to a temporary name and moved into place only after the dump ended by itself, as a truncated
#   archive would crash the JVM. Returns 0 when JSA is usable.
neardup_cds_archive() {
  local jsa="$1" stamp="$2" java="$3" tmp status=0
  shift 3
  if [ -s "$jsa" ] && [ "$jsa" -nt "$stamp" ]; then
    return 0
  fi
  command -v mkdir >/dev/null && command -v mv >/dev/null && command -v rm >/dev/null || return 1
  mkdir -p "${jsa%/*}" 2>/dev/null || return 1
  tmp="$jsa.$$.tmp"
  # From a file, as users run it: reading a file loads classes (channels, the line reader's file
  # path) that reading stdin does not.
  printf '%s\n%s\n' \
    '{"id":"zh","text":"北京时间昨天晚上，国家统计局发布了最新的经济数据，显示消费市场持续回暖。"}' \
    '{"id":"en","text":"The quick brown fox jumps over the lazy dog near the river bank today."}' \
    >"$tmp.jsonl" 2>/dev/null || status=$?
  if [ "$status" -eq 0 ]; then
    "$java" -Xss4m -Xshare:off -XX:DumpLoadedClassList="$tmp.1" "$@" fingerprint "$tmp.jsonl" \
      >/dev/null 2>&1 || status=$?
  fi
  if [ "$status" -eq 0 ]; then
    "$java" -Xshare:off -XX:DumpLoadedClassList="$tmp.2" "$@" fingerprint --help \
      >/dev/null 2>&1 || status=$?
  fi
  if [ "$status" -eq 0 ]; then
    # `help` renders through picocli (`--help` prints a stored text, HelpTexts).
    "$java" -Xshare:off -XX:DumpLoadedClassList="$tmp.3" "$@" help >/dev/null 2>&1 || status=$?
  fi
  if [ "$status" -eq 0 ]; then
    # `send` to a port where nothing listens on the loopback: it reads the input, builds a
    # request and fails to connect (exit 1), loading the client's classes: with them, a short send
    # took 0.23-0.24 CPU s instead of 0.38-0.43 (docs/BENCHMARKS.md, the twelfth session).
    "$java" -Xss4m -Xshare:off -XX:DumpLoadedClassList="$tmp.4" "$@" send "$tmp.jsonl" \
      --url http://127.0.0.1:1 >/dev/null 2>&1 || true
    [ -s "$tmp.4" ] || status=1
  fi
  # One line per class: the JDK 17 dump crashed on a list with a lambda-proxy line twice.
  if [ "$status" -eq 0 ]; then
    local -A seen=()
    local f line
    for f in "$tmp.1" "$tmp.2" "$tmp.3" "$tmp.4"; do
      while IFS= read -r line; do
        if [ -n "$line" ] && [ -z "${seen[$line]+x}" ]; then
          seen[$line]=1
          printf '%s\n' "$line"
        fi
      done <"$f"
    done >"$tmp.list" 2>/dev/null || status=$?
  fi
  if [ "$status" -eq 0 ]; then
    "$java" -Xshare:dump -XX:SharedClassListFile="$tmp.list" -XX:SharedArchiveFile="$tmp" \
      -Xlog:cds=off -Xlog:cds+dynamic=off "$@" >/dev/null 2>&1 || status=$?
  fi
  rm -f "$tmp.1" "$tmp.2" "$tmp.3" "$tmp.4" "$tmp.list" "$tmp.jsonl"
  if [ "$status" -eq 0 ] && [ -s "$tmp" ] && mv -f "$tmp" "$jsa" 2>/dev/null; then
    return 0
  fi
  rm -f "$tmp"
  return 1
}
