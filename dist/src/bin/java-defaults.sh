# SPDX-License-Identifier: Apache-2.0
# The JVM flags neardup runs with, shared by the repository's ./neardup and the release's
# bin/neardup (sourced by both). neardup_java_defaults COMMAND prints the flags for COMMAND (the
# first argument of neardup); the caller puts NEARDUP_JAVA_OPTS after them, so its flags win (java
# keeps the last of each).
neardup_java_defaults() {
  local command="${1:-}" user_opts="${NEARDUP_JAVA_OPTS:-}" defaults="-Xss4m" max opt
  # The service keeps GC pauses below a millisecond with ZGC (G1 paused 10-90 ms under load),
  # unless NEARDUP_JAVA_OPTS picks another collector (two collectors are an error).
  local collector='-XX:\+Use(Serial|Parallel|G1|Z|Shenandoah|Epsilon)GC( |$)'
  if [ "$command" = "serve" ] && [[ ! "$user_opts" =~ $collector ]]; then
    defaults="$defaults -XX:+UseZGC"
  fi
  # The service commits its whole heap at start (the initial size is the maximum), unless
  # NEARDUP_JAVA_OPTS sets an initial size: a heap that grows under load costs the kernel a page
  # fault per 4 KB touched for the first time, which measured as 15-25% more CPU per request in a
  # 30 s batch load (docs/BENCHMARKS.md), and startup takes about 0.4 s more per GB.
  if [ "$command" = "serve" ] && [[ ! "$user_opts" =~ -Xms|InitialRAMPercentage|InitialHeapSize ]]; then
    max=""
    for opt in $user_opts; do
      case "$opt" in -Xmx*) max="${opt#-Xmx}" ;; esac
    done
    if [ -n "$max" ]; then
      defaults="$defaults -Xms$max"
    elif [[ ! "$user_opts" =~ MaxRAMPercentage|MaxHeapSize|MaxRAM= ]]; then
      defaults="$defaults -XX:InitialRAMPercentage=25" # the default maximum is 25% of RAM
    fi
  fi
  # The service asks for transparent huge pages, unless NEARDUP_JAVA_OPTS says anything about
  # large pages: index searches are random reads into gigabytes, and with 2 MB pages batches ran
  # 10-17% faster with half the p99 (docs/BENCHMARKS.md). The kernel must allow them: ZGC's heap is
  # shared memory, so /sys/kernel/mm/transparent_hugepage/shmem_enabled must be advise (Debian:
  # never; serve prints a warning with the fix when it is not), other collectors' heap is
  # anonymous memory (.../enabled). Only then is the flag given: with it ZGC commits its heap
  # through its path for huge pages, which on a kernel that grants none bought nothing and made
  # the JVM's start with -Xms4g take 3.1-5.4 CPU s instead of 0.7-1.0 (4.3-58 s wall instead of
  # 1.1-14 at load 12-25; docs/BENCHMARKS.md, the fifteenth session), before the store's open.
  if [ "$command" = "serve" ] && [[ ! "$user_opts" =~ LargePages|TransparentHugePages ]]; then
    local thp=/sys/kernel/mm/transparent_hugepage/enabled setting
    [[ ! "$defaults $user_opts" =~ -XX:\+UseZGC( |$) ]] || thp=/sys/kernel/mm/transparent_hugepage/shmem_enabled
    setting=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$thp" 2>/dev/null || true)
    if [ -n "$setting" ] && [ "$setting" != never ] && [ "$setting" != deny ]; then
      defaults="$defaults -XX:+UseTransparentHugePages"
    fi
  fi
  # serve's JIT compilers took as much CPU as its workers for a fresh server's first ~20,000 short
  # texts: C2 later and smaller, as fingerprint's below (InlineSmallCode 1000, on-stack replacement
  # after 1,000,000 back-edges), and a method compiled by C2 only after 10x the calls and loops
  # (Tier4InvocationThreshold 5000 -> 50000, Tier4CompileThreshold 15000 -> 150000), unless
  # NEARDUP_JAVA_OPTS sets any of them or a compiler level. The server's CPU per verified document
  # for its first, second and third 20,000 short texts was 0.60x, 0.75x and 0.93x the JDK's
  # defaults' (medians of 2 rounds; the workers' own 1.07x by the third), for 5,000 news texts each
  # 0.73x, 0.67x and 0.72x (workers no slower): benchmarks/serve-jit-ab.sh, docs/BENCHMARKS.md, the
  # thirteenth session. C1 alone (TieredStopAtLevel=1) made the cheapest fresh server, but its
  # workers stayed slower (news texts ~1.25x, short 1.1x), which a server running for days pays for
  # good.
  if [ "$command" = "serve" ] && [[ ! "$user_opts" =~ InlineSmallCode|Tier4BackEdgeThreshold|Tier4InvocationThreshold|Tier4CompileThreshold|TieredStopAtLevel|TieredCompilation ]]; then
    defaults="$defaults -XX:InlineSmallCode=1000 -XX:Tier4BackEdgeThreshold=1000000"
    defaults="$defaults -XX:Tier4InvocationThreshold=50000 -XX:Tier4CompileThreshold=150000"
  fi
  # send is a short client that parses and writes JSON while the service does the work, often on
  # the same cores: C1 only and the serial collector, unless NEARDUP_JAVA_OPTS picks a collector or
  # a compiler level. C2's compilations were about half of send's CPU: 20,000 short texts took
  # 1.5 s of CPU instead of 3.1, and 60,000 took 2.7 instead of 4.1 (docs/BENCHMARKS.md).
  if [ "$command" = "send" ] && [[ ! "$user_opts" =~ $collector|TieredStopAtLevel|TieredCompilation ]]; then
    defaults="$defaults -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
  fi
  # fingerprint runs C2 on the same core as the work when a user gives it one (taskset -c 0): less
  # inlining of already-compiled methods (InlineSmallCode 2500 -> 1000 bytes), and C2 compiles a
  # running loop on stack replacement only after 1,000,000 back-edges instead of 40,000 (C1's at
  # 60,000 is unchanged), unless NEARDUP_JAVA_OPTS sets either or a compiler level. C2's CPU in a 35 MB zh run
  # halved (1.25-1.69 -> 0.75-0.80 s) and the whole process took 0.81-0.85x the CPU at 35 and
  # 105 MB, the analysis threads no slower (docs/BENCHMARKS.md, the eleventh session).
  # dedup gets the same two compiler flags, on the same condition: its two cores run C2 beside
  # the analysis and the pairs, and C2 took 7.8-12.3 of 60-68 CPU s in two 1M realistic runs of
  # 037a29b with the defaults, against 3.4-3.6 with these flags; the whole process took 0.81x the
  # CPU, its workers and band threads none more (docs/BENCHMARKS.md, the thirteenth session).
  if [[ "$command" =~ ^(fingerprint|dedup)$ ]] && [[ ! "$user_opts" =~ InlineSmallCode|Tier4BackEdgeThreshold|TieredStopAtLevel|TieredCompilation ]]; then
    defaults="$defaults -XX:InlineSmallCode=1000 -XX:Tier4BackEdgeThreshold=1000000"
  fi
  echo "$defaults"
}
