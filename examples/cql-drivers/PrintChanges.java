import com.scylladb.cdc.lib.CDCConsumer;
import com.scylladb.cdc.model.TableName;
import com.scylladb.cdc.model.worker.RawChange;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * scylla-cdc-java's CDCConsumer, unchanged, reading a table's CDC log from a Tributary node's CQL
 * native port: prints each change it receives. Run with the library's jars on the class path
 * (see docs/LOCAL-CLUSTER.md, "CQL drivers and scylla-cdc-java"):
 *
 * <pre>java -cp "$CP" PrintChanges.java HOST PORT KEYSPACE TABLE SECONDS</pre>
 */
public final class PrintChanges {
    public static void main(String[] args) throws Exception {
        InetSocketAddress node = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        CDCConsumer consumer = CDCConsumer.builder()
                .addContactPoint(node)
                .addTable(new TableName(args[2], args[3]))
                .withConsumer((RawChange change) -> {
                    System.out.println(change.getOperationType() + " " + change.getAsObject("pk") + " " + change.getAsObject("v")
                            + " stream " + change.getId().getStreamId());
                    return CompletableFuture.completedFuture(null);
                })
                .withWorkersCount(1)
                .withConfidenceWindowSizeMs(1000) // a Tributary node serves its log behind its safe time already
                .withQueryTimeWindowSizeMs(2000)
                .withSleepBeforeGenerationDoneMs(500) // move on to a newer generation soon after the older one is read
                .build();
        consumer.start();
        Thread.sleep(Long.parseLong(args[4]) * 1000);
        consumer.stop();
    }
}
