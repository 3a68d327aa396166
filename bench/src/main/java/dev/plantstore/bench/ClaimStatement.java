package dev.plantstore.bench;

import java.lang.reflect.Field;

/**
 * Prints the claim statement the PostgreSQL outbox runs, with {@code $1 ... $n} for its parameters, so that
 * {@code bench/webhooks backlog} can {@code PREPARE} and {@code EXPLAIN} exactly what the store executes rather
 * than a copy that could drift from it: {@code java -cp bench.jar dev.plantstore.bench.ClaimStatement}.
 */
public final class ClaimStatement {

    private ClaimStatement() {
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        System.out.println(numbered(postgresClaim()));
    }

    /** The outbox keeps the statement to itself; a benchmark may look. */
    static String postgresClaim() throws ReflectiveOperationException {
        Field claim = Class.forName("dev.plantstore.core.jdbc.PostgresSql").getDeclaredField("CLAIM");
        claim.setAccessible(true);
        return (String) claim.get(null);
    }

    /** JDBC's {@code ?} placeholders as PostgreSQL's {@code $1}, {@code $2} ...; the statement has no literal '?'. */
    static String numbered(String jdbcSql) {
        var sql = new StringBuilder();
        int parameter = 0;
        for (char c : jdbcSql.toCharArray()) {
            if (c == '?') {
                sql.append('$').append(++parameter);
            } else {
                sql.append(c);
            }
        }
        return sql.toString();
    }
}
