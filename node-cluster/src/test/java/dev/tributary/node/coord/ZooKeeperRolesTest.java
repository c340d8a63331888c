package dev.tributary.node.coord;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ZooKeeperRolesTest {
    @Test
    @DisplayName("a role name ZooKeeper cannot hold as a znode is not storable (MutatedStatementsIT found DROP ROLE 'r\\n' "
            + "answering a server error)")
    void storableNames() {
        for (String ok : new String[] {"cassandra", "app_writer", "r", "Ünïcode role", "a.b", "with space", "..."}) {
            assertTrue(ZooKeeperRoles.storable(ok), ok);
        }
        for (String bad : new String[] {"", ".", "..", "a/b", "r\n", "tab\there", "nul\0", "del\u007f", "private\ue000"}) {
            assertFalse(ZooKeeperRoles.storable(bad), bad);
        }
    }
}
