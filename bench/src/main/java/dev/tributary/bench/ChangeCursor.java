package dev.tributary.bench;

import dev.tributary.client.ChangeRecord;
import java.util.Iterator;

/** One read of a change log: LCRs in log order, blocking as they arrive. Close it when leaving early. */
public interface ChangeCursor extends Iterator<ChangeRecord>, AutoCloseable {
    @Override
    void close();
}
