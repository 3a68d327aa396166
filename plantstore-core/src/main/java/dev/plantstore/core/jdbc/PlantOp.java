package dev.plantstore.core.jdbc;

import dev.plantstore.core.Plant;
import dev.plantstore.core.TraceContext;
import java.util.Optional;

/** One write as the database applies it. */
sealed interface PlantOp {

    long id();

    /** The trace of the write, which its event keeps. */
    Optional<TraceContext> trace();

    record InsertIfAbsent(long id, Plant plant, Optional<TraceContext> trace) implements PlantOp {
    }

    record Delete(long id, Optional<TraceContext> trace) implements PlantOp {
    }
}
