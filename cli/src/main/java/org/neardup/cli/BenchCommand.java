// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code neardup bench}: measurements that print one JSON line each. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Measure the index and the all-pairs phase on generated fingerprints; one JSON line each.",
    subcommands = {BenchIndexCommand.class, BenchAllPairsCommand.class, GenerateCommand.class})
final class BenchCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
