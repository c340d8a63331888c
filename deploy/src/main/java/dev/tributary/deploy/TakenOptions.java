package dev.tributary.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Some named options taken out of a command's arguments ({@code --name value} or
 * {@code --name=value}), the rest left for the command: the connection options every client
 * command shares, read before the command's own.
 */
record TakenOptions(Map<String, String> values, List<String> rest) {
    /** @param what what a value is, for the error when one is missing ("a file", "a value") */
    static TakenOptions take(List<String> args, Set<String> names, String what) throws UsageException {
        List<String> rest = new ArrayList<>();
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (!names.contains(name)) {
                rest.add(a);
                continue;
            }
            if (a.contains("=")) {
                values.put(name, a.substring(a.indexOf('=') + 1));
            } else if (i + 1 < args.size()) {
                values.put(name, args.get(++i));
            } else {
                throw new UsageException(name + " needs " + what);
            }
        }
        return new TakenOptions(values, rest);
    }
}
