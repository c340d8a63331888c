package dev.tributary.node.kit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The nemesis kit's network: every host (a node, ZooKeeper) in its own network namespace, joined
 * to one bridge by a veth pair, on a /24 of its own; the test JVM (clients, consumers) reaches
 * them all from the bridge's address and is never cut off. A link is cut one way by a policy rule
 * in the receiving namespace that blackholes packets from the sender: the drop is silent, as in a
 * real partition (no reset, no ICMP; the sender's TCP just retransmits). {@link #heal} removes
 * every cut. Needs root and iproute2; {@link #create} fails with a message saying so elsewhere.
 *
 * <p>Names carry a random tag, so engineers sharing a machine never collide; {@link #close}
 * (and a shutdown hook, for a test JVM that dies first) deletes the namespaces and the bridge.
 */
public final class NemesisNetwork implements AutoCloseable {
    /** A host: its name in the test, its namespace and its address. */
    public record Host(String name, String namespace, String ip) {
        @Override
        public String toString() {
            return name + "(" + ip + ")";
        }
    }

    /** The rule priority of a cut: below the local table's, which the namespace moves from 0 to {@link #LOCAL_PREF}. */
    private static final int CUT_PREF = 10;
    private static final int LOCAL_PREF = 100;

    private final String tag;
    private final String bridge;
    private final String subnet;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final Set<List<String>> cuts = new LinkedHashSet<>();
    private final Thread cleanup = new Thread(this::removeAll, "nemesis-network-cleanup");
    private boolean closed;

    private NemesisNetwork(String tag, String subnet) {
        this.tag = tag;
        this.bridge = "tbr" + tag;
        this.subnet = subnet;
    }

    /**
     * Creates a namespace per name ({@code 10.a.b.1}, {@code .2}, ... in order) and the bridge
     * ({@code 10.a.b.254}, the test JVM's side). Fails with a clear message when not root or
     * without {@code ip}.
     */
    public static NemesisNetwork create(java.util.Random random, String... names) {
        requireRoot();
        String tag = String.format("%04x", random.nextInt(0x10000));
        String used = run(false, "ip", "-4", "addr");
        String subnet = null;
        for (int tries = 0; tries < 100 && subnet == null; tries++) {
            String s = "10." + (100 + random.nextInt(100)) + "." + random.nextInt(256);
            if (!used.contains(s + ".")) {
                subnet = s;
            }
        }
        NemesisNetwork n = new NemesisNetwork(tag, subnet);
        Runtime.getRuntime().addShutdownHook(n.cleanup);
        try {
            run(true, "ip", "link", "add", n.bridge, "type", "bridge");
            run(true, "ip", "addr", "add", subnet + ".254/24", "dev", n.bridge);
            run(true, "ip", "link", "set", n.bridge, "up");
            for (int i = 0; i < names.length; i++) {
                n.addHost(names[i], i + 1);
            }
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
        System.out.println("nemesis network " + tag + ": " + subnet + ".0/24 " + n.hosts.values());
        return n;
    }

    private static void requireRoot() {
        String uid = run(false, "id", "-u").trim();
        if (!uid.equals("0")) {
            throw new IllegalStateException("the nemesis kit puts every node in a network namespace of its own (ip netns, "
                    + "veth pairs): it must run as root, and runs as uid " + uid);
        }
    }

    private void addHost(String name, int index) {
        String ns = "trib-" + tag + "-" + name;
        String veth = "tv" + tag + index;
        Host h = new Host(name, ns, subnet + "." + index);
        run(true, "ip", "netns", "add", ns);
        hosts.put(name, h);
        run(true, "ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns);
        run(true, "ip", "link", "set", veth, "master", bridge, "up");
        run(true, "ip", "-n", ns, "addr", "add", h.ip() + "/24", "dev", "eth0");
        run(true, "ip", "-n", ns, "link", "set", "eth0", "up");
        run(true, "ip", "-n", ns, "link", "set", "lo", "up");
        // the local table is consulted first (priority 0); a cut must come before it to drop
        // packets addressed to this host, so the local table moves behind the cuts
        run(true, "ip", "-n", ns, "rule", "add", "pref", Integer.toString(LOCAL_PREF), "lookup", "local");
        run(true, "ip", "-n", ns, "rule", "del", "pref", "0");
    }

    /** The host of that name. */
    public Host host(String name) {
        Host h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host " + name + " in " + hosts.keySet());
        }
        return h;
    }

    /** The address the test JVM's connections come from: never cut. */
    public String clientIp() {
        return subnet + ".254";
    }

    /** The command prefix that runs a program in {@code h}'s namespace (it execs, so the pid is the program's). */
    public List<String> exec(Host h) {
        return List.of("ip", "netns", "exec", h.namespace());
    }

    /** Drops every packet {@code from} sends to {@code to}, silently, at {@code to}; idempotent. */
    public synchronized void cut(Host from, Host to) {
        List<String> rule = List.of(to.namespace(), from.ip());
        if (cuts.add(rule)) {
            run(true, "ip", "-n", to.namespace(), "rule", "add", "pref", Integer.toString(CUT_PREF), "from", from.ip(),
                    "iif", "eth0", "blackhole");
        }
    }

    /** Cuts the links between {@code a} and {@code b} both ways. */
    public void cutBoth(Host a, Host b) {
        cut(a, b);
        cut(b, a);
    }

    /** Cuts every link between a host of {@code side} and one of {@code other}, both ways. */
    public void partition(Collection<Host> side, Collection<Host> other) {
        for (Host a : side) {
            for (Host b : other) {
                cutBoth(a, b);
            }
        }
    }

    /** Restores every link cut. */
    public synchronized void heal() {
        for (List<String> rule : cuts) {
            run(true, "ip", "-n", rule.get(0), "rule", "del", "pref", Integer.toString(CUT_PREF), "from", rule.get(1),
                    "iif", "eth0", "blackhole");
        }
        cuts.clear();
    }

    /** The links cut now, as "from -> to". */
    public synchronized List<String> cuts() {
        List<String> out = new ArrayList<>();
        for (List<String> rule : cuts) {
            String to = hosts.values().stream().filter(h -> h.namespace().equals(rule.get(0))).findFirst().orElseThrow().name();
            String from = hosts.values().stream().filter(h -> h.ip().equals(rule.get(1))).findFirst().orElseThrow().name();
            out.add(from + " -> " + to);
        }
        return out;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs (and finds nothing left)
        }
    }

    private void removeAll() {
        for (Host h : hosts.values()) {
            run(false, "ip", "netns", "del", h.namespace()); // takes its end of the veth pair, and so the pair
        }
        run(false, "ip", "link", "del", bridge);
    }

    /** Runs a command and returns its output; with {@code check}, fails when it exits non-zero. */
    static String run(boolean check, String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish within 30 s");
            }
            if (check && p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + out.trim());
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", cmd) + " (the nemesis kit needs iproute2's ip): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", cmd), e);
        }
    }
}
