package dev.plantstore.core.threads;

import java.util.concurrent.ThreadFactory;

/**
 * The project's own background threads: daemons, so that none keeps a process alive that its embedder ends, each
 * named for what it does, as a thread dump and the logs show it.
 */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** Makes daemon threads named {@code name}. */
    public static ThreadFactory named(String name) {
        return work -> {
            Thread thread = new Thread(work, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
