// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * One answered single check-and-insert, stage by stage, in a flight recording: the histograms of
 * {@link Metrics#SINGLE_STAGES} say how slow the slowest 1% are, this says which requests they were
 * and when, so that each can be set beside the same recording's GC pauses, safepoints, file forces
 * and thread parks. Off unless a recording enables {@code org.neardup.SingleCheck} (e.g. {@code
 * -XX:StartFlightRecording=settings=FILE.jfc} with the event enabled in FILE): then one small event
 * per single, committed on the thread that sent the answer; its end time is the answer's, its start
 * that minus {@link #total}.
 */
@Name("org.neardup.SingleCheck")
@Label("Single check-and-insert")
@Category("neardup")
@Description("A single check-and-insert's stages: read, analyse, decide, durable, answer")
@Enabled(false)
@StackTrace(false)
@SuppressForbidden(
    reason = "jdk.jfr is the JDK's supported event API; the check flags it as non-portable")
final class SingleCheckEvent extends Event {
  @Label("Read")
  @Description("the body's arrival and the wait for a worker thread")
  @Timespan
  long read;

  @Label("Analyse")
  @Timespan
  long analyse;

  @Label("Decide")
  @Description("the probe, the candidates' verification, the insert and the log append")
  @Timespan
  long decide;

  @Label("Durable")
  @Description("the wait for the log's write and fsync")
  @Timespan
  long durable;

  @Label("Answer")
  @Description("the hand-over to the I/O thread and the send")
  @Timespan
  long answer;

  @Label("Total")
  @Timespan
  long total;

  /**
   * Commits one event for the stage ends {@code at} (as {@link Metrics#singleStages}) if a
   * recording enabled it; costs one allocation and a check otherwise.
   */
  static void record(long[] at) {
    SingleCheckEvent e = new SingleCheckEvent();
    if (!e.isEnabled()) {
      return;
    }
    e.read = at[1] - at[0];
    e.analyse = at[2] - at[1];
    e.decide = at[3] - at[2];
    e.durable = at[4] - at[3];
    e.answer = at[5] - at[4];
    e.total = at[5] - at[0];
    e.commit();
  }
}
