# SPDX-License-Identifier: Apache-2.0
# Class-data sharing for start-up, shared by the repository's ./neardup and the release's
# bin/neardup (sourced by both). The JVM maps the classes neardup loads from an archive instead of
# reading, parsing and verifying them again on every run (docs/BENCHMARKS.md, fingerprinting as a
# user runs it). An archive belongs to one java binary and one class path, so it is made on the
# machine that runs neardup, by a training run: `fingerprint` of a two-line input (Chinese and
# English), which loads the classes of reading, analysis and output.
#
# neardup_cds_archive JSA STAMP JAVA CLASSPATH_ARGS...
#   Makes JSA by a training run of JAVA CLASSPATH_ARGS (e.g. -jar neardup.jar, or -cp 'lib/*'
#   org.neardup.cli.Main) when JSA is missing or older than the file STAMP. The archive is written
#   to a temporary name and moved into place only after the run ended by itself, as a truncated
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
  printf '%s\n%s\n' \
    '{"id":"zh","text":"北京时间昨天晚上，国家统计局发布了最新的经济数据，显示消费市场持续回暖。"}' \
    '{"id":"en","text":"The quick brown fox jumps over the lazy dog near the river bank today."}' \
    | "$java" -Xss4m -XX:ArchiveClassesAtExit="$tmp" -Xlog:cds=off,cds+dynamic=off "$@" \
      fingerprint - >/dev/null 2>&1 || status=$?
  if [ "$status" -eq 0 ] && [ -s "$tmp" ] && mv -f "$tmp" "$jsa" 2>/dev/null; then
    return 0
  fi
  rm -f "$tmp"
  return 1
}
