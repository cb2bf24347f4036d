// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.junit.Test;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.ConsistentMap;
import org.onosproject.store.service.ConsistentMapException;
import org.onosproject.store.service.MapEvent;
import org.onosproject.store.service.Serializer;
import org.onosproject.store.service.StorageService;
import org.onosproject.store.service.Versioned;

import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The in-memory consistent map behaves like ONOS's: versions, conditional writes, events,
 * maps shared by name, values through the serializer.
 */
public class InMemoryConsistentMapTest {

    private final StorageService storage = new InMemoryStorageService();

    private ConsistentMap<String, String> map(String name) {
        return storage.<String, String>consistentMapBuilder().withName(name)
                .withSerializer(Serializer.using(KryoNamespaces.BASIC)).build();
    }

    @Test
    public void versionsGrowAndConditionalWritesCompare() {
        ConsistentMap<String, String> m = map("a");
        Versioned<String> v1 = m.putAndGet("k", "x");
        Versioned<String> v2 = m.putAndGet("k", "y");
        assertTrue(v2.version() > v1.version());
        assertFalse("stale version", m.replace("k", v1.version(), "z"));
        assertTrue(m.replace("k", v2.version(), "z"));
        assertFalse(m.replace("k", "y", "w"));
        assertTrue(m.replace("k", "z", "w"));
        assertEquals("w", m.putIfAbsent("k", "q").value());
        assertEquals("w", m.get("k").value());
        assertFalse(m.remove("k", "nope"));
        assertTrue(m.remove("k", "w"));
        assertNull(m.get("k"));
    }

    @Test
    public void listenersHearInsertUpdateRemove() {
        ConsistentMap<String, String> m = map("b");
        List<MapEvent<String, String>> events = new ArrayList<>();
        m.addListener(events::add);
        m.put("k", "x");
        m.put("k", "y");
        m.remove("k");
        m.remove("k");
        assertEquals(3, events.size());
        assertEquals(MapEvent.Type.INSERT, events.get(0).type());
        assertEquals(MapEvent.Type.UPDATE, events.get(1).type());
        assertEquals("x", events.get(1).oldValue().value());
        assertEquals(MapEvent.Type.REMOVE, events.get(2).type());
    }

    @Test
    public void mapsAreSharedByNameAndEveryViewHearsEveryWrite() {
        ConsistentMap<String, String> first = map("c");
        ConsistentMap<String, String> second = map("c");
        List<MapEvent<String, String>> heard = new ArrayList<>();
        second.addListener(heard::add);
        first.put("k", "v");
        assertEquals("v", second.get("k").value());
        assertEquals(1, heard.size());
        assertEquals("k", heard.get(0).key());
    }

    @Test
    public void keysAndValuesAreReadBackDecodedNotAsTheWritersObjects() {
        // As across ONOS's wire: a bundle installed again must get objects of its own classes.
        ConsistentMap<List<String>, List<String>> m = storage.<List<String>, List<String>>consistentMapBuilder()
                .withName("e").withSerializer(Serializer.using(KryoNamespaces.BASIC)).build();
        List<String> key = new ArrayList<>(List.of("chain", "1"));
        List<String> value = new ArrayList<>(List.of("r0", "r1"));
        m.put(key, value);
        List<String> read = m.get(new ArrayList<>(List.of("chain", "1"))).value();
        assertEquals(value, read);
        assertNotSame(value, read);
        assertNotSame(key, m.keySet().iterator().next());
        assertEquals(key, m.keySet().iterator().next());
    }

    @Test
    public void aTypeTheSerializerDoesNotKnowFails() {
        ConsistentMap<String, Object> m = storage.<String, Object>consistentMapBuilder().withName("d")
                .withSerializer(Serializer.using(KryoNamespace.newBuilder().register(String.class).build()))
                .build();
        m.put("k", "fine");
        try {
            m.put("k2", new StringBuilder("unregistered"));
            fail("an unregistered type must not be stored");
        } catch (ConsistentMapException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("StringBuilder"));
        }
        assertFalse(m.containsKey("k2"));
    }

    @Test
    public void nullValuesAreRefused() {
        try {
            map("e").put("k", null);
            fail("null value stored");
        } catch (NullPointerException e) {
            assertTrue(map("e").isEmpty());
        }
    }
}
