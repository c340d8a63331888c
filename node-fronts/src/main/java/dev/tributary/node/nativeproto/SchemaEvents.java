package dev.tributary.node.nativeproto;

import com.datastax.oss.protocol.internal.ProtocolConstants.SchemaChangeTarget;
import com.datastax.oss.protocol.internal.ProtocolConstants.SchemaChangeType;
import com.datastax.oss.protocol.internal.response.event.SchemaChangeEvent;
import dev.tributary.dictionary.DictionaryVersion;
import dev.tributary.dictionary.schema.KeyspaceDef;
import dev.tributary.dictionary.schema.TableDef;
import dev.tributary.dictionary.schema.UserTypeDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The SCHEMA_CHANGE events between two versions of the dictionary: what drivers registered for
 * schema events are told, whichever node made the change. Keyspaces come first when created and
 * last when dropped, as drivers expect their tables inside them. Pure.
 */
final class SchemaEvents {
    private SchemaEvents() {
    }

    static List<SchemaChangeEvent> between(DictionaryVersion before, DictionaryVersion after) {
        List<SchemaChangeEvent> created = new ArrayList<>();
        List<SchemaChangeEvent> changed = new ArrayList<>();
        List<SchemaChangeEvent> dropped = new ArrayList<>();
        Map<String, KeyspaceDef> oldKs = byName(before.keyspaces());
        Map<String, KeyspaceDef> newKs = byName(after.keyspaces());
        for (KeyspaceDef k : newKs.values()) {
            KeyspaceDef o = oldKs.get(k.name());
            if (o == null) {
                created.add(keyspace(SchemaChangeType.CREATED, k.name()));
            } else if (!o.equals(k)) {
                changed.add(keyspace(SchemaChangeType.UPDATED, k.name()));
            }
        }
        diff(tables(before), tables(after), SchemaChangeTarget.TABLE, changed, dropped);
        diff(types(before), types(after), SchemaChangeTarget.TYPE, changed, dropped);
        for (String k : oldKs.keySet()) {
            if (!newKs.containsKey(k)) {
                dropped.add(keyspace(SchemaChangeType.DROPPED, k));
            }
        }
        List<SchemaChangeEvent> out = new ArrayList<>(created);
        out.addAll(changed);
        out.addAll(dropped);
        return out;
    }

    private static SchemaChangeEvent keyspace(String change, String ks) {
        return new SchemaChangeEvent(change, SchemaChangeTarget.KEYSPACE, ks, null, List.of());
    }

    /** Objects of one target (tables, types) keyed by keyspace and name. */
    private record Key(String keyspace, String name) {
    }

    private static Map<String, KeyspaceDef> byName(List<KeyspaceDef> keyspaces) {
        Map<String, KeyspaceDef> out = new LinkedHashMap<>();
        keyspaces.forEach(k -> out.put(k.name(), k));
        return out;
    }

    private static Map<Key, Object> tables(DictionaryVersion v) {
        Map<Key, Object> out = new LinkedHashMap<>();
        for (TableDef t : v.tables()) {
            out.put(new Key(t.keyspace(), t.name()), t);
        }
        return out;
    }

    private static Map<Key, Object> types(DictionaryVersion v) {
        Map<Key, Object> out = new LinkedHashMap<>();
        for (UserTypeDef t : v.userTypes()) {
            out.put(new Key(t.keyspace(), t.name()), t);
        }
        return out;
    }

    private static void diff(Map<Key, Object> before, Map<Key, Object> after, String target,
            List<SchemaChangeEvent> changed, List<SchemaChangeEvent> dropped) {
        for (Map.Entry<Key, Object> e : after.entrySet()) {
            Object o = before.get(e.getKey());
            if (o == null) {
                changed.add(event(SchemaChangeType.CREATED, target, e.getKey()));
            } else if (!Objects.equals(o, e.getValue())) {
                changed.add(event(SchemaChangeType.UPDATED, target, e.getKey()));
            }
        }
        for (Key k : before.keySet()) {
            if (!after.containsKey(k)) {
                dropped.add(0, event(SchemaChangeType.DROPPED, target, k));
            }
        }
    }

    private static SchemaChangeEvent event(String change, String target, Key k) {
        return new SchemaChangeEvent(change, target, k.keyspace(), k.name(), List.of());
    }
}
