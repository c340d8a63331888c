package dev.tributary.node.auth;

import dev.tributary.cql.ast.RoleStatement.Permission;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A role's stored form: a format byte, then its fields; permissions as a bit set per resource.
 * Format 2 adds the roles granted to it; format 1 (written before role membership) reads as a
 * role granted none, and is still written for such a role, so nodes from before membership read
 * every role until one is granted another.
 */
public final class RoleCodec {
    private static final int FORMAT = 2;

    private RoleCodec() {
    }

    public static byte[] encode(Role r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            boolean members = !r.memberOf().isEmpty();
            out.writeByte(members ? FORMAT : 1);
            out.writeUTF(r.name());
            out.writeBoolean(r.saltedHash() != null);
            if (r.saltedHash() != null) {
                out.writeUTF(r.saltedHash());
            }
            out.writeBoolean(r.login());
            out.writeBoolean(r.superuser());
            out.writeInt(r.permissions().size());
            for (Map.Entry<String, Set<Permission>> e : r.permissions().entrySet()) {
                out.writeUTF(e.getKey());
                int bits = 0;
                for (Permission p : e.getValue()) {
                    bits |= 1 << p.ordinal();
                }
                out.writeInt(bits);
            }
            if (members) {
                out.writeInt(r.memberOf().size());
                for (String m : r.memberOf()) {
                    out.writeUTF(m);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static Role decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int format = in.readUnsignedByte();
            if (format < 1 || format > FORMAT) {
                throw new IllegalArgumentException("role record format " + format + " is newer than this node knows ("
                        + FORMAT + ")");
            }
            String name = in.readUTF();
            String hash = in.readBoolean() ? in.readUTF() : null;
            boolean login = in.readBoolean();
            boolean superuser = in.readBoolean();
            int n = in.readInt();
            Map<String, Set<Permission>> perms = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                String resource = in.readUTF();
                int bits = in.readInt();
                EnumSet<Permission> set = EnumSet.noneOf(Permission.class);
                for (Permission p : Permission.values()) {
                    if ((bits & (1 << p.ordinal())) != 0) {
                        set.add(p);
                    }
                }
                perms.put(resource, set);
            }
            Set<String> memberOf = new java.util.TreeSet<>();
            if (format >= 2) {
                int m = in.readInt();
                for (int i = 0; i < m; i++) {
                    memberOf.add(in.readUTF());
                }
            }
            return new Role(name, hash, login, superuser, perms, memberOf);
        } catch (IOException e) {
            throw new IllegalArgumentException("damaged role record: " + e.getMessage(), e);
        }
    }
}
