package dev.tributary.rules.bench;

import dev.tributary.rules.CompiledRuleSets;
import dev.tributary.rules.EvaluationResult;
import dev.tributary.rules.LcrInput;
import dev.tributary.rules.PartialInput;
import dev.tributary.rules.PrefilterDecision;
import dev.tributary.rules.RuleCatalog;
import dev.tributary.rules.StreamsClient;
import dev.tributary.rules.StreamsRuleOptions;
import dev.tributary.rules.StreamsRulesResult;
import dev.tributary.rules.SubsetRulesResult;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Prefiltering and full-evaluation rates of one capture's positive rule set holding
 * {@code tableRules} system-made table rules (hr.t0, hr.t1, ...) plus 100 subset rules
 * (department_id = i on hr.t0 .. hr.t99). The same 1024 changes are used whatever the number of
 * rules, so each change meets the same rules in both settings and only the size of the rule set
 * differs: half go to hr.t0 .. hr.t9 (a table rule and three subset rules each), a quarter to hr
 * tables no rule names, a quarter to another keyspace; INSERT, UPDATE and DELETE, with
 * department_id values that select some rows and not others. Single-threaded.
 *
 * <p>Not a unit test (the name does not end in Test), so {@code mvn install} compiles it but never
 * runs it. Run it with {@code rules-engine/run-bench.sh} from the project root (it compiles the
 * test classes, writes the class path with maven-dependency-plugin and starts this class's
 * {@link #main}); JMH's own options may follow, e.g. {@code run-bench.sh -f 1 -i 10}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RulesBench {
    private static final int INPUTS = 1024;
    private static final String[] COMMANDS = {"INSERT", "UPDATE", "DELETE"};

    @Param({"10", "10000"})
    public int tableRules;

    private CompiledRuleSets sets;
    private PartialInput[] partials;
    private LcrInput[] fulls;
    private int next;

    @Setup
    public void setUp() {
        RuleCatalog catalog = new RuleCatalog("DB1", "strmadmin");
        StreamsClient client = StreamsClient.capture("CAPTURE_HR", Optional.empty(), Optional.empty());
        for (int i = 0; i < tableRules; i++) {
            StreamsRulesResult r = catalog.addTableRules(client, "hr.t" + i, StreamsRuleOptions.DEFAULTS);
            client = client.withRuleSet(r.role(), r.ruleSet());
        }
        for (int i = 0; i < 100; i++) {
            SubsetRulesResult r = catalog.addSubsetRules(client, "hr.t" + i, "department_id = " + i, false, Optional.empty());
            client = client.withRuleSet(dev.tributary.rules.RuleSetRole.POSITIVE, r.ruleSet());
        }
        sets = catalog.compile(client);
        Random random = new Random(42);
        partials = new PartialInput[INPUTS];
        fulls = new LcrInput[INPUTS];
        for (int i = 0; i < INPUTS; i++) {
            int kind = random.nextInt(4);
            String owner = kind == 3 ? "OE" : "HR";
            String table = kind <= 1 ? "T" + random.nextInt(10) : "X" + random.nextInt(100);
            String command = COMMANDS[random.nextInt(COMMANDS.length)];
            LcrInput.Builder b = LcrInput.builder().sourceDatabaseName("DB1").object(owner, table).commandType(command);
            if (!command.equals("INSERT")) {
                b.oldValue("id", i).oldValue("department_id", random.nextInt(20));
            }
            if (!command.equals("DELETE")) {
                b.newValue("department_id", random.nextInt(20)).newValue("salary", 1000 + i);
            }
            fulls[i] = b.build();
            partials[i] = fulls[i].toPartial();
        }
    }

    @Benchmark
    public PrefilterDecision prefilter() {
        return sets.decide(partials[next++ & (INPUTS - 1)]);
    }

    @Benchmark
    public EvaluationResult fullEvaluation() {
        return sets.evaluate(fulls[next++ & (INPUTS - 1)]);
    }

    /** Runs the benchmark with the annotated settings, or with JMH's command-line options when given. */
    public static void main(String[] args) throws RunnerException, java.io.IOException {
        if (args.length > 0) {
            org.openjdk.jmh.Main.main(args);
            return;
        }
        Options options = new OptionsBuilder().include(RulesBench.class.getName()).build();
        new Runner(options).run();
    }
}
