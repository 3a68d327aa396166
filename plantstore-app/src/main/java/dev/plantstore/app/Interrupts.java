package dev.plantstore.app;

import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ctrl-C at a terminal. The first interrupt stops the server as SIGTERM does (drain, then a graceful stop, status 0);
 * an interrupt while a stop is under way, whatever began it, ends the process at once with status 130, cutting off what
 * is in flight, for a person who does not want to wait out the drain.
 *
 * <p>The JVM's own handler starts the shutdown hooks on the first interrupt and does nothing on later ones, so seeing a
 * second one takes {@code sun.misc.Signal} (module {@code jdk.unsupported}, there for this use). It is reached
 * reflectively because javac warns about every direct use of it, and the build treats warnings as errors. Where
 * interrupts are ignored (a process started in the background by a shell), the handler is never called.
 */
final class Interrupts {

    /** The status a shell reports for a process ended by SIGINT (128 + 2). */
    static final int STOPPED_AT_ONCE = 130;

    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Console out;

    private Interrupts(Console out) {
        this.out = out;
    }

    /** Takes over SIGINT; if the JVM does not allow it (run with {@code -Xrs}), its own handling stays. */
    static Interrupts install(Console out) {
        Interrupts interrupts = new Interrupts(out);
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object onInterrupt = Proxy.newProxyInstance(Interrupts.class.getClassLoader(), new Class<?>[] {handler},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            interrupts.interrupted();
                            yield null;
                        }
                        case "equals" -> proxy == args[0];
                        case "hashCode" -> System.identityHashCode(proxy);
                        default -> "plantstore's interrupt handler";
                    });
            signal.getMethod("handle", signal, handler)
                    .invoke(null, signal.getConstructor(String.class).newInstance("INT"), onInterrupt);
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            // The JVM's handling of SIGINT stays: every interrupt after the first waits for the graceful stop.
        }
        return interrupts;
    }

    /** Called as a stop begins, by an interrupt or otherwise: an interrupt from now on ends the process at once. */
    void stopping() {
        stopping.set(true);
    }

    private void interrupted() {
        if (stopping.getAndSet(true)) {
            out.println("plantstore stopped at once (second interrupt): requests in flight were cut off");
            out.flush();
            Runtime.getRuntime().halt(STOPPED_AT_ONCE);
        }
        // Runs the shutdown hook, as the JVM's own handler would; this thread is the handler's own and may wait.
        System.exit(STOPPED_AT_ONCE);
    }
}
