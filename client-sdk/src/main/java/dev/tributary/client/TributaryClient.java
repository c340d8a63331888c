package dev.tributary.client;

import dev.tributary.client.errors.TributaryException;
import dev.tributary.client.errors.UnavailableException;
import dev.tributary.client.internal.ClusterRing;
import dev.tributary.client.internal.DurationArguments;
import dev.tributary.client.internal.Endpoints;
import dev.tributary.client.internal.TokenCredentials;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The entry point: a connection to a Tributary cluster through one or more node endpoints.
 *
 * <pre>{@code
 * try (TributaryClient client = TributaryClient.builder().endpoints("127.0.0.1:9160").build()) {
 *     client.execute("INSERT INTO ks.t (k, v) VALUES (?, ?)", 1, "one");
 *     for (Row row : client.execute("SELECT k, v FROM ks.t")) { ... }
 * }
 * }</pre>
 *
 * <p>Thread-safe; one client is meant to be shared. A request goes to the endpoint that last
 * answered; when that one is unreachable or answers UNAVAILABLE the next ones are tried, each
 * once, with the same request (and idempotency key). When none can serve, the request fails with
 * {@link UnavailableException} naming the endpoints tried. Every other failure is a
 * {@link TributaryException} subclass chosen by the server's reason code, and a request that
 * outlives the request timeout fails with {@code RequestTimeoutException}.
 *
 * <p>The client is token-aware unless {@link Builder#tokenAware(boolean) turned off}: it learns
 * the ring from the nodes, so one endpoint is enough to reach them all, and sends a bound
 * prepared statement first to the node owning its partition, saving the hop a node makes to
 * forward a write it does not own.
 *
 * <p>The statement methods on the client run in its default {@link #session()}; use
 * {@link #newSession()} for an independent keyspace and tag.
 */
public final class TributaryClient implements AutoCloseable {
    /** How long a request may take before it fails with DEADLINE_EXCEEDED. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** The largest answer accepted (a SELECT's rows travel in one message). */
    public static final int DEFAULT_MAX_INBOUND_MESSAGE_BYTES = 64 * 1024 * 1024;
    /** The user sessions run as when the builder names none. */
    public static final String DEFAULT_USERNAME = "anonymous";
    /** How often a token-aware client reads the ring again when the builder names no interval. */
    public static final Duration DEFAULT_RING_REFRESH_INTERVAL = Duration.ofSeconds(5);
    /** How long a request keeps going round the nodes while none can serve it: longer than a replicated node's failover. */
    public static final Duration DEFAULT_FAILOVER_WINDOW = Duration.ofSeconds(10);
    /** How long a connection with calls in flight may be silent before it is pinged (gRPC's floor is 10 s). */
    public static final Duration KEEPALIVE_TIME = Duration.ofSeconds(10);
    /** How long a ping may go unanswered before the connection is closed and its calls fail UNAVAILABLE. */
    public static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(5);

    // Seeded from the clock so session numbers differ between runs, not only within one JVM.
    private static final AtomicLong SESSION_IDS = new AtomicLong(System.currentTimeMillis() * 1000);

    private final Endpoints endpoints;
    private final ClusterRing ring;
    private final String username;
    private final Session defaultSession;
    private final ChangeReader changes;
    private final AtomicBoolean closed = new AtomicBoolean();

    private final Function<String, ManagedChannel> dialer;

    private TributaryClient(Endpoints endpoints, ClusterRing ring, String username, Function<String, ManagedChannel> dialer) {
        this.dialer = dialer;
        this.endpoints = endpoints;
        this.ring = ring;
        this.username = username;
        this.defaultSession = newSessionUnchecked();
        this.changes = new ChangeReader(endpoints);
    }

    /** How this client dials a node by {@code host:port} (its TLS settings included): what a ChangeConsumer's per-node channels use. */
    Function<String, ManagedChannel> dialer() {
        return dialer;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The default session, used by the statement methods of the client itself. */
    public Session session() {
        checkOpen();
        return defaultSession;
    }

    /** A new session with no keyspace and no tag, and its own session number. */
    public Session newSession() {
        checkOpen();
        return newSessionUnchecked();
    }

    private Session newSessionUnchecked() {
        return new Session(endpoints, ring, username, SESSION_IDS.incrementAndGet());
    }

    /** {@link Session#execute(String, Object...)} in the default session. */
    public ResultSet execute(String statement, Object... values) {
        return session().execute(statement, values);
    }

    /** {@link Session#prepare(String)} in the default session. */
    public PreparedStatement prepare(String statement) {
        return session().prepare(statement);
    }

    /** {@link Session#execute(BoundStatement)} in the default session. */
    public ResultSet execute(BoundStatement bound) {
        return session().execute(bound);
    }

    /** A batch for the default session. */
    public BatchBuilder batch() {
        return session().batch();
    }

    /** {@link Session#execute(Batch)} in the default session. */
    public ResultSet execute(Batch batch) {
        return session().execute(batch);
    }

    /** {@link Session#admin()} of the default session: the administration procedures. */
    public Admin admin() {
        return session().admin();
    }

    /** Reads captured changes and CDC generations. */
    public ChangeReader changes() {
        checkOpen();
        return changes;
    }

    /** The client's endpoints, for the change consumer's cluster-level calls. */
    Endpoints endpointsInternal() {
        checkOpen();
        return endpoints;
    }

    /** The endpoint names: those given, in order, then the nodes learned from the ring. */
    public List<String> endpoints() {
        return endpoints.names();
    }

    /** Shuts the channels down, waiting a few seconds for calls in flight. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            if (ring != null) {
                ring.close();
            }
            endpoints.close();
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the client is closed");
        }
    }

    /** Configures a client; not thread-safe. */
    public static final class Builder {
        private final List<String> endpoints = new ArrayList<>();
        private final Map<String, ManagedChannel> channels = new LinkedHashMap<>();
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private Duration failoverWindow = DEFAULT_FAILOVER_WINDOW;
        private int maxInboundMessageBytes = DEFAULT_MAX_INBOUND_MESSAGE_BYTES;
        private String username; // null: the credentials' role, else DEFAULT_USERNAME
        private TokenCredentials credentials;
        private boolean tokenAware = true;
        private Duration ringRefreshInterval = DEFAULT_RING_REFRESH_INTERVAL;
        private Function<String, ManagedChannel> channelFactory;
        private java.nio.file.Path tlsCa;
        private java.nio.file.Path tlsCert;
        private java.nio.file.Path tlsKey;

        private Builder() {
        }

        /** Adds endpoints written {@code host:port} ({@code [::1]:9160} for IPv6). */
        public Builder endpoints(String... endpoints) {
            for (String e : endpoints) {
                HostPort.parse(e);
                this.endpoints.add(e.trim());
            }
            return this;
        }

        public Builder endpoints(List<String> endpoints) {
            return endpoints(endpoints.toArray(String[]::new));
        }

        /**
         * Adds an endpoint reached through a channel the caller built (another transport, TLS,
         * an in-process server). The client owns the channel from now on and shuts it down on
         * close.
         */
        public Builder channel(String name, ManagedChannel channel) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(channel, "channel");
            channels.put(name, channel);
            return this;
        }

        /**
         * How long a statement, a prepare, {@code ChangeReader.read} or {@code generations} may
         * take; a change stream has no deadline.
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = DurationArguments.positive(timeout, "timeout", "the request timeout");
            return this;
        }

        /**
         * How long a request whose every node answered UNAVAILABLE keeps trying them again (with
         * a growing pause) before it fails: a replicated node's instance runs on another node a
         * few seconds after its node died. Zero: one round.
         */
        public Builder failoverWindow(Duration window) {
            this.failoverWindow = DurationArguments.notNegative(window, "window", "the failover window");
            return this;
        }

        /**
         * Connects with TLS, trusting the CA certificates in {@code caPem} (PEM): a node started
         * with {@code --tls-cert} refuses plaintext, and the client refuses a node whose
         * certificate those CAs did not sign.
         */
        public Builder tls(java.nio.file.Path caPem) {
            this.tlsCa = Objects.requireNonNull(caPem, "caPem");
            return this;
        }

        /** The certificate (PEM chain) and PKCS#8 key this client presents to a node started with {@code --tls-client-ca}. */
        public Builder tlsClientCertificate(java.nio.file.Path certPem, java.nio.file.Path keyPem) {
            this.tlsCert = Objects.requireNonNull(certPem, "certPem");
            this.tlsKey = Objects.requireNonNull(keyPem, "keyPem");
            return this;
        }

        private io.netty.handler.ssl.SslContext sslContext() {
            if (tlsCa == null && tlsCert == null) {
                return null;
            }
            try {
                io.netty.handler.ssl.SslContextBuilder b = io.grpc.netty.GrpcSslContexts.forClient();
                if (tlsCa != null) {
                    b.trustManager(tlsCa.toFile());
                }
                if (tlsCert != null) {
                    b.keyManager(tlsCert.toFile(), tlsKey.toFile());
                }
                return b.build();
            } catch (javax.net.ssl.SSLException | IllegalArgumentException e) {
                throw new IllegalArgumentException("TLS: cannot use " + (tlsCa == null ? "" : "CA " + tlsCa + " ")
                        + (tlsCert == null ? "" : "certificate " + tlsCert + " / key " + tlsKey) + ": " + e.getMessage(), e);
            }
        }

        /** The largest answer accepted on the channels built for {@code host:port} endpoints. */
        public Builder maxInboundMessageBytes(int bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxInboundMessageBytes must be positive, got " + bytes);
            }
            this.maxInboundMessageBytes = bytes;
            return this;
        }

        /**
         * Logs in as {@code role} (a node started with {@code --authenticator password}): the
         * client fetches a token with {@code AuthService.Login} from the first node that answers
         * and sends it on every call of the channels it builds, those to the nodes it discovers
         * and a {@code ChangeConsumer}'s included, renewing it before it expires and after a node
         * rejected it. A refused login fails the request that needed it with
         * {@link dev.tributary.client.errors.AuthenticationException} (this method, like
         * {@link #build()}, does not contact a node). An allow-all node answers with an empty
         * token and the calls go without one. Sessions run as {@code role} unless
         * {@link #username} says otherwise. Channels given to {@link #channel} are used as
         * built: carrying credentials on them is up to their builder.
         */
        public Builder credentials(String role, String password) {
            this.credentials = new TokenCredentials(role, password);
            return this;
        }

        /** The user sessions run as (the LCR's username and logon_user); default the credentials' role, else {@value TributaryClient#DEFAULT_USERNAME}. */
        public Builder username(String username) {
            Objects.requireNonNull(username, "username");
            if (username.isBlank()) {
                throw new IllegalArgumentException("the username must not be blank");
            }
            this.username = username;
            return this;
        }

        /**
         * Whether bound prepared statements (and batches of them) go straight to the node owning
         * their partition (on by default). The client then learns the ring from
         * {@code system.local} and {@code system.peers} of a node it was given, opens channels
         * to every node listed, and reads the ring again every {@link #ringRefreshInterval} and
         * after a request had to fail over; one contact endpoint is enough. Off, every request
         * goes to the given endpoints only and the node forwards a write it does not own.
         * Routing needs channels the client builds itself: a client given only
         * {@link #channel caller-built channels} is not token-aware.
         */
        public Builder tokenAware(boolean tokenAware) {
            this.tokenAware = tokenAware;
            return this;
        }

        /** How often a token-aware client reads the ring again (default 5 seconds). */
        public Builder ringRefreshInterval(Duration interval) {
            this.ringRefreshInterval = DurationArguments.positive(interval, "interval", "the ring refresh interval");
            return this;
        }

        /** Tests: how channels to discovered {@code host:port} nodes are made (in-process ones). */
        Builder channelFactory(Function<String, ManagedChannel> factory) {
            this.channelFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * Builds the client. Channels connect lazily, so this does not fail for an endpoint that
         * is down; the first request does.
         *
         * @throws IllegalStateException when no endpoint was given
         */
        public TributaryClient build() {
            if (endpoints.isEmpty() && channels.isEmpty()) {
                throw new IllegalStateException("no endpoints: call endpoints(\"host:port\", ...)");
            }
            int maxInbound = maxInboundMessageBytes;
            io.netty.handler.ssl.SslContext ssl = sslContext();
            TokenCredentials creds = credentials;
            Function<String, ManagedChannel> netty = e -> {
                HostPort hp = HostPort.parse(e);
                // a node that stops answering (paused, its host gone) with the TCP connection still
                // open is noticed by its missed pings, not after the whole request timeout
                NettyChannelBuilder b = NettyChannelBuilder.forAddress(hp.host(), hp.port()).maxInboundMessageSize(maxInbound)
                        .keepAliveTime(KEEPALIVE_TIME.toNanos(), TimeUnit.NANOSECONDS)
                        .keepAliveTimeout(KEEPALIVE_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
                if (creds != null) {
                    b.intercept(creds);
                }
                return (ssl == null ? b.usePlaintext() : b.sslContext(ssl)).build();
            };
            List<Endpoints.Endpoint> list = new ArrayList<>();
            for (String e : endpoints) {
                list.add(new Endpoints.Endpoint(e, netty.apply(e)));
            }
            for (Map.Entry<String, ManagedChannel> c : channels.entrySet()) {
                list.add(new Endpoints.Endpoint(c.getKey(), c.getValue()));
            }
            Function<String, ManagedChannel> discovered = channelFactory != null ? channelFactory
                    : endpoints.isEmpty() ? null : netty;
            Endpoints eps = new Endpoints(list, requestTimeout, failoverWindow, tokenAware ? discovered : null);
            ClusterRing ring = tokenAware && eps.canDiscover() ? new ClusterRing(eps, ringRefreshInterval) : null;
            String user = username != null ? username : creds != null ? creds.role() : DEFAULT_USERNAME;
            return new TributaryClient(eps, ring, user, netty);
        }
    }

    /** An endpoint {@code host:port}. */
    record HostPort(String host, int port) {
        static HostPort parse(String endpoint) {
            Objects.requireNonNull(endpoint, "endpoint");
            String e = endpoint.trim();
            String host;
            String portText;
            if (e.startsWith("[")) {
                int close = e.indexOf(']');
                if (close < 0 || close + 1 >= e.length() || e.charAt(close + 1) != ':') {
                    throw invalid(endpoint);
                }
                host = e.substring(1, close);
                portText = e.substring(close + 2);
            } else {
                int colon = e.lastIndexOf(':');
                if (colon <= 0 || e.indexOf(':') != colon) {
                    throw invalid(endpoint);
                }
                host = e.substring(0, colon);
                portText = e.substring(colon + 1);
            }
            try {
                int port = Integer.parseInt(portText);
                if (port < 1 || port > 65535 || host.isBlank()) {
                    throw invalid(endpoint);
                }
                return new HostPort(host, port);
            } catch (NumberFormatException ex) {
                throw invalid(endpoint);
            }
        }

        private static IllegalArgumentException invalid(String endpoint) {
            return new IllegalArgumentException("endpoint '" + endpoint + "' is not host:port (e.g. 127.0.0.1:9160)");
        }
    }
}
