package com.example.plants;

import dev.plantstore.core.JdbcStoreSettings;
import dev.plantstore.core.NewPlant;
import dev.plantstore.core.PlantStore;
import dev.plantstore.core.PlantStores;
import dev.plantstore.kafka.KafkaSink;
import dev.plantstore.sqlite.SqliteFile;
import java.nio.file.Path;
import javax.sql.DataSource;

public final class SendEventsToKafka {

    /** {@code args}: the brokers, {@code HOST:PORT[,HOST:PORT...]}. */
    public static void main(String[] args) {
        try (SqliteFile file = SqliteFile.open(Path.of("plants.db"));
             PlantStore store = open(file, args[0])) {
            store.create(new NewPlant(1, "Monstera", "aroid"));
            store.delete(1);
        }
    }

    /** A store whose creates and deletes are also records of the topic plant-events on {@code brokers}. */
    static PlantStore open(DataSource dataSource, String brokers) {
        KafkaSink kafka = KafkaSink.to(brokers, KafkaSink.DEFAULT_TOPIC);
        return PlantStores.jdbc(dataSource, JdbcStoreSettings.defaults().withSink(kafka));
    }
}
