// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.neardup.fingerprint.Fingerprinter;
import org.neardup.fingerprint.Simhash;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code neardup fingerprint INPUT...}: one {@code {"id", "simhash"}} line per document. */
@Command(
    name = "fingerprint",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Print the 64-bit simhash of every document as {\"id\":..., \"simhash\":\"<16 hex digits>\"}, in input order.",
      "Records that cannot be used are skipped: counted and shown on stderr, all listed with --errors FILE;",
      "the exit code is 0, or 1 with --fail-on-error when any was skipped."
    })
final class FingerprintCommand implements Callable<Integer> {
  @Mixin InputOptions input = new InputOptions();

  @Mixin EngineOptions engine = new EngineOptions();

  @Spec CommandSpec spec;

  private static final String NEWLINE = System.lineSeparator();

  static boolean hasLetters(String text) {
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      if (Character.isLetterOrDigit(cp)) {
        return true;
      }
      i += Character.charCount(cp);
    }
    return false;
  }

  @Override
  public Integer call() throws Exception {
    return run(spec.commandLine().getOut(), spec.commandLine().getErr());
  }

  /**
   * {@code neardup fingerprint INPUT...} without options, run without picocli: the exit code, or
   * null if {@code args} is anything else (an option, an {@code @file}, an empty argument), which
   * picocli then parses. Building picocli's model of the command (its annotations read through
   * generated proxies, its converters) was about a fifth of the first fingerprint's CPU
   * (docs/BENCHMARKS.md, the fifteenth session). The result and the errors are picocli's: every
   * argument an input path, the options' defaults, a failure printed as {@link Main}'s handler
   * prints it, with exit code 1.
   */
  static @org.jspecify.annotations.Nullable Integer runPlain(
      String[] args, PrintWriter out, PrintWriter err) {
    if (args.length < 2 || !"fingerprint".equals(args[0])) {
      return null;
    }
    FingerprintCommand command = new FingerprintCommand();
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.isEmpty() || a.charAt(0) == '-' || a.charAt(0) == '@') {
        return null;
      }
      try {
        command.input.inputs.add(java.nio.file.Path.of(a));
      } catch (java.nio.file.InvalidPathException e) {
        return null; // picocli's usage error
      }
    }
    try {
      return command.run(out, err);
    } catch (Exception e) {
      Main.reportFailure("neardup fingerprint", e, err);
      return 1;
    }
  }

  private Integer run(PrintWriter out, PrintWriter err) throws Exception {
    DocumentSource source = input.open();
    Fingerprinter fp = Fingerprinter.create(engine.fingerprintSettings());
    Rejects rejects = input.rejects("fingerprint");
    Parallel.run(
        source,
        d -> {
          if (!d.ok()) {
            return new String[] {d.idJson(), null, d.error(), d.location()};
          }
          if (!hasLetters(d.text())) {
            return new String[] {d.idJson(), null, "text has no letters or digits", d.location()};
          }
          return new String[] {
            d.idJson(), Simhash.toHex(fp.fingerprint(d.text())), null, d.location()
          };
        },
        input.threads,
        done -> {
          // One write per batch: out flushes on every println, a system call per document.
          StringBuilder lines = new StringBuilder(done.size() * 48);
          for (String[] r : done) {
            if (r[2] != null) {
              rejects.add(r[3], r[0], r[2]);
            } else {
              lines.append("{\"id\":").append(r[0]).append(",\"simhash\":\"").append(r[1]);
              lines.append("\"}").append(NEWLINE);
            }
          }
          out.write(lines.toString());
        },
        () -> {});
    out.flush();
    rejects.close();
    rejects.report(err);
    return rejects.exitCode(input.failOnError);
  }
}
