package dev.tributary.node.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.tributary.dictionary.MultiversionDictionary;
import dev.tributary.node.coord.ConsumerGroups;
import dev.tributary.node.errors.InvalidRequestException;
import dev.tributary.node.net.ErrorMapping;
import dev.tributary.protocol.v1.CommitRequest;
import dev.tributary.protocol.v1.CommitResponse;
import dev.tributary.protocol.v1.ConsumerGroupServiceGrpc;
import dev.tributary.protocol.v1.FetchPositionsRequest;
import dev.tributary.protocol.v1.GroupLog;
import dev.tributary.protocol.v1.GroupPositions;
import dev.tributary.protocol.v1.GroupState;
import dev.tributary.protocol.v1.HeartbeatRequest;
import dev.tributary.protocol.v1.JoinRequest;
import dev.tributary.protocol.v1.LeaveRequest;
import dev.tributary.protocol.v1.StreamPosition;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The consumer group calls of groups.proto, over {@link ConsumerGroups}. */
public final class ConsumerGroupGrpcService extends ConsumerGroupServiceGrpc.ConsumerGroupServiceImplBase {
    private final ConsumerGroups groups;
    private final MultiversionDictionary dictionary;
    private final Authentication authentication;
    private final dev.tributary.node.exec.StatementAccess access;

    public ConsumerGroupGrpcService(ConsumerGroups groups, MultiversionDictionary dictionary, Authentication authentication,
            dev.tributary.node.exec.StatementAccess access) {
        this.groups = groups;
        this.dictionary = dictionary;
        this.authentication = authentication;
        this.access = access;
    }

    /** A group is for those who may read its log: SELECT on its table, or on what its queue captures. */
    private void authorize(ConsumerGroups.GroupLog log) {
        dev.tributary.node.auth.Principal p = authentication.principal(null);
        if (!p.checked()) {
            return;
        }
        if (log.queue()) {
            access.authorizeQueue(p, log.name());
        } else {
            int dot = log.name().indexOf('.');
            access.authorizeChanges(p, log.name().substring(0, dot), log.name().substring(dot + 1));
        }
    }

    private void authorizeGroup(String group) {
        if (!authentication.principal(null).checked()) {
            return;
        }
        groups.log(group).ifPresent(this::authorize);
    }

    @Override
    public void join(JoinRequest req, StreamObserver<GroupState> out) {
        ErrorMapping.answer(out, () -> {
            ConsumerGroups.GroupLog log = log(req.getLog());
            authorize(log);
            return toWire(groups.join(req.getGroup(), log, req.getMemberId(), req.getLeaseMillis(), req.getStartMicros()));
        });
    }

    @Override
    public void heartbeat(HeartbeatRequest req, StreamObserver<GroupState> out) {
        ErrorMapping.answer(out, () -> {
            authorizeGroup(req.getGroup());
            return toWire(groups.heartbeat(req.getGroup(), req.getMemberId()));
        });
    }

    @Override
    public void leave(LeaveRequest req, StreamObserver<GroupState> out) {
        ErrorMapping.answer(out, () -> {
            authorizeGroup(req.getGroup());
            return toWire(groups.leave(req.getGroup(), req.getMemberId()));
        });
    }

    @Override
    public void commit(CommitRequest req, StreamObserver<CommitResponse> out) {
        ErrorMapping.answer(out, () -> {
            authorizeGroup(req.getGroup());
            List<byte[]> ids = new ArrayList<>();
            List<byte[]> positions = new ArrayList<>();
            for (StreamPosition p : req.getPositionsList()) {
                if (p.getStreamId().size() != 16) {
                    throw new InvalidRequestException("commit: a stream id has 16 bytes, got " + p.getStreamId().size());
                }
                ids.add(p.getStreamId().toByteArray());
                positions.add(p.toByteArray());
            }
            long low = groups.commit(req.getGroup(), req.getMemberId(), req.getEpoch(), ids, positions, req.getLowWatermarkMicros());
            return CommitResponse.newBuilder().setLowWatermarkMicros(low).build();
        });
    }

    @Override
    public void fetchPositions(FetchPositionsRequest req, StreamObserver<GroupPositions> out) {
        ErrorMapping.answer(out, () -> {
            authorizeGroup(req.getGroup());
            ConsumerGroups.Positions positions = groups.positions(req.getGroup());
            GroupPositions.Builder b = GroupPositions.newBuilder().setEpoch(positions.epoch());
            for (Map.Entry<String, byte[]> e : positions.byStream().entrySet()) {
                try {
                    b.addPositions(StreamPosition.parseFrom(e.getValue()));
                } catch (InvalidProtocolBufferException ex) {
                    throw new IllegalStateException("the committed position of stream " + e.getKey() + " in group "
                            + req.getGroup() + " is corrupt", ex);
                }
            }
            return b.build();
        });
    }

    private ConsumerGroups.GroupLog log(GroupLog log) {
        boolean table = !log.getTable().isEmpty();
        if (table == !log.getQueue().isEmpty()) {
            throw new InvalidRequestException("join: give the group's log as exactly one of table (ks.t) or queue");
        }
        if (table) {
            if (log.getTable().indexOf('.') > 0) {
                // by the name asked, before the table is looked up: a missing table answers as a forbidden one
                authorize(new ConsumerGroups.GroupLog(false, log.getTable()));
            }
            return new ConsumerGroups.GroupLog(false, ChangeStreamGrpcService.cdcTable(dictionary, log.getTable()).qualifiedName());
        }
        return new ConsumerGroups.GroupLog(true, log.getQueue());
    }

    static GroupState toWire(ConsumerGroups.GroupState s) {
        GroupLog.Builder log = GroupLog.newBuilder();
        if (s.log().queue()) {
            log.setQueue(s.log().name());
        } else {
            log.setTable(s.log().name());
        }
        return GroupState.newBuilder().setGroup(s.name()).setLog(log).setEpoch(s.epoch()).addAllMembers(s.members())
                .setLeaseMillis(s.leaseMillis()).setLowWatermarkMicros(s.lowWatermarkMicros())
                .setStartMicros(s.startMicros()).build();
    }
}
