package dev.tributary.node.transport;

import dev.tributary.node.coord.TransportSettings;
import dev.tributary.node.errors.ErrorCode;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.errors.TributaryException;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.function.Function;

/**
 * Calls into the Tributary cluster a database link leads to: over this node's TLS, logged in as
 * the link's user, trying the link's endpoints in turn until one answers. Thread-safe.
 */
public final class LinkCalls {
    private final dev.tributary.node.net.Tls tls;
    private final LinkLogins logins;

    public LinkCalls(dev.tributary.node.net.Tls tls, LinkLogins logins) {
        this.tls = tls;
        this.logins = logins;
    }

    /**
     * The channel to one endpoint of a link, its calls logged in as the link's user (logging in
     * may fail with a {@link StatusRuntimeException}).
     */
    public Channel channel(TransportSettings.Link link, String endpoint) {
        return logins.channel(link, endpoint, tls.channel(endpoint));
    }

    /**
     * Runs {@code f} on the first endpoint that answers.
     *
     * @param what what the call does, for the errors
     * @throws InvalidRequestException the target answered with an error
     * @throws TributaryException      ({@link ErrorCode#UNAVAILABLE}) no endpoint answered
     */
    public <T> T call(TransportSettings.Link link, String what, Function<Channel, T> f) {
        StatusRuntimeException failure = null;
        for (String endpoint : link.endpoints()) {
            try {
                return f.apply(channel(link, endpoint));
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.UNAUTHENTICATED) {
                    logins.forget(link); // an expired or revoked token: the next call logs in again
                }
                if (e.getStatus().getCode() != Status.Code.UNAVAILABLE && e.getStatus().getCode() != Status.Code.DEADLINE_EXCEEDED) {
                    throw new InvalidRequestException(what + " through database link " + link.name() + " failed: "
                            + e.getStatus().getDescription());
                }
                failure = e; // that endpoint is down: the next one
            }
        }
        throw new TributaryException(ErrorCode.UNAVAILABLE, what + ": no endpoint of database link " + link.name() + " ("
                + link.target() + ") answers" + (failure == null ? "" : ": " + failure.getStatus()), failure);
    }
}
