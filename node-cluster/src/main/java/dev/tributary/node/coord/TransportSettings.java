package dev.tributary.node.coord;

import dev.tributary.capture.ArchiveLagTarget;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.errors.TributaryException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The cluster's database links and log archive destinations, defined once for every node:
 * {@code dblinks/<name>} holds a link's target, {@code archive_dests/log_archive_dest_N} the
 * destination's {@code SERVICE=<link>}, {@code system_parameters/archive_lag_target} the seconds
 * after which every node switches its online log. Each node ships its own redo thread to every destination.
 * Names are case-insensitive (kept lowercased). Thread-safe.
 */
public final class TransportSettings {
    private static final String ARCHIVE_LAG_TARGET = "archive_lag_target";
    private static final Pattern DEST = Pattern.compile("log_archive_dest_([1-9]|[12][0-9]|3[01])");
    private static final Pattern SERVICE = Pattern.compile("(?i)\\s*service\\s*=\\s*([A-Za-z_][A-Za-z0-9_$#]*)\\s*");

    /**
     * A database link: another Tributary cluster's endpoints, or a JDBC URL, and the role it logs in
     * as there (both null when it connects without credentials). toString never shows the password.
     */
    public record Link(String name, String target, String user, String password) {
        public Link(String name, String target) {
            this(name, target, null, null);
        }

        public boolean jdbc() {
            return target.startsWith("jdbc:");
        }

        /** Whether the link logs in at its target (CONNECT TO ... IDENTIFIED BY ...). */
        public boolean credentialed() {
            return user != null;
        }

        /** A Tributary cluster's endpoints, in the order a caller tries them. */
        public java.util.List<String> endpoints() {
            return java.util.Arrays.stream(target.split(",")).map(String::trim).toList();
        }

        /** The znode's data: the target, then (NUL-separated) the user and the password, sealed. */
        byte[] encode(LinkPasswords passwords) {
            String s = credentialed() ? target + '\0' + user + '\0' + passwords.seal(name, password) : target;
            return s.getBytes(StandardCharsets.UTF_8);
        }

        static Link decode(String name, String data, LinkPasswords passwords) {
            String[] parts = data.split("\0", 3);
            return parts.length == 3 ? new Link(name, parts[0], parts[1], passwords.open(name, parts[2])) : new Link(name, data);
        }

        /** Whether the znode's data holds a password in clear (as nodes before sealing kept it). */
        static boolean clear(String data) {
            String[] parts = data.split("\0", 3);
            return parts.length == 3 && !LinkPasswords.sealed(parts[2]);
        }

        @Override
        public String toString() {
            return "Link[" + name + " -> " + target + (credentialed() ? " as " + user : "") + "]";
        }
    }

    private final CuratorFramework curator;
    private final String links;
    private final String dests;
    private final java.util.function.Supplier<byte[]> clusterSecret;
    private volatile LinkPasswords passwords;
    private final String lagTarget;

    /** @param clusterSecret the cluster's secret, asked once, when a link's password is first sealed or opened */
    TransportSettings(CuratorFramework curator, String root, java.util.function.Supplier<byte[]> clusterSecret) {
        this.curator = curator;
        this.links = root + "/dblinks";
        this.dests = root + "/archive_dests";
        this.clusterSecret = clusterSecret;
        this.lagTarget = root + "/system_parameters/" + ARCHIVE_LAG_TARGET;
    }

    private LinkPasswords passwords() {
        LinkPasswords p = passwords;
        if (p == null) {
            p = new LinkPasswords(clusterSecret.get());
            passwords = p;
        }
        return p;
    }

    /**
     * Seals the passwords of links made by nodes that kept them in clear; each node does it at start
     * (a change made meanwhile by another node wins: its link is sealed already).
     *
     * @return how many were sealed
     */
    public int sealClearPasswords() {
        int sealed = 0;
        for (Map.Entry<String, String> e : children(links).entrySet()) {
            if (!Link.clear(e.getValue())) {
                continue;
            }
            String path = links + "/" + e.getKey();
            try {
                org.apache.zookeeper.data.Stat stat = new org.apache.zookeeper.data.Stat();
                String data = new String(curator.getData().storingStatIn(stat).forPath(path), StandardCharsets.UTF_8);
                if (Link.clear(data)) {
                    curator.setData().withVersion(stat.getVersion()).forPath(path,
                            Link.decode(e.getKey(), data, passwords()).encode(passwords()));
                    sealed++;
                }
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException changed) {
                // dropped, or rewritten by another node meanwhile: nothing in clear left to seal here
            } catch (Exception ex) {
                throw unavailable("seal the password of database link " + e.getKey(), ex);
            }
        }
        return sealed;
    }

    /**
     * CREATE DATABASE LINK: a target {@code HOST:PORT[,HOST:PORT...]} or {@code jdbc:...}, and the
     * role it logs in as there (null user and password: none). The znode is readable by the
     * cluster's nodes only when ZooKeeper ACLs are on (--zookeeper-auth-file).
     */
    public void createLink(String name, String target, String user, String password) {
        String n = name.toLowerCase(Locale.ROOT);
        String t = target.trim();
        if (!t.startsWith("jdbc:") && !t.matches("[^,:\\s]+:[0-9]{1,5}(,[^,:\\s]+:[0-9]{1,5})*")) {
            throw new InvalidRequestException("CREATE DATABASE LINK " + n + ": USING '" + target
                    + "' is neither HOST:PORT[,HOST:PORT...] (a Tributary cluster) nor a jdbc: URL");
        }
        try {
            curator.create().creatingParentsIfNeeded().forPath(links + "/" + n,
                    new Link(n, t, user, password).encode(passwords()));
        } catch (KeeperException.NodeExistsException e) {
            throw new InvalidRequestException(ErrorCode.ALREADY_EXISTS, "database link " + n + " already exists");
        } catch (Exception e) {
            throw unavailable("create database link " + n, e);
        }
    }

    /** DROP DATABASE LINK; refused while a log archive destination uses it. */
    public void dropLink(String name, boolean ifExists) {
        String n = name.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, String> d : destinations().entrySet()) {
            if (d.getValue().equals(n)) {
                throw new InvalidRequestException("database link " + n + " is in use by " + d.getKey()
                        + "; ALTER SYSTEM SET " + d.getKey() + " = '' first");
            }
        }
        try {
            curator.delete().forPath(links + "/" + n);
        } catch (KeeperException.NoNodeException e) {
            if (!ifExists) {
                throw new InvalidRequestException(ErrorCode.NOT_FOUND, "database link " + n + " does not exist");
            }
        } catch (Exception e) {
            throw unavailable("drop database link " + n, e);
        }
    }

    /** The links by name. */
    public Map<String, Link> links() {
        Map<String, Link> out = new TreeMap<>();
        for (Map.Entry<String, String> e : children(links).entrySet()) {
            out.put(e.getKey(), Link.decode(e.getKey(), e.getValue(), passwords()));
        }
        return out;
    }

    public java.util.Optional<Link> link(String name) {
        return java.util.Optional.ofNullable(links().get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * ALTER SYSTEM SET: {@code log_archive_dest_N = 'SERVICE=<link>'} (N from 1 to 31) names a
     * destination, {@code ''} removes it.
     */
    public void setSystemParameter(String parameter, String value) {
        String p = parameter.toLowerCase(Locale.ROOT);
        if (p.equals(ARCHIVE_LAG_TARGET)) {
            setArchiveLagTarget(value);
            return;
        }
        if (!DEST.matcher(p).matches()) {
            throw new InvalidRequestException("ALTER SYSTEM SET: unknown parameter '" + parameter
                    + "'; the parameters are log_archive_dest_1 to log_archive_dest_31, archive_lag_target and max_disk_bytes");
        }
        String path = dests + "/" + p;
        try {
            if (value.isBlank()) {
                try {
                    curator.delete().forPath(path);
                } catch (KeeperException.NoNodeException e) {
                    // already unset
                }
                return;
            }
            Matcher m = SERVICE.matcher(value);
            if (!m.matches()) {
                throw new InvalidRequestException("ALTER SYSTEM SET " + p + ": '" + value + "' is not SERVICE=<database link>");
            }
            String link = m.group(1).toLowerCase(Locale.ROOT);
            Link l = link(link).orElseThrow(() -> new InvalidRequestException(ErrorCode.NOT_FOUND, "ALTER SYSTEM SET " + p
                    + ": database link " + link + " does not exist (CREATE DATABASE LINK " + link + " USING 'HOST:PORT')"));
            if (l.jdbc()) {
                throw new InvalidRequestException("ALTER SYSTEM SET " + p + ": database link " + link
                        + " names a JDBC database; redo can only be shipped to a Tributary cluster");
            }
            byte[] data = link.getBytes(StandardCharsets.UTF_8);
            if (curator.checkExists().forPath(path) == null) {
                curator.create().creatingParentsIfNeeded().forPath(path, data);
            } else {
                curator.setData().forPath(path, data);
            }
        } catch (TributaryException e) {
            throw e;
        } catch (Exception e) {
            throw unavailable("set " + p, e);
        }
    }

    /** ALTER SYSTEM SET archive_lag_target = seconds: one value for every node's thread. */
    private void setArchiveLagTarget(String value) {
        ArchiveLagTarget target;
        try {
            target = ArchiveLagTarget.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("ALTER SYSTEM SET " + ARCHIVE_LAG_TARGET + ": " + e.getMessage());
        }
        byte[] data = Long.toString(target.seconds()).getBytes(StandardCharsets.UTF_8);
        try {
            if (curator.checkExists().forPath(lagTarget) == null) {
                curator.create().creatingParentsIfNeeded().forPath(lagTarget, data);
            } else {
                curator.setData().forPath(lagTarget, data);
            }
        } catch (Exception e) {
            throw unavailable("set " + ARCHIVE_LAG_TARGET, e);
        }
    }

    /** The cluster's archive_lag_target; off until someone sets it. */
    public ArchiveLagTarget archiveLagTarget() {
        try {
            return ArchiveLagTarget.parse(new String(curator.getData().forPath(lagTarget), StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException e) {
            return ArchiveLagTarget.OFF;
        } catch (Exception e) {
            throw unavailable("read " + ARCHIVE_LAG_TARGET, e);
        }
    }

    /** The log archive destinations: parameter name → link name. */
    public Map<String, String> destinations() {
        return children(dests);
    }

    private Map<String, String> children(String path) {
        Map<String, String> out = new TreeMap<>();
        try {
            for (String c : curator.getChildren().forPath(path)) {
                try {
                    out.put(c, new String(curator.getData().forPath(path + "/" + c), StandardCharsets.UTF_8));
                } catch (KeeperException.NoNodeException e) {
                    // removed between the listing and the read
                }
            }
        } catch (KeeperException.NoNodeException e) {
            return out;
        } catch (Exception e) {
            throw unavailable("read " + path, e);
        }
        return out;
    }

    private static TributaryException unavailable(String what, Exception e) {
        return new TributaryException(ErrorCode.UNAVAILABLE, "could not " + what + " in ZooKeeper: " + e, e);
    }
}
