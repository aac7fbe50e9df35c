// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Batches of a stream are decided in their numbers' order, whatever order they come in. */
class DecisionOrderTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(4);

  @AfterEach
  void stop() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(1, TimeUnit.MINUTES);
  }

  @Test
  public void randomArrivals_runInNumberOrder_andRefusedOnesPassTheirTurn() throws Exception {
    long seed = 1818;
    SplittableRandom r = new SplittableRandom(seed);
    // A long timeout: nothing may be released by it here, every gap is filled.
    try (DecisionOrder order = new DecisionOrder(TimeUnit.MINUTES.toMillis(5), pool)) {
      for (int round = 0; round < 200; round++) {
        int n = 1 + r.nextInt(40);
        String stream = "s" + round;
        List<Integer> arrival = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          arrival.add(i);
        }
        Collections.shuffle(arrival, new java.util.Random(r.nextLong()));
        boolean[] refused = new boolean[n];
        for (int i = 0; i < n; i++) {
          refused[i] = r.nextInt(5) == 0;
        }
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(n);
        // From several threads at once, as workers call it.
        for (int i : arrival) {
          pool.execute(
              () -> {
                DecisionOrder.Ticket t = ticket(order, stream + "/" + i);
                if (refused[i]) {
                  t.pass();
                  done.countDown();
                } else {
                  order.inTurn(
                      t,
                      () -> {
                        ran.add(i);
                        done.countDown();
                      });
                }
                t.pass(); // what the exchange's completion does: nothing once passed
              });
        }
        assertThat(done.await(1, TimeUnit.MINUTES)).as("seed %s round %s", seed, round).isTrue();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          if (!refused[i]) {
            expected.add(i);
          }
        }
        assertThat(ran).as("seed %s round %s arrival %s", seed, round, arrival).isEqualTo(expected);
      }
    }
  }

  @Test
  public void missingNumber_laterOnesRunAfterTheTimeout_andTheLateOneRunsAtOnce() throws Exception {
    try (DecisionOrder order = new DecisionOrder(300, pool)) {
      List<String> ran = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch two = new CountDownLatch(2);
      order.inTurn(ticket(order, "x/2"), () -> two.countDown());
      order.inTurn(
          ticket(order, "x/1"),
          () -> {
            ran.add("1");
            two.countDown();
          });
      // 0 never comes: 1 and 2 go after the timeout, 1 first.
      assertThat(two.await(1, TimeUnit.MINUTES)).isTrue();
      assertThat(ran).containsExactly("1");
      // A late 0 is not held; the stream carries on from 3. The pool thread that ran 2 may still
      // hold the turn when they arrive and run them itself, so wait for both before the order.
      CountDownLatch late = new CountDownLatch(2);
      order.inTurn(
          ticket(order, "x/0"),
          () -> {
            ran.add("0");
            late.countDown();
          });
      order.inTurn(
          ticket(order, "x/3"),
          () -> {
            ran.add("3");
            late.countDown();
          });
      assertThat(late.await(1, TimeUnit.MINUTES)).isTrue();
      assertThat(ran).containsExactly("1", "0", "3");
    }
  }

  @Test
  public void sameNumberTwice_bothRun() throws Exception {
    try (DecisionOrder order = new DecisionOrder(TimeUnit.MINUTES.toMillis(5), pool)) {
      List<String> ran = Collections.synchronizedList(new ArrayList<>());
      order.inTurn(ticket(order, "d/1"), () -> ran.add("a"));
      order.inTurn(ticket(order, "d/1"), () -> ran.add("b")); // parked already: runs at once
      assertThat(ran).containsExactly("b");
      order.inTurn(ticket(order, "d/0"), () -> ran.add("0"));
      assertThat(ran).containsExactly("b", "0", "a");
    }
  }

  @Test
  public void close_runsWhatIsParked() {
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    DecisionOrder order = new DecisionOrder(TimeUnit.MINUTES.toMillis(5), Runnable::run);
    order.inTurn(ticket(order, "c/3"), () -> ran.add("3"));
    order.inTurn(ticket(order, "c/1"), () -> ran.add("1"));
    order.close();
    assertThat(ran).containsExactly("1", "3");
  }

  @Test
  public void header_badValues_areRefusedWithTheRule() throws Exception {
    DecisionOrder order = new DecisionOrder(1000, Runnable::run);
    assertThat(order.ticket(null)).isNull();
    assertThat(order.ticket(" a-b_C9/17 ").toString()).isEqualTo("a-b_C9/17");
    for (String bad : List.of("", "a", "a/", "/1", "a/-1", "a/1/2", "a b/1", "a/x", "é/1")) {
      assertThatThrownBy(() -> order.ticket(bad))
          .as(bad)
          .isInstanceOf(ApiException.class)
          .hasMessageContaining("<stream>/<number>");
    }
    order.close();
  }

  private static DecisionOrder.Ticket ticket(DecisionOrder order, String value) {
    try {
      return order.ticket(value);
    } catch (ApiException e) {
      throw new AssertionError(e);
    }
  }
}
