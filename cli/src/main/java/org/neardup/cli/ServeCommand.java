// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.neardup.server.Main;
import org.neardup.server.NeardupServer;
import org.neardup.server.ServerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code neardup serve}: the online service on the embedded store. Example: {@code neardup serve
 * --data /var/lib/neardup --retention 48h --port 8080}. Listens on 127.0.0.1 unless told otherwise;
 * stops gracefully on SIGTERM or Ctrl-C.
 *
 * <p>The options have one definition, the server's: {@link ServerConfig#parse} reads them and
 * {@link ServerConfig#usage()} is their help, which {@code --help} prints. This command only hands
 * its arguments over, so the command line, {@code java org.neardup.server.Main} and the help cannot
 * drift apart.
 */
@Command(
    name = "serve",
    description = {
      "Run the HTTP/JSON service: check each new text against everything stored and store it in"
          + " the same step, durably. --help lists the options."
    })
public final class ServeCommand implements Callable<Integer> {
  @Unmatched List<String> args = new ArrayList<>();

  @Spec CommandLine.Model.CommandSpec spec;

  private final PrintStream out;

  public ServeCommand() {
    this(System.out);
  }

  ServeCommand(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) {
    CommandLine cmd = new CommandLine(new ServeCommand());
    int code = cmd.execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Whether the arguments ask for the help. */
  boolean helpRequested() {
    return args.contains("--help") || args.contains("-h");
  }

  /** The server configuration these options describe. */
  ServerConfig config() {
    return ServerConfig.parse(args.toArray(new String[0]), System.getenv());
  }

  @Override
  public Integer call() throws Exception {
    if (helpRequested()) {
      spec.commandLine().getOut().println(ServerConfig.usage());
      spec.commandLine().getOut().flush();
      return 0;
    }
    ServerConfig config;
    try {
      config = config();
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("neardup serve: error: " + e.getMessage());
      spec.commandLine().getErr().flush();
      return 2;
    }
    NeardupServer server = Main.serve(config, out);
    server.awaitClosed();
    return 0;
  }
}
