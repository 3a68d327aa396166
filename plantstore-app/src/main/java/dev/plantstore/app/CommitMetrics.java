package dev.plantstore.app;

import dev.plantstore.core.CommitListener;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The database store's group commits as metrics: how many writes share a commit ({@value #BATCH_SIZE}) and how long
 * a commit takes ({@value #COMMIT_TIME}). A batch of one under load means commits are not being shared; a long
 * commit means the disk or the database is slow.
 */
final class CommitMetrics implements CommitListener {

    static final String BATCH_SIZE = "plantstore.store.commit.writes";
    static final String COMMIT_TIME = "plantstore.store.commit";

    private final DistributionSummary batchSize;
    private final Timer commitTime;

    CommitMetrics(MeterRegistry registry) {
        batchSize = DistributionSummary.builder(BATCH_SIZE)
                .description("Creates and deletes committed together in one transaction")
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256)
                .register(registry);
        commitTime = Timer.builder(COMMIT_TIME)
                .description("Time from a batch's first statement to its commit")
                .serviceLevelObjectives(Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
                        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
                        Duration.ofMillis(250), Duration.ofSeconds(1), Duration.ofSeconds(5))
                .register(registry);
    }

    @Override
    public void committed(int writes, long nanos) {
        batchSize.record(writes);
        commitTime.record(nanos, TimeUnit.NANOSECONDS);
    }
}
