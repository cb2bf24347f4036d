// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.onosproject.core.CoreService;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.InvalidConfigException;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.config.NetworkConfigService;
import org.onosproject.net.config.SubjectFactory;
import org.onosproject.net.config.basics.SubjectFactories;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Network configuration registry and service as ONOS's NetworkConfigManager and its store
 * behave: config factories keyed by (subject class key, config key); JSON applied for a key
 * nobody registered yet is kept and becomes a config when its factory registers; a config
 * is built by the factory, initialised with the JSON and checked with {@code isValid()}
 * (invalid: {@link InvalidConfigException}, nothing stored); listeners hear
 * CONFIG_REGISTERED/UNREGISTERED, CONFIG_ADDED/UPDATED (with the previous config) and
 * CONFIG_REMOVED, synchronously.
 */
@Component(immediate = true, service = {NetworkConfigRegistry.class, NetworkConfigService.class})
public class InMemoryNetworkConfigRegistry implements NetworkConfigRegistry {

    private final ObjectMapper mapper = new ObjectMapper();
    private final Map<List<String>, ConfigFactory> factories = new LinkedHashMap<>();
    private final Map<String, SubjectFactory> subjectFactories = new LinkedHashMap<>();
    // subject -> config class -> config
    private final Map<Object, Map<Class, Config>> configs = new LinkedHashMap<>();
    // (subject class key, subject as applied: an object or a REST subject key, config key) -> JSON
    // waiting for its factory
    private final Map<List<Object>, JsonNode> pending = new LinkedHashMap<>();
    private final Listeners<NetworkConfigEvent, NetworkConfigListener> listeners = new Listeners<>();

    /** Subjects of ApplicationId are made by the core service, as in ONOS. */
    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    /** Lets the application subject factory create application ids. */
    @Activate
    public void activate() {
        SubjectFactories.setCoreService(coreService);
    }

    /**
     * Wires the core service outside OSGi.
     *
     * @param core the core service
     * @return this
     */
    public InMemoryNetworkConfigRegistry withCoreService(CoreService core) {
        this.coreService = core;
        activate();
        return this;
    }

    @Override
    public void registerConfigFactory(ConfigFactory configFactory) {
        List<NetworkConfigEvent> events = new ArrayList<>();
        synchronized (this) {
            SubjectFactory sf = configFactory.subjectFactory();
            factories.put(List.of(sf.subjectClassKey(), configFactory.configKey()), configFactory);
            subjectFactories.putIfAbsent(sf.subjectClassKey(), sf);
            events.add(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_REGISTERED, configFactory.configKey(),
                                              configFactory.configClass()));
            for (Map.Entry<List<Object>, JsonNode> p : new ArrayList<>(pending.entrySet())) {
                List<Object> k = p.getKey();
                if (k.get(0).equals(sf.subjectClassKey()) && k.get(2).equals(configFactory.configKey())) {
                    pending.remove(k);
                    events.add(store(subject(sf, k.get(1)), configFactory, p.getValue()));
                }
            }
        }
        events.forEach(listeners::post);
    }

    // A subject kept as an object is the subject; a string is a subject key (the REST path), as ONOS
    // resolves queued configs: an ApplicationId applied before its factory stays that ApplicationId.
    private static Object subject(SubjectFactory sf, Object applied) {
        if (sf.subjectClass().isInstance(applied)) {
            return applied;
        }
        return sf.createSubject(applied.toString());
    }

    @Override
    public void unregisterConfigFactory(ConfigFactory configFactory) {
        synchronized (this) {
            factories.remove(List.of(configFactory.subjectFactory().subjectClassKey(), configFactory.configKey()));
        }
        listeners.post(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_UNREGISTERED,
                                              configFactory.configKey(), configFactory.configClass()));
    }

    @Override
    public synchronized Set<ConfigFactory> getConfigFactories() {
        return new LinkedHashSet<>(factories.values());
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <S, C extends Config<S>> Set<ConfigFactory<S, C>> getConfigFactories(Class<S> subjectClass) {
        return factories.values().stream().filter(f -> f.subjectFactory().subjectClass().equals(subjectClass))
                .map(f -> (ConfigFactory<S, C>) f).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <S, C extends Config<S>> ConfigFactory<S, C> getConfigFactory(Class<C> configClass) {
        return factories.values().stream().filter(f -> f.configClass().equals(configClass)).findFirst()
                .orElse(null);
    }

    @Override
    public synchronized Set<Class> getSubjectClasses() {
        return configs.keySet().stream().map(Object::getClass).collect(Collectors.toSet());
    }

    @Override
    public synchronized SubjectFactory getSubjectFactory(String subjectClassKey) {
        return subjectFactories.get(subjectClassKey);
    }

    @Override
    public synchronized SubjectFactory getSubjectFactory(Class subjectClass) {
        return subjectFactories.values().stream().filter(f -> f.subjectClass().equals(subjectClass)).findFirst()
                .orElse(null);
    }

    @Override
    public synchronized Class<? extends Config> getConfigClass(String subjectClassKey, String configKey) {
        ConfigFactory f = factories.get(List.of(subjectClassKey, configKey));
        return f == null ? null : f.configClass();
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <S> Set<S> getSubjects(Class<S> subjectClass) {
        return configs.keySet().stream().filter(subjectClass::isInstance).map(s -> (S) s)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <S, C extends Config<S>> Set<S> getSubjects(Class<S> subjectClass, Class<C> configClass) {
        return configs.entrySet().stream()
                .filter(e -> subjectClass.isInstance(e.getKey()) && e.getValue().containsKey(configClass))
                .map(e -> (S) e.getKey()).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <S> Set<? extends Config<S>> getConfigs(S subject) {
        return configs.getOrDefault(subject, Map.of()).values().stream().map(c -> (Config<S>) c)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
        return (C) configs.getOrDefault(subject, Map.of()).get(configClass);
    }

    @Override
    public <S, C extends Config<S>> C addConfig(S subject, Class<C> configClass) {
        C existing = getConfig(subject, configClass);
        return existing != null ? existing : applyConfig(subject, configClass, mapper.createObjectNode());
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S, C extends Config<S>> C applyConfig(S subject, Class<C> configClass, JsonNode json) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(json, "json");
        ConfigFactory f = getConfigFactory(configClass);
        if (f == null) {
            throw new IllegalArgumentException("no config factory registered for " + configClass.getName());
        }
        NetworkConfigEvent e;
        synchronized (this) {
            e = store(subject, f, json);
        }
        listeners.post(e);
        return (C) e.config().orElseThrow();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S, C extends Config<S>> C applyConfig(String subjectClassKey, S subject, String configKey,
                                                  JsonNode json) {
        ConfigFactory f;
        synchronized (this) {
            f = factories.get(List.of(subjectClassKey, configKey));
            if (f == null) {
                // kept until a factory for the key registers, as ONOS's store does
                pending.put(List.of(subjectClassKey, subject, configKey), json);
                return null;
            }
        }
        return (C) applyConfig(subject, f.configClass(), json);
    }

    // Builds, validates and stores a config; returns the event to post outside the lock.
    @SuppressWarnings("unchecked")
    private NetworkConfigEvent store(Object subject, ConfigFactory f, JsonNode json) {
        Config c = f.createConfig();
        c.init(subject, f.configKey(), json, mapper, this::onApply);
        boolean valid;
        try {
            valid = c.isValid();
        } catch (RuntimeException ex) {
            throw new InvalidConfigException(f.subjectFactory().subjectClassKey(),
                                             f.subjectFactory().subjectKey(subject), f.configKey(), ex);
        }
        if (!valid) {
            throw new InvalidConfigException(f.subjectFactory().subjectClassKey(),
                                             f.subjectFactory().subjectKey(subject), f.configKey());
        }
        Config prev = configs.computeIfAbsent(subject, s -> new LinkedHashMap<>()).put(f.configClass(), c);
        return new NetworkConfigEvent(prev == null ? NetworkConfigEvent.Type.CONFIG_ADDED
                                              : NetworkConfigEvent.Type.CONFIG_UPDATED,
                                      subject, c, prev, f.configClass());
    }

    // Config.apply(): the config's edited JSON becomes the stored config.
    private void onApply(Config config) {
        applyConfig(config.subject(), config.getClass(), config.node());
    }

    @Override
    public <S, C extends Config<S>> void removeConfig(S subject, Class<C> configClass) {
        Config old;
        synchronized (this) {
            Map<Class, Config> m = configs.get(subject);
            old = m == null ? null : m.remove(configClass);
            if (m != null && m.isEmpty()) {
                configs.remove(subject);
            }
        }
        if (old != null) {
            listeners.post(new NetworkConfigEvent(NetworkConfigEvent.Type.CONFIG_REMOVED, subject, null, old,
                                                  configClass));
        }
    }

    @Override
    public <S> void removeConfig(String subjectClassKey, S subject, String configKey) {
        Class<? extends Config> c = getConfigClass(subjectClassKey, configKey);
        if (c != null) {
            removeConfig(subject, (Class) c);
        } else {
            synchronized (this) {
                pending.keySet().removeIf(k -> k.get(0).equals(subjectClassKey) && k.get(2).equals(configKey)
                        && k.get(1).equals(subject));
            }
        }
    }

    @Override
    public <S> void removeConfig(S subject) {
        List<Class> classes;
        synchronized (this) {
            classes = new ArrayList<>(configs.getOrDefault(subject, Map.of()).keySet());
        }
        classes.forEach(c -> removeConfig(subject, c));
    }

    @Override
    public <S> void removeConfig() {
        List<Object> subjects;
        synchronized (this) {
            subjects = new ArrayList<>(configs.keySet());
            pending.clear();
        }
        subjects.forEach(this::removeConfig);
    }

    @Override
    public void addListener(NetworkConfigListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(NetworkConfigListener listener) {
        listeners.remove(listener);
    }
}
