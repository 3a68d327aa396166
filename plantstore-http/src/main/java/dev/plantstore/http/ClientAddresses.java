package dev.plantstore.http;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Request;

/**
 * Who a request comes from: from a trusted proxy, the right-most address of {@code X-Forwarded-For} (else of
 * {@code Forwarded}'s {@code for=}) that is not itself a trusted proxy; from any other peer, the peer. So a client can
 * forge only addresses that are never read (Jetty's {@code ForwardedRequestCustomizer} believes any peer).
 * {@code X-Forwarded-For} first, as nginx and HAProxy append to it by default and pass {@code Forwarded} on untouched.
 * An entry that is not an IP literal ends the walk at the last trusted hop; nothing is looked up in DNS.
 */
final class ClientAddresses {

    /** No trusted proxy: every client is its peer. */
    static final ClientAddresses PEERS_ONLY = new ClientAddresses(List.of());

    private static final String X_FORWARDED_FOR = "X-Forwarded-For";
    private static final String FORWARDED = "Forwarded";
    private static final Pattern PORT = Pattern.compile(":\\d{1,5}");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6_CHARACTERS = Pattern.compile("[0-9a-fA-F:][0-9a-fA-F:.]*");
    private static final Pattern PREFIX_LENGTH = Pattern.compile("\\d{1,3}");

    /**
     * A request's client: {@code shown} on its access line, {@code limiterKey} what its refused tokens count under
     * (the address, or for IPv6 its /64, which one subscriber typically holds whole).
     */
    record Client(String shown, String limiterKey) {
    }

    /** An address block: {@code network} with all but its first {@code prefixLength} bits zero. */
    record Block(byte[] network, int prefixLength) {

        boolean contains(InetAddress address) {
            byte[] bytes = address.getAddress();
            if (bytes.length != network.length) {
                return false;
            }
            return Arrays.equals(masked(bytes, prefixLength), network);
        }
    }

    private final List<Block> trusted;

    private ClientAddresses(List<Block> trusted) {
        this.trusted = List.copyOf(trusted);
    }

    /**
     * Trusting the peers in {@code blocks}, each an address ({@code 10.0.0.5}, {@code ::1}) or a CIDR block
     * ({@code 10.0.0.0/8}, {@code 2001:db8::/32}).
     *
     * @throws IllegalArgumentException naming the first that is neither
     */
    static ClientAddresses trusting(Collection<String> blocks) {
        List<Block> parsed = new ArrayList<>();
        for (String block : blocks) {
            parsed.add(parseBlock(block));
        }
        return new ClientAddresses(parsed);
    }

    /** The client of {@code request}; the request's exchange asks once and keeps the answer. */
    Client of(Request request) {
        if (!(request.getConnectionMetaData().getRemoteSocketAddress() instanceof InetSocketAddress socket)
                || socket.getAddress() == null) {
            String given = Request.getRemoteAddr(request);
            String shown = given == null || given.isEmpty() ? "-" : given;
            return new Client(shown, shown);
        }
        InetAddress client = socket.getAddress();
        if (isTrusted(client)) {
            List<String> forwardedFor = request.getHeaders().getValuesList(X_FORWARDED_FOR);
            List<String> hops = !forwardedFor.isEmpty() ? listed(forwardedFor)
                    : forwardedFor(request.getHeaders().getValuesList(FORWARDED));
            for (int i = hops.size() - 1; i >= 0; i--) {
                Optional<InetAddress> hop = parseAddress(hops.get(i));
                if (hop.isEmpty()) {
                    break;
                }
                client = hop.get();
                if (!isTrusted(client)) {
                    break;
                }
            }
        }
        return new Client(client.getHostAddress(), limiterKey(client));
    }

    private boolean isTrusted(InetAddress address) {
        for (Block block : trusted) {
            if (block.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** An IPv4 address as itself; an IPv6 one as its /64 ({@code 2001:db8:0:1::/64}). */
    static String limiterKey(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address.getHostAddress();
        }
        byte[] bytes = address.getAddress();
        var key = new StringBuilder(24);
        for (int group = 0; group < 4; group++) {
            key.append(Integer.toHexString((bytes[2 * group] & 0xff) << 8 | bytes[2 * group + 1] & 0xff)).append(':');
        }
        return key.append(":/64").toString();
    }

    /** The entries of a list header that may come on several lines, in order. */
    private static List<String> listed(List<String> lines) {
        List<String> entries = new ArrayList<>();
        for (String line : lines) {
            for (String entry : line.split(",")) {
                entries.add(entry.strip());
            }
        }
        return entries;
    }

    /** The {@code for=} of each element of {@code Forwarded}; an element without one is an entry that is no address. */
    private static List<String> forwardedFor(List<String> lines) {
        List<String> entries = new ArrayList<>();
        for (String element : listed(lines)) {
            String node = "";
            for (String pair : element.split(";")) {
                String trimmed = pair.strip();
                if (trimmed.regionMatches(true, 0, "for=", 0, 4)) {
                    node = trimmed.substring(4).strip();
                    if (node.length() >= 2 && node.startsWith("\"") && node.endsWith("\"")) {
                        node = node.substring(1, node.length() - 1);
                    }
                }
            }
            entries.add(node);
        }
        return entries;
    }

    private static Block parseBlock(String text) {
        String given = text == null ? "" : text.strip();
        int slash = given.indexOf('/');
        Optional<InetAddress> address = parseLiteral(slash < 0 ? given : given.substring(0, slash));
        if (address.isPresent()) {
            int bits = address.get().getAddress().length * 8;
            int prefixLength = bits;
            if (slash >= 0) {
                String prefix = given.substring(slash + 1);
                prefixLength = PREFIX_LENGTH.matcher(prefix).matches() ? Integer.parseInt(prefix) : -1;
            }
            if (prefixLength >= 0 && prefixLength <= bits) {
                return new Block(masked(address.get().getAddress(), prefixLength), prefixLength);
            }
        }
        throw new IllegalArgumentException("a trusted proxy is an IP address or a CIDR block such as 10.0.0.0/8 or "
                + "2001:db8::/32, got '" + given + "'");
    }

    private static byte[] masked(byte[] address, int prefixLength) {
        byte[] masked = address.clone();
        for (int bit = prefixLength; bit < masked.length * 8; bit++) {
            masked[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return masked;
    }

    /**
     * An address as a forwarding header or a peer gives it: an IP literal, IPv6 perhaps in brackets, either perhaps
     * with a port ({@code 192.0.2.7:4711}, {@code [2001:db8::7]:4711}).
     */
    static Optional<InetAddress> parseAddress(String text) {
        String address = text.strip();
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            if (close < 0 || close + 1 < address.length() && !isPort(address.substring(close + 1))) {
                return Optional.empty();
            }
            return parseLiteral(address.substring(1, close)).filter(Inet6Address.class::isInstance);
        }
        int colon = address.indexOf(':');
        if (colon >= 0 && colon == address.lastIndexOf(':')) {
            return isPort(address.substring(colon)) ? parseLiteral(address.substring(0, colon)) : Optional.empty();
        }
        return parseLiteral(address);
    }

    private static boolean isPort(String colonAndDigits) {
        return PORT.matcher(colonAndDigits).matches();
    }

    /**
     * A dotted-quad IPv4 address or an IPv6 address, without brackets, port or zone. The JDK parses an IPv6 literal
     * without a lookup when it holds a colon; the characters are checked first so that nothing else reaches it.
     */
    private static Optional<InetAddress> parseLiteral(String text) {
        try {
            if (IPV4.matcher(text).matches()) {
                byte[] bytes = new byte[4];
                String[] parts = text.split("\\.");
                for (int i = 0; i < 4; i++) {
                    int part = Integer.parseInt(parts[i]);
                    if (part > 255) {
                        return Optional.empty();
                    }
                    bytes[i] = (byte) part;
                }
                return Optional.of(InetAddress.getByAddress(bytes));
            }
            if (text.length() <= 45 && text.contains(":") && IPV6_CHARACTERS.matcher(text).matches()) {
                return Optional.of(InetAddress.getByName(text));
            }
        } catch (UnknownHostException e) {
            // Not an address: the caller says what that means.
        }
        return Optional.empty();
    }
}
