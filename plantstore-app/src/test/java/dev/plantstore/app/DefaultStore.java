package dev.plantstore.app;

import dev.plantstore.core.CommitListener;
import dev.plantstore.core.PlantStore;
import java.util.List;
import java.util.Optional;

/** A store opened as the server opens it with its options' defaults, no secrets and no webhooks. */
final class DefaultStore {

    private DefaultStore() {
    }

    static PlantStore open(StoreSpec spec, Closing closing) throws StartupException {
        var access = new OpenStore.Access(Options.MIGRATE.defaultValue(), Options.DB_POOL_SIZE.defaultValue());
        var noSecrets = new Options.Secrets(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
        return OpenStore.open(spec, access, noSecrets, CommitListener.NONE, Optional.empty(), List.of(), closing);
    }
}
