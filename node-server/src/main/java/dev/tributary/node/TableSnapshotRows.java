package dev.tributary.node;

import com.google.common.collect.Iterators;
import dev.tributary.dictionary.types.CqlType;
import dev.tributary.node.apply.TableSnapshot;
import dev.tributary.node.grpc.ChangeStreamGrpcService;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/** node-apply's table snapshot as the change-stream front reads it (node-fronts does not see node-apply). */
final class TableSnapshotRows implements ChangeStreamGrpcService.Snapshot {
    private final TableSnapshot snap;

    TableSnapshotRows(TableSnapshot snap) {
        this.snap = snap;
    }

    @Override
    public long scn() {
        return snap.scn();
    }

    @Override
    public Map<String, CqlType> types() {
        Map<String, CqlType> types = new HashMap<>();
        snap.columns().forEach(c -> types.put(c.name(), c.type()));
        return types;
    }

    @Override
    public Iterator<ChangeStreamGrpcService.SnapshotRow> rowsAfter(Long afterToken) {
        return Iterators.transform(snap.rowsAfter(afterToken), r -> new ChangeStreamGrpcService.SnapshotRow(r.token(), r.values()));
    }

    @Override
    public void close() {
        snap.close();
    }
}
