package dev.tributary.deploy;

import dev.tributary.client.ChangeConsumer;
import dev.tributary.client.TributaryClient;
import dev.tributary.client.errors.TributaryException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code tributary tail}: a {@link ChangeConsumer} that prints each LCR as one JSON line, until
 * {@code --limit} LCRs, {@code --idle-exit} without one, or SIGINT. With {@code --group} it reads
 * as a consumer group member: it resumes where the group stopped, commits as it goes, and on exit
 * commits what it printed and leaves. Exit status 0, 1 when the consumer failed, 2 for a command
 * line it cannot run.
 */
final class TailCommand extends ClientCommand<TailOptions> {
    /** @param env the environment ($TRIBUTARY_PASSWORD), replaceable in tests */
    TailCommand(Terminal terminal, ClientFactory clients, java.util.function.Function<String, String> env) {
        super("tail", TailOptions.USAGE, terminal, clients, env);
    }

    @Override
    TailOptions parse(List<String> args) throws UsageException {
        return TailOptions.parse(args);
    }

    @Override
    int run(TailOptions o, ClientFactory connector) {
        Object lock = new Object();
        long[] printed = {0};
        long[] lastAt = {System.nanoTime()};
        CountDownLatch limitReached = new CountDownLatch(1);
        try (TributaryClient client = connector.connect(List.of(o.connect()), Duration.ofSeconds(60), "tail")) {
            ChangeConsumer.Builder b = ChangeConsumer.builder(client).start(o.from()).workers(1).handler(r -> {
                synchronized (lock) {
                    if (o.limit() >= 0 && printed[0] >= o.limit()) {
                        // not printed, so not handled: a group must not commit it as if it were
                        throw new LimitReached();
                    }
                    terminal.out().println(r.toJson());
                    terminal.out().flush();
                    printed[0]++;
                    lastAt[0] = System.nanoTime();
                    if (printed[0] == o.limit()) {
                        limitReached.countDown();
                    }
                }
            });
            if (o.table() != null) {
                b.table(o.table());
            } else {
                b.queue(o.queue());
            }
            if (o.group() != null) {
                b.group(o.group());
            }
            try (ChangeConsumer consumer = b.build()) {
                consumer.start();
                // SIGINT: a group member commits what it printed and leaves, rather than wait out its lease
                Thread onSignal = new Thread(consumer::close, "tributary-tail-shutdown");
                Runtime.getRuntime().addShutdownHook(onSignal);
                try {
                    await(consumer, o, lock, lastAt, limitReached);
                } finally {
                    try {
                        Runtime.getRuntime().removeShutdownHook(onSignal);
                    } catch (IllegalStateException e) {
                        // the JVM is shutting down: the hook closes the consumer
                    }
                }
                if (consumer.failure().isPresent() && !(consumer.failure().get() instanceof LimitReached)) {
                    Throwable t = consumer.failure().get();
                    terminal.err().println(t instanceof TributaryException te ? CqlCommand.errorLine(te)
                            : "tributary tail: " + (t.getMessage() == null ? t.toString() : t.getMessage()));
                    return Tributary.FAILED;
                }
            }
            return Tributary.OK;
        } catch (TributaryException e) {
            terminal.err().println(CqlCommand.errorLine(e));
            return Tributary.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Tributary.FAILED;
        }
    }

    /** Thrown for an LCR past --limit: the consumer stops and counts it as not delivered. */
    private static final class LimitReached extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LimitReached() {
            super("--limit reached", null, false, false);
        }
    }

    /** Until --limit, --idle-exit, or the consumer stopped. */
    private static void await(ChangeConsumer consumer, TailOptions o, Object lock, long[] lastAt, CountDownLatch limitReached)
            throws InterruptedException {
        while (!limitReached.await(100, TimeUnit.MILLISECONDS)) {
            if (consumer.failure().isPresent() || !consumer.isRunning()) {
                break;
            }
            if (o.idleExit() != null) {
                long idle;
                synchronized (lock) {
                    idle = System.nanoTime() - lastAt[0];
                }
                if (idle >= o.idleExit().toNanos()) {
                    break;
                }
            }
        }
    }
}
