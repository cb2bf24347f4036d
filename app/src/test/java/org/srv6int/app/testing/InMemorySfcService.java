package org.srv6int.app.testing;

import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.SfcEvent;
import org.srv6int.app.api.SfcException;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.SfcListener;
import org.srv6int.app.api.SfcService;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The chain service of a test that does not need the app's stores: chains by id, and the
 * SfcManager's contract — adding an existing chain (CONFLICT), or updating or removing a
 * missing one (NOT_FOUND) fails; every change is announced to the listeners, synchronously.
 */
public final class InMemorySfcService implements SfcService {

    private final Map<SfcId, Sfc> chains = new TreeMap<>();
    private final List<SfcListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * Creates the service holding some chains.
     *
     * @param initial chains it starts with
     */
    public InMemorySfcService(Sfc... initial) {
        for (Sfc s : initial) {
            chains.put(s.id(), s);
        }
    }

    @Override
    public synchronized List<Sfc> getSfcs() {
        return List.copyOf(chains.values());
    }

    @Override
    public synchronized Optional<Sfc> getSfc(SfcId id) {
        return Optional.ofNullable(chains.get(id));
    }

    @Override
    public void addSfc(Sfc sfc) {
        synchronized (this) {
            if (chains.putIfAbsent(sfc.id(), sfc) != null) {
                throw new SfcException(SfcException.Reason.CONFLICT, "chain " + sfc.id() + " exists");
            }
        }
        post(new SfcEvent(SfcEvent.Type.SFC_ADDED, sfc));
    }

    @Override
    public void updateSfc(Sfc sfc) {
        synchronized (this) {
            if (chains.replace(sfc.id(), sfc) == null) {
                throw notFound(sfc.id());
            }
        }
        post(new SfcEvent(SfcEvent.Type.SFC_UPDATED, sfc));
    }

    @Override
    public Sfc removeSfc(SfcId id) {
        Sfc old;
        synchronized (this) {
            old = chains.remove(id);
        }
        if (old == null) {
            throw notFound(id);
        }
        post(new SfcEvent(SfcEvent.Type.SFC_REMOVED, old));
        return old;
    }

    private static SfcException notFound(SfcId id) {
        return new SfcException(SfcException.Reason.NOT_FOUND, "chain " + id + " not found");
    }

    private void post(SfcEvent e) {
        listeners.forEach(l -> l.event(e));
    }

    @Override
    public void addListener(SfcListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(SfcListener listener) {
        listeners.remove(listener);
    }

    /**
     * Returns how many listeners are registered (a component must remove its own when it stops).
     *
     * @return listener count
     */
    public int listenerCount() {
        return listeners.size();
    }
}
