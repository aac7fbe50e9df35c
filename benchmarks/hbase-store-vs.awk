# SPDX-License-Identifier: Apache-2.0
# hbase-store-vs.sh's summary: per phase of batches, each side's CPU per document (all of the
# JVM; without the JIT's compiler threads; the HDFS threads'), round by round, then the medians of
# the rounds' new / old ratios. Input: the runs' output, each after its "=== round N: old|new" line.
function med(a, n,   i, j, t) {
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
/^=== round [0-9]+: / { round = $3 + 0; side = $4; sub(/:$/, "", round); next }
/batches of [0-9]+: .* ms CPU per document$/ {
  phase = $0
  sub(/, batches of [0-9]+:.*/, "", phase)
  sub(/^warm-up \(not the figure\), /, "warm-up ", phase)
  n = split($0, w, " ")
  cpu = w[n - 4] + 0
  for (i = 1; i < n; i++) if (w[i + 1] == "documents" && w[i + 2] == "in") docs = w[i] + 0
  if (!(phase in seen)) { seen[phase] = 1; order[++phases] = phase }
  want = 1
  next
}
want && /^CPU ms per document by thread kind:/ {
  jit = 0; hdfs = 0
  if (match($0, /jit [0-9.]+/)) jit = substr($0, RSTART + 4, RLENGTH - 4) + 0
  if (match($0, /hdfs [0-9.]+/)) hdfs = substr($0, RSTART + 5, RLENGTH - 5) + 0
  all[phase, side, round] = cpu; nojit[phase, side, round] = cpu - jit; hd[phase, side, round] = hdfs
  # Every phase of batches together, weighted by its documents (a cost moved between phases, such
  # as a cache's warming, counts once).
  all[T, side, round] += cpu * docs; nojit[T, side, round] += (cpu - jit) * docs
  hd[T, side, round] += hdfs * docs; tdocs[side, round] += docs
  if (round > rounds) rounds = round
  want = 0
}
BEGIN { T = "all phases of batches together" }
END {
  order[++phases] = T
  for (k in tdocs) {
    split(k, sr, SUBSEP)
    all[T, sr[1], sr[2]] /= tdocs[k]; nojit[T, sr[1], sr[2]] /= tdocs[k]; hd[T, sr[1], sr[2]] /= tdocs[k]
  }
  print "summary: CPU ms per document, old / new by round (all; without the JIT; HDFS threads), then the medians of new / old"
  for (p = 1; p <= phases; p++) {
    ph = order[p]; line = ph ":"; k = 0
    for (r = 1; r <= rounds; r++) {
      if (!((ph, "old", r) in all) || !((ph, "new", r) in all)) continue
      line = line sprintf(" | round %d %.2f/%.2f; %.2f/%.2f; %.3f/%.3f", r, all[ph, "old", r], all[ph, "new", r], nojit[ph, "old", r], nojit[ph, "new", r], hd[ph, "old", r], hd[ph, "new", r])
      k++; ra[k] = all[ph, "new", r] / all[ph, "old", r]; rn[k] = nojit[ph, "new", r] / nojit[ph, "old", r]
    }
    if (k > 0) line = line sprintf(" | new/old median: all %.3f, without the JIT %.3f", med(ra, k), med(rn, k))
    print line
  }
}
