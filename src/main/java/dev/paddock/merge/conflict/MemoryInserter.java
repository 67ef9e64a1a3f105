package dev.paddock.merge.conflict;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.PackParser;

/**
 * An object inserter that keeps what a merger writes (merged blobs, trees, the virtual merge base of a
 * criss-cross merge) in memory, so an in-core merge leaves the repository's object store untouched. Its
 * readers see those objects first, then the repository's. One merge's worth of objects; not for pack data.
 */
final class MemoryInserter extends ObjectInserter {
    private record Stored(int type, byte[] data) {}

    private final Repository repository;
    private final Map<ObjectId, Stored> objects = new ConcurrentHashMap<>();

    MemoryInserter(Repository repository) {
        this.repository = repository;
    }

    @Override
    public ObjectId insert(int type, long length, InputStream in) throws IOException {
        byte[] data = in.readNBytes((int) length);
        if (data.length != length) {
            throw new IOException("short object: " + data.length + " of " + length + " bytes");
        }
        ObjectId id = idFor(type, data);
        objects.putIfAbsent(id, new Stored(type, data));
        return id;
    }

    /** Not supported: a merge inserts single objects, never packs. */
    @Override
    public PackParser newPackParser(InputStream in) {
        throw new UnsupportedOperationException("an in-memory merge does not receive packs");
    }

    @Override
    public ObjectReader newReader() {
        return new Reader(repository.newObjectReader());
    }

    /** Nothing to flush: the objects stay in memory. */
    @Override
    public void flush() {}

    @Override
    public void close() {}

    /** Reads the inserted objects, then the repository's. */
    private final class Reader extends ObjectReader.Filter {
        private final ObjectReader delegate;

        Reader(ObjectReader delegate) {
            this.delegate = delegate;
        }

        @Override
        protected ObjectReader delegate() {
            return delegate;
        }

        @Override
        public ObjectReader newReader() {
            return new Reader(delegate.newReader());
        }

        @Override
        public ObjectInserter getCreatedFromInserter() {
            return MemoryInserter.this;
        }

        @Override
        public boolean has(AnyObjectId id) throws IOException {
            return objects.containsKey(id) || delegate.has(id);
        }

        @Override
        public boolean has(AnyObjectId id, int typeHint) throws IOException {
            return objects.containsKey(id) || delegate.has(id, typeHint);
        }

        @Override
        public ObjectLoader open(AnyObjectId id) throws IOException {
            return open(id, OBJ_ANY);
        }

        @Override
        public ObjectLoader open(AnyObjectId id, int typeHint) throws IOException {
            Stored s = objects.get(id);
            if (s == null) {
                return delegate.open(id, typeHint);
            }
            if (typeHint != OBJ_ANY && typeHint != s.type()) {
                throw new MissingObjectException(id.copy(), typeHint);
            }
            return new ObjectLoader.SmallObject(s.type(), s.data());
        }

        @Override
        public long getObjectSize(AnyObjectId id, int typeHint) throws IOException {
            Stored s = objects.get(id);
            return s == null ? delegate.getObjectSize(id, typeHint) : s.data().length;
        }
    }
}
