package dev.tributary.node.grpc;

import dev.tributary.node.auth.AccessControl;
import dev.tributary.node.auth.Principal;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.protocol.v1.AuthServiceGrpc;
import dev.tributary.protocol.v1.LoginRequest;
import dev.tributary.protocol.v1.LoginResponse;
import io.grpc.stub.StreamObserver;

/** AuthService: a role's name and password for a bearer token (see auth.proto). */
public final class AuthGrpcService extends AuthServiceGrpc.AuthServiceImplBase {
    private final AccessControl access;

    public AuthGrpcService(AccessControl access) {
        this.access = access;
    }

    @Override
    public void login(LoginRequest req, StreamObserver<LoginResponse> out) {
        ErrorMapping.answer(out, () -> {
            Principal p = access.login(req.getRole(), req.getPassword());
            AccessControl.IssuedToken t = access.issue(p);
            return LoginResponse.newBuilder().setToken(t.token()).setExpiresAtMillis(t.expiresAtMillis()).setRole(p.name())
                    .build();
        });
    }
}
