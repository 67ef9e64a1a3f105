package dev.paddock.layer;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.paddock.common.Json;
import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.util.List;

/** What each repository shares ({@code repository_layers}). */
public final class LayerStore {
    private final Jdbc jdbc;

    public LayerStore(Database db) {
        this.jdbc = db.jdbc();
    }

    /** The repository's shared folders and setup command ({@link LayerConfig#NONE} when it shares nothing). */
    public LayerConfig get(long repositoryId) throws StoreException, LayerException {
        var row = jdbc.queryOne(
                "SELECT folders, setup_command FROM repository_layers WHERE repository_id = ?",
                rs -> new String[] {rs.getString(1), rs.getString(2)},
                repositoryId);
        if (row.isEmpty()) {
            return LayerConfig.NONE;
        }
        try {
            return new LayerConfig(List.of(Json.mapper().readValue(row.get()[0], String[].class)), row.get()[1]);
        } catch (JsonProcessingException e) {
            throw new LayerException("The stored shared folders cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    /** Stores the configuration, or forgets it when it shares no folder. */
    public void set(long repositoryId, LayerConfig config) throws StoreException, LayerException {
        String json;
        try {
            json = Json.mapper().writeValueAsString(config.folders());
        } catch (JsonProcessingException e) {
            throw new LayerException("Cannot write the shared folders: " + e.getOriginalMessage(), e);
        }
        jdbc.inTransaction(tx -> {
            tx.update("DELETE FROM repository_layers WHERE repository_id = ?", repositoryId);
            if (!config.folders().isEmpty()) {
                tx.update(
                        "INSERT INTO repository_layers (repository_id, folders, setup_command) VALUES (?, ?, ?)",
                        repositoryId,
                        json,
                        config.setupCommand());
            }
            return null;
        });
    }
}
