// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
  private static final List<String> SUBCOMMANDS =
      List.of("dedup", "eval", "fingerprint", "idf", "bench", "serve", "send", "store", "help");

  /**
   * A new instance of subcommand {@code name}, or null. A switch rather than a map of constructor
   * references: each reference spun a lambda class and loaded its command's class (and what that
   * class's verification needed) at start-up, whichever command ran.
   */
  static @org.jspecify.annotations.Nullable Object subcommand(String name) {
    return switch (name) {
      case "dedup" -> new DedupCommand();
      case "eval" -> new EvalCommand();
      case "fingerprint" -> new FingerprintCommand();
      case "idf" -> new IdfCommand();
      case "bench" -> new BenchCommand();
      case "serve" -> new ServeCommand();
      case "send" -> new SendCommand();
      case "store" -> new StoreCommand();
      case "help" -> new CommandLine.HelpCommand();
      default -> null;
    };
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) throws java.io.IOException {
    // `neardup [COMMAND] --help` prints the text picocli rendered at build time, without building
    // picocli's model (HelpTexts).
    if (HelpTexts.print(args, System.out)) {
      System.exit(0);
    }
    Integer plain = FingerprintCommand.runPlain(args, stdout(), stderr());
    System.exit(plain != null ? plain : run(args));
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
    Object only = "help".equals(first) ? null : subcommand(first);
    if (only != null) {
      cmd.addSubcommand(first, only);
    } else {
      for (String name : SUBCOMMANDS) {
        cmd.addSubcommand(name, subcommand(name));
      }
    }
    cmd.setOut(stdout());
    cmd.setErr(stderr());
    cmd.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          reportFailure(commandLine.getCommandSpec().qualifiedName(), e, commandLine.getErr());
          return 1;
        });
    return cmd;
  }

  private static PrintWriter stdout() {
    return new PrintWriter(
        new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
  }

  private static PrintWriter stderr() {
    return new PrintWriter(
        new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
  }

  /** How a command's failure is shown: its name, the message, the trace with NEARDUP_DEBUG. */
  static void reportFailure(String command, Exception e, PrintWriter err) {
    err.println(command + ": error: " + message(e));
    if (System.getenv("NEARDUP_DEBUG") != null) {
      e.printStackTrace(err);
    }
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
