// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code neardup} command line. */
@Command(
    name = "neardup",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description =
        "Near-duplicate text detection: simhash fingerprints, a Hamming index, verification.",
    subcommands = {
      DedupCommand.class,
      EvalCommand.class,
      FingerprintCommand.class,
      IdfCommand.class,
      BenchCommand.class,
      ServeCommand.class,
      SendCommand.class,
      StoreCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code: 0 ok, 1 failed, 2 bad usage. */
  public static int run(String... args) {
    CommandLine cmd = commandLine();
    return cmd.execute(args);
  }

  static CommandLine commandLine() {
    CommandLine cmd = new CommandLine(new Main());
    cmd.setOut(
        new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true));
    cmd.setErr(
        new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
    cmd.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine
              .getErr()
              .println(commandLine.getCommandSpec().qualifiedName() + ": error: " + message(e));
          if (System.getenv("NEARDUP_DEBUG") != null) {
            e.printStackTrace(commandLine.getErr());
          }
          return 1;
        });
    return cmd;
  }

  static String message(Throwable e) {
    Throwable t = e;
    while ((t instanceof IllegalStateException
            || t instanceof java.util.concurrent.ExecutionException
            || t instanceof java.io.UncheckedIOException)
        && t.getCause() != null
        && t.getMessage() != null
        && t.getMessage().equals(String.valueOf(t.getCause()))) {
      t = t.getCause();
    }
    if (t instanceof java.nio.file.NoSuchFileException n) {
      return (n.getFile() != null ? n.getFile() : t.getMessage()) + ": no such file or directory";
    }
    if (t instanceof java.nio.file.AccessDeniedException n) {
      return (n.getFile() != null ? n.getFile() : t.getMessage()) + ": permission denied";
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    // A wrapper's message says what failed; its cause says why (a background merge out of heap).
    Throwable cause = t.getCause();
    if (cause != null && cause != t && !m.contains(String.valueOf(cause.getMessage()))) {
      m += ": " + describe(cause);
    }
    return m;
  }

  private static String describe(Throwable cause) {
    if (cause instanceof OutOfMemoryError) {
      return "out of memory ("
          + cause.getMessage()
          + "); give the JVM more heap, e.g. NEARDUP_JAVA_OPTS=-Xmx8g";
    }
    String m = cause.getMessage();
    return m == null
        ? cause.getClass().getSimpleName()
        : m + " (" + cause.getClass().getSimpleName() + ")";
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Reads the version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"neardup " + (v == null ? "(development build)" : v)};
    }
  }
}
