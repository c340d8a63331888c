package dev.tributary.node.grpc;

import dev.tributary.node.auth.AccessControl;
import dev.tributary.node.auth.Principal;
import dev.tributary.node.errors.TributaryException;
import dev.tributary.node.net.BearerToken;
import dev.tributary.node.net.ErrorMapping;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * Who a gRPC call comes from, decided in front of every public service: a client with a bearer
 * token (its role), a peer of this cluster forwarding a client's request (the peer secret: the
 * session it forwards names the role, which the peer authenticated), or anyone, on a node that
 * does not authenticate. Anything else is refused UNAUTHENTICATED before the service sees it; the
 * refusal never repeats the token. Thread-safe.
 */
public final class Authentication {

    /** How a call was let in. */
    private sealed interface Caller permits Client, Peer, Anyone {
    }

    private record Client(Principal principal) implements Caller {
    }

    private record Peer() implements Caller {
    }

    private record Anyone() implements Caller {
    }

    private static final Context.Key<Caller> CALLER = Context.key("tributary-caller");

    private final AccessControl access;
    private final Peers peers;

    public Authentication(AccessControl access, Peers peers) {
        this.access = access;
        this.peers = peers;
    }

    public AccessControl access() {
        return access;
    }

    /** The interceptor in front of each public service. */
    public ServerInterceptor interceptor() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                    ServerCallHandler<Q, R> next) {
                Caller caller;
                try {
                    caller = callerOf(headers);
                } catch (TributaryException e) {
                    io.grpc.StatusRuntimeException refused = ErrorMapping.toStatus(e);
                    call.close(refused.getStatus(), refused.getTrailers());
                    return new ServerCall.Listener<>() {
                    };
                }
                return Contexts.interceptCall(Context.current().withValue(CALLER, caller), call, headers, next);
            }
        };
    }

    private Caller callerOf(Metadata headers) {
        if (!access.authenticates()) {
            return new Anyone();
        }
        if (peers.showsPeerSecret(headers)) {
            return new Peer();
        }
        String auth = headers.get(BearerToken.HEADER);
        if (auth != null && !auth.startsWith(BearerToken.PREFIX)) {
            throw new TributaryException(dev.tributary.node.errors.ErrorCode.UNAUTHENTICATED,
                    "the authorization header must be 'Bearer <token>'");
        }
        return new Client(access.authenticate(auth == null ? null : auth.substring(BearerToken.PREFIX.length()).trim()));
    }

    /**
     * Who the current call runs as. {@code sessionUser} is the user its session names (null when
     * the call has no session): a node that does not authenticate takes the client's word for it,
     * a peer's forwarded request is checked as that role.
     */
    public Principal principal(String sessionUser) {
        Caller c = CALLER.get();
        String named = sessionUser == null || sessionUser.isEmpty() ? "anonymous" : sessionUser;
        if (c instanceof Client client) {
            return client.principal();
        }
        if (c instanceof Peer) {
            return Principal.role(named);
        }
        if (c == null && access.authenticates()) {
            // asked outside the call's context (another thread): refuse rather than let it through unchecked
            throw new TributaryException(dev.tributary.node.errors.ErrorCode.INTERNAL,
                    "no authenticated caller in this context");
        }
        return Principal.unchecked(named);
    }
}
