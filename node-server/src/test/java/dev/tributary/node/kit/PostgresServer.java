package dev.tributary.node.kit;

import dev.tributary.node.TestNodes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL 15 server (Debian's {@code postgresql-15}, which bin/test installs) of the
 * test's own: initdb into {@code dir}, a postmaster on a port of 127.0.0.1 and a database
 * {@code dest} that a user with a password owns. {@link #kill()} SIGKILLs the postmaster and every
 * backend at once, as a crash of its machine would, and {@link #restart()} brings it back on the
 * same port, so a database link's URL stays right; crash recovery replays its WAL.
 *
 * <p>PostgreSQL refuses to run as root; when the test runs as root (CI does) every command runs
 * as the {@code postgres} user the package creates, and the directories above {@code dir} get
 * the search bit that user needs to reach it.
 */
public final class PostgresServer implements AutoCloseable {
    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static final String USER = "tributary";
    private static final String PASSWORD = "tributary-pw";
    private static final String DATABASE = "dest";

    private final Path dir;
    private final int port;
    private boolean running;

    private PostgresServer(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Initialises a cluster in {@code dir} (which must not exist yet), starts it and creates the database. */
    public static PostgresServer start(Path dir) {
        if (!Files.isExecutable(BIN.resolve("postgres"))) {
            throw new IllegalStateException("PostgreSQL 15 is not installed (" + BIN + "); bin/test installs Debian's postgresql-15");
        }
        try {
            Files.createDirectories(dir);
            Path pw = dir.resolve("pwfile");
            Files.writeString(pw, PASSWORD + "\n");
            if (asRoot()) {
                for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
                    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
                    if (!perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
                        perms.add(PosixFilePermission.OTHERS_EXECUTE);
                        Files.setPosixFilePermissions(p, perms);
                    }
                }
                run(List.of("chown", "-R", "postgres:postgres", dir.toString()));
            }
            PostgresServer s = new PostgresServer(dir, TestNodes.freePort());
            s.pg(List.of(BIN.resolve("initdb").toString(), "-D", s.data().toString(), "-U", USER, "--pwfile", pw.toString(),
                    "--auth", "scram-sha-256", "--no-locale", "--encoding", "UTF8", "--no-sync"));
            s.startPostmaster();
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + s.port + "/postgres", USER, PASSWORD);
                    Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE " + DATABASE);
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The URL a database link names to reach the test's database. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public String user() {
        return USER;
    }

    public String password() {
        return PASSWORD;
    }

    /** A new connection to the database, as the user the apply connects as. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
    }

    /** SIGKILLs the postmaster and all its backends together, and returns once none runs and the port is closed. */
    public void kill() {
        if (!running) {
            return;
        }
        ProcessHandle postmaster = ProcessHandle.of(postmasterPid()).orElseThrow(
                () -> new IllegalStateException("PostgreSQL's postmaster in " + dir + " is not running"));
        // stopped first, so it forks no backend between the listing of its children and their end
        run(List.of("kill", "-STOP", String.valueOf(postmaster.pid())));
        List<ProcessHandle> all = new ArrayList<>(postmaster.children().toList());
        all.add(postmaster);
        all.forEach(ProcessHandle::destroyForcibly); // SIGKILL; a backend that ended by itself meanwhile is skipped
        running = false;
        TestNodes.await(() -> all.stream().noneMatch(p -> alive(p.pid())) && !listening(), Duration.ofSeconds(30),
                "PostgreSQL's processes to die after SIGKILL");
        // a machine that crashed boots without its processes; here the container's init may leave the
        // postmaster a zombie whose pid still answers, and PostgreSQL would take its lock file for a
        // live server's
        try {
            Files.deleteIfExists(data().resolve("postmaster.pid"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the server again on the same port after {@link #kill()} or {@link #stop()}; it recovers from its WAL. */
    public void restart() {
        if (!running) {
            startPostmaster();
        }
    }

    /** A clean shutdown (fast mode: open sessions are disconnected). */
    public void stop() {
        if (running) {
            pg(List.of(BIN.resolve("pg_ctl").toString(), "-D", data().toString(), "-m", "fast", "-w", "stop"));
            running = false;
        }
    }

    @Override
    public void close() {
        kill();
    }

    private Path data() {
        return dir.resolve("data");
    }

    private void startPostmaster() {
        // no Unix socket: its path length is limited and the tests' directories are deep; TCP only
        String options = "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off"
                + " -c max_connections=200";
        try {
            pg(List.of(BIN.resolve("pg_ctl").toString(), "-D", data().toString(), "-l", dir.resolve("server.log").toString(),
                    "-o", options, "-w", "-t", "60", "start"));
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\nserver.log ends:\n" + logTail(), e);
        }
        running = true;
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("server.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no server.log: " + e.getMessage() + ")";
        }
    }

    private long postmasterPid() {
        try {
            return Long.parseLong(Files.readAllLines(data().resolve("postmaster.pid")).get(0).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A process counts as dead once it is gone or a zombie that nobody reaped (the container's init may not). */
    private static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    private boolean listening() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private void pg(List<String> command) {
        List<String> cmd = new ArrayList<>();
        if (asRoot()) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(command);
        run(cmd);
    }

    private static void run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed: " + new String(out, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
