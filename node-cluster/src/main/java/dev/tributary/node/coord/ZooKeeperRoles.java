package dev.tributary.node.coord;

import dev.tributary.node.auth.Role;
import dev.tributary.node.auth.RoleCodec;
import dev.tributary.node.auth.RoleStore;
import dev.tributary.node.errors.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The cluster's roles, one znode each ({@code auth/roles/<name>}), kept in every node's memory by
 * a watch; changes are compare-and-set on the znode's version, so two nodes granting at once both
 * count. Thread-safe.
 */
public final class ZooKeeperRoles implements RoleStore, AutoCloseable {
    private final CuratorFramework curator;
    private final String path;
    private final CuratorCache cache;
    /** The roles as decoded when the watch last delivered them: a request's check decodes nothing. */
    private final java.util.Map<String, Role> seen = new java.util.concurrent.ConcurrentHashMap<>();

    ZooKeeperRoles(CuratorFramework curator, String root) {
        this.curator = curator;
        this.path = root + "/auth/roles";
        this.cache = CuratorCache.build(curator, path);
        cache.listenable().addListener((type, oldData, data) -> {
            ChildData d = data != null ? data : oldData;
            if (d == null || d.getPath().equals(path)) {
                return;
            }
            String name = d.getPath().substring(path.length() + 1);
            if (type == org.apache.curator.framework.recipes.cache.CuratorCacheListener.Type.NODE_DELETED || data.getData() == null) {
                seen.remove(name);
            } else {
                seen.put(name, RoleCodec.decode(data.getData()));
            }
        });
    }

    /** Starts the watch (once the cluster's root exists). */
    void start() {
        ZooKeeperClients.call("create " + path, () -> {
            try {
                curator.create().creatingParentsIfNeeded().forPath(path);
            } catch (KeeperException.NodeExistsException e) {
                // made by another node
            }
            return null;
        });
        cache.start();
    }

    private String znode(String name) {
        return path + "/" + name;
    }

    /**
     * Whether a role of this name can be a znode: ZooKeeper refuses "/" inside a name, "." and "..",
     * and control and private-use characters. No such role can exist, so a lookup or drop of one
     * finds nothing and a CREATE of one is refused by name.
     */
    static boolean storable(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/")) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= '\u001f' || (c >= '\u007f' && c <= '\u009f') || (c >= '\ud800' && c <= '\uf8ff') || c >= '\ufff0') {
                return false;
            }
        }
        return true;
    }

    @Override
    public Optional<Role> role(String name) {
        Role r = seen.get(name);
        return r != null ? Optional.of(r) : fresh(name);
    }

    @Override
    public Optional<Role> fresh(String name) {
        if (!storable(name)) {
            return Optional.empty();
        }
        return ZooKeeperClients.call("read role " + name, () -> {
            try {
                return Optional.of(RoleCodec.decode(curator.getData().forPath(znode(name))));
            } catch (KeeperException.NoNodeException e) {
                return Optional.empty();
            }
        });
    }

    @Override
    public List<Role> roles() {
        return ZooKeeperClients.call("list roles", () -> {
            List<Role> out = new ArrayList<>();
            for (String child : curator.getChildren().forPath(path)) {
                fresh(child).ifPresent(out::add);
            }
            out.sort(java.util.Comparator.comparing(Role::name));
            return out;
        });
    }

    @Override
    public boolean create(Role role) {
        if (!storable(role.name())) {
            throw new InvalidRequestException("role name '" + role.name() + "' cannot be stored: a role name may not be empty, "
                    + "'.' or '..', nor hold '/' or a control character");
        }
        return ZooKeeperClients.call("create role " + role.name(), () -> {
            try {
                curator.create().creatingParentsIfNeeded().forPath(znode(role.name()), RoleCodec.encode(role));
                return true;
            } catch (KeeperException.NodeExistsException e) {
                return false;
            }
        });
    }

    @Override
    public Optional<Role> update(String name, UnaryOperator<Role> change) {
        if (!storable(name)) {
            return Optional.empty();
        }
        return ZooKeeperClients.call("change role " + name, () -> {
            while (true) {
                Stat stat = new Stat();
                byte[] data;
                try {
                    data = curator.getData().storingStatIn(stat).forPath(znode(name));
                } catch (KeeperException.NoNodeException e) {
                    return Optional.<Role>empty();
                }
                Role next = change.apply(RoleCodec.decode(data));
                try {
                    curator.setData().withVersion(stat.getVersion()).forPath(znode(name), RoleCodec.encode(next));
                    return Optional.of(next);
                } catch (KeeperException.BadVersionException raced) {
                    // another node changed it meanwhile: apply the change to theirs
                } catch (KeeperException.NoNodeException dropped) {
                    return Optional.<Role>empty();
                }
            }
        });
    }

    @Override
    public boolean delete(String name) {
        if (!storable(name)) {
            return false;
        }
        return ZooKeeperClients.call("drop role " + name, () -> {
            try {
                curator.delete().forPath(znode(name));
                return true;
            } catch (KeeperException.NoNodeException e) {
                return false;
            }
        });
    }

    @Override
    public void close() {
        cache.close();
    }
}
