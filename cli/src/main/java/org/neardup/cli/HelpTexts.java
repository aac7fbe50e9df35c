// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;

/**
 * The usage texts of {@code neardup --help} and {@code neardup COMMAND --help}, rendered by picocli
 * at build time into class-path resources, and printed from there when a run asks for nothing but
 * one of them.
 *
 * <p>A cold JVM spent about 0.2 s of CPU building picocli's model of a command by reflection and
 * laying out its help (text tables, styled text) before printing a text that is the same on every
 * run (docs/BENCHMARKS.md, 2026-11-25 evening session). The stored text is picocli's own output,
 * made by {@link #main} in the {@code process-classes} phase from the same classes; {@code
 * HelpTextsTest} checks that each one equals what picocli renders. It is used only when the run
 * would print exactly it: the arguments are {@code [COMMAND] --help} or {@code -h}, no {@code
 * picocli.*} system property is set (width, colours), the line separator is {@code \n}, and the
 * colours are picocli's own choice for this terminal ({@code Ansi.AUTO}), one text with ANSI styles
 * and one without. Anything else, or a missing resource (tests, an IDE), goes through picocli.
 *
 * <p>Public only for the build, which runs {@link #main}.
 */
public final class HelpTexts {
  /*
   * Only commands whose help does not depend on the machine or the environment: no default taken
   * from the number of cores, the heap, environment variables or system properties (serve's help
   * comes from the server's own parser). Adding a command here needs that check.
   */
  static final List<String> COMMANDS =
      List.of("", "dedup", "eval", "fingerprint", "idf", "bench", "send", "store");

  private HelpTexts() {}

  /**
   * Prints the stored help that {@code args} asks for to {@code out} and returns true, or returns
   * false, printing nothing, when the run must go through picocli.
   */
  static boolean print(String[] args, OutputStream out) throws IOException {
    String command = command(args);
    if (command == null || !"\n".equals(System.lineSeparator()) || picocliProperties()) {
      return false;
    }
    boolean ansi = CommandLine.Help.Ansi.AUTO.enabled();
    byte[] text;
    try (InputStream in = HelpTexts.class.getResourceAsStream(resource(command, ansi))) {
      if (in == null) {
        return false;
      }
      text = in.readAllBytes();
    }
    out.write(text);
    out.flush();
    return true;
  }

  /** The command whose help {@code args} asks for and nothing else ("" for neardup's), or null. */
  static @Nullable String command(String[] args) {
    if (args.length == 1 && isHelp(args[0])) {
      return "";
    }
    if (args.length == 2 && isHelp(args[1]) && !args[0].isEmpty() && COMMANDS.contains(args[0])) {
      return args[0];
    }
    return null;
  }

  private static boolean isHelp(String arg) {
    return arg.equals("--help") || arg.equals("-h");
  }

  private static boolean picocliProperties() {
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith("picocli.")) {
        return true;
      }
    }
    return false;
  }

  /** The resource name of {@code command}'s help, with or without ANSI styles. */
  static String resource(String command, boolean ansi) {
    return "help/" + (command.isEmpty() ? "neardup" : command) + (ansi ? ".ansi" : ".txt");
  }

  /** What picocli prints for {@code [command] --help}, with or without ANSI styles. */
  static String render(String command, boolean ansi) {
    CommandLine cmd = Main.commandLine(command);
    StringWriter text = new StringWriter();
    cmd.setOut(new PrintWriter(text, true));
    cmd.setColorScheme(
        CommandLine.Help.defaultColorScheme(
            ansi ? CommandLine.Help.Ansi.ON : CommandLine.Help.Ansi.OFF));
    int code = command.isEmpty() ? cmd.execute("--help") : cmd.execute(command, "--help");
    if (code != 0) {
      throw new IllegalStateException(command + " --help exited with " + code);
    }
    return text.toString();
  }

  /**
   * Writes every command's help, with and without ANSI styles, under {@code args[0]} (the classes
   * directory): run by the build.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: HelpTexts CLASSES_DIR, got " + args.length);
    }
    if (!"\n".equals(System.lineSeparator())) {
      return; // the texts would never be used (print needs \n)
    }
    Path dir = Path.of(args[0]).resolve("org/neardup/cli");
    for (String command : COMMANDS) {
      for (boolean ansi : new boolean[] {false, true}) {
        Path file = dir.resolve(resource(command, ansi));
        Files.createDirectories(file.getParent());
        Files.writeString(file, render(command, ansi), StandardCharsets.UTF_8);
      }
    }
  }
}
