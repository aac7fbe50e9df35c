// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the real command line in-process and captures what it prints. */
final class CliRunner {
  final int exitCode;
  final String out;
  final String err;

  CliRunner(int exitCode, String out, String err) {
    this.exitCode = exitCode;
    this.out = out;
    this.err = err;
  }

  static CliRunner run(String... args) {
    // As Main.run builds it: only the subcommand named first.
    CommandLine cmd = Main.commandLine(args.length > 0 ? args[0] : "");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute(args);
    return new CliRunner(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
  }
}
