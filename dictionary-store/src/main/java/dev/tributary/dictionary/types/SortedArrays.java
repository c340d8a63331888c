package dev.tributary.dictionary.types;

import java.util.Arrays;
import java.util.Comparator;

/** Sorting and searching helpers for the value model's sorted collections. */
final class SortedArrays {
    private SortedArrays() {
    }

    /** Binary search over {@code a[0..n)}; index if found, else a negative number. */
    static int search(Object[] a, int n, Object key, Comparator<Object> order) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = order.compare(a[mid], key);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /**
     * Sorts {@code a} and drops duplicates (the first of equal elements stays); returns the
     * distinct count. Input that is already strictly ascending (what decoding Cassandra bytes
     * gives) costs one pass and no sort.
     */
    static int sortDistinct(Object[] a, Comparator<Object> order) {
        int n = a.length;
        boolean ascending = true;
        for (int i = 1; i < n; i++) {
            if (order.compare(a[i - 1], a[i]) >= 0) {
                ascending = false;
                break;
            }
        }
        if (ascending) {
            return n;
        }
        Arrays.sort(a, order); // stable, so the first of equal elements stays first
        int w = 0;
        for (int i = 0; i < n; i++) {
            if (w == 0 || order.compare(a[w - 1], a[i]) != 0) {
                a[w++] = a[i];
            }
        }
        return w;
    }

    /**
     * Sorts keys with their values and drops duplicate keys; the LAST value given for a key wins,
     * as in a CQL map literal. Returns the distinct count; both arrays are rewritten in place.
     */
    static int sortDistinctEntries(Object[] keys, Object[] values, Comparator<Object> order) {
        int n = keys.length;
        boolean ascending = true;
        for (int i = 1; i < n; i++) {
            if (order.compare(keys[i - 1], keys[i]) >= 0) {
                ascending = false;
                break;
            }
        }
        if (ascending) {
            return n;
        }
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (x, y) -> order.compare(keys[x], keys[y]));
        Object[] k = new Object[n];
        Object[] v = new Object[n];
        int w = 0;
        for (int j = 0; j < n; j++) {
            int i = idx[j];
            if (w > 0 && order.compare(k[w - 1], keys[i]) == 0) {
                v[w - 1] = values[i]; // stable sort: later input replaces earlier
            } else {
                k[w] = keys[i];
                v[w] = values[i];
                w++;
            }
        }
        System.arraycopy(k, 0, keys, 0, w);
        System.arraycopy(v, 0, values, 0, w);
        return w;
    }
}
