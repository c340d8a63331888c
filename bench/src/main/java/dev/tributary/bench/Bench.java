package dev.tributary.bench;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code tributary bench <benchmark> [options]}: the entry point the launcher delegates to. The
 * one benchmark is {@code capture} (issue #7; see {@link CaptureOptions#USAGE}). Exit status 0
 * after a completed run, 1 when the run failed, 2 for a command line that cannot run.
 */
public final class Bench {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;

    public static final String USAGE_TEXT = """
            usage: tributary bench <benchmark> [options]

            benchmarks:
              capture   end-to-end write -> capture -> consumer throughput and latency, against a
                        RocksDB baseline measured in the same run

            Run 'tributary bench capture --help' for its options.
            """;

    private Bench() {
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args), System.out, System.err));
    }

    /** Runs one bench command line (the arguments after {@code bench}); returns the exit status. */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.print(USAGE_TEXT);
            return USAGE;
        }
        List<String> rest = args.subList(1, args.size());
        switch (args.get(0)) {
            case "-h", "--help", "help" -> {
                out.print(USAGE_TEXT);
                return OK;
            }
            case "capture" -> {
                return capture(rest, out, err);
            }
            default -> {
                err.println("tributary bench: unknown benchmark '" + args.get(0) + "'");
                err.print(USAGE_TEXT);
                return USAGE;
            }
        }
    }

    private static int capture(List<String> args, PrintStream out, PrintStream err) {
        CaptureOptions options;
        try {
            options = CaptureOptions.parse(args);
        } catch (BenchUsageException e) {
            err.println("tributary bench capture: " + e.getMessage());
            err.print(CaptureOptions.USAGE);
            return USAGE;
        }
        if (options.help()) {
            out.print(CaptureOptions.USAGE);
            return OK;
        }
        try {
            CaptureReport report = new CaptureBench(options, err).run();
            out.print(report.toText());
            if (options.json()) {
                out.println(report.toJson());
            }
            out.flush();
            return OK;
        } catch (BenchFailedException e) {
            err.println("ERROR BENCH_FAILED: " + e.getMessage());
            return FAILED;
        }
    }
}
