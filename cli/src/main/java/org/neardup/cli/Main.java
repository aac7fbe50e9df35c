// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code neardup} command line. */
@Command(
    name = "neardup",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description =
        "Near-duplicate text detection: simhash fingerprints, a Hamming index, verification.")
public final class Main implements Runnable {
  /*
   * The subcommands are added here, not in @Command(subcommands = ...), so that a run builds the
   * picocli model of its own subcommand only: picocli builds a command's whole model (options,
   * mixins, their defaults, the classes they load) when the command is added, and building all
   * of them was most of `neardup fingerprint --help` (docs/BENCHMARKS.md). Top-level help, `help`
   * and unknown names still get all of them, in this order.
   */
  private static final Map<String, Supplier<Object>> SUBCOMMANDS = new LinkedHashMap<>();

  static {
    SUBCOMMANDS.put("dedup", DedupCommand::new);
    SUBCOMMANDS.put("eval", EvalCommand::new);
    SUBCOMMANDS.put("fingerprint", FingerprintCommand::new);
    SUBCOMMANDS.put("idf", IdfCommand::new);
    SUBCOMMANDS.put("bench", BenchCommand::new);
    SUBCOMMANDS.put("serve", ServeCommand::new);
    SUBCOMMANDS.put("send", SendCommand::new);
    SUBCOMMANDS.put("store", StoreCommand::new);
    SUBCOMMANDS.put("help", CommandLine.HelpCommand::new);
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code: 0 ok, 1 failed, 2 bad usage. */
  public static int run(String... args) {
    CommandLine cmd = commandLine(args.length > 0 ? args[0] : "");
    return cmd.execute(args);
  }

  /** The command line with every subcommand. */
  static CommandLine commandLine() {
    return commandLine("");
  }

  /**
   * The command line with only subcommand {@code first} when that names one other than {@code
   * help}, else with all of them.
   */
  static CommandLine commandLine(String first) {
    CommandLine cmd = new CommandLine(new Main());
    @org.jspecify.annotations.Nullable
    Supplier<Object> only = "help".equals(first) ? null : SUBCOMMANDS.get(first);
    if (only != null) {
      cmd.addSubcommand(first, only.get());
    } else {
      SUBCOMMANDS.forEach((name, make) -> cmd.addSubcommand(name, make.get()));
    }
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
