package dev.tributary.rules.transform;

import dev.tributary.rules.errors.InvalidRuleArgumentException;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The custom transformations known to a node, by case-insensitive name. Immutable and
 * thread-safe once built.
 */
public final class TransformationRegistry {
    private static final TransformationRegistry EMPTY = new TransformationRegistry(Map.of());
    private final Map<String, LcrTransformation> byName;

    private TransformationRegistry(Map<String, LcrTransformation> byName) {
        this.byName = Collections.unmodifiableMap(byName);
    }

    public static TransformationRegistry empty() {
        return EMPTY;
    }

    /**
     * The transformations registered through {@link ServiceLoader} on the given class loader.
     *
     * @throws InvalidRuleArgumentException if two providers use the same name
     * @throws java.util.ServiceConfigurationError if a provider cannot be instantiated
     */
    public static TransformationRegistry load(ClassLoader loader) {
        return of(ServiceLoader.load(LcrTransformation.class, loader).stream().map(ServiceLoader.Provider::get).toList());
    }

    /**
     * A registry of the given transformations.
     *
     * @throws InvalidRuleArgumentException if two have the same name
     */
    public static TransformationRegistry of(List<LcrTransformation> transformations) {
        Map<String, LcrTransformation> map = new TreeMap<>();
        for (LcrTransformation t : transformations) {
            String key = t.name().toUpperCase(Locale.ROOT);
            if (map.putIfAbsent(key, t) != null) {
                throw new InvalidRuleArgumentException("two custom transformations are named " + t.name() + ": "
                        + map.get(key).getClass().getName() + " and " + t.getClass().getName());
            }
        }
        return new TransformationRegistry(map);
    }

    public Optional<LcrTransformation> find(String name) {
        return Optional.ofNullable(byName.get(name.toUpperCase(Locale.ROOT)));
    }

    /** The registered names, upper-cased, sorted. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }
}
