package dev.tributary.cql.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * IPv4 and IPv6 address literals, parsed without any name lookup: text that is not a numeric
 * address is refused, never resolved. Stateless and thread-safe.
 */
public final class InetLiterals {
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9a-fA-F:.]+");

    private InetLiterals() {
    }

    /** @throws IllegalArgumentException when {@code text} is not a numeric IPv4 or IPv6 address */
    public static InetAddress parse(String text) {
        Matcher m = IPV4.matcher(text);
        try {
            if (m.matches()) {
                byte[] b = new byte[4];
                for (int i = 0; i < 4; i++) {
                    int octet = Integer.parseInt(m.group(i + 1));
                    if (octet > 255) {
                        throw new IllegalArgumentException("octet " + octet + " > 255");
                    }
                    b[i] = (byte) octet;
                }
                return InetAddress.getByAddress(b);
            }
            // A literal with ':' made only of hex digits, ':' and '.' is parsed by the JDK as an IPv6
            // literal and refused if malformed; it never reaches the resolver.
            if (text.indexOf(':') >= 0 && IPV6_CHARS.matcher(text).matches()) {
                return InetAddress.getByName(text);
            }
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + e.getMessage());
        }
        throw new IllegalArgumentException("not an IPv4 or IPv6 address");
    }
}
