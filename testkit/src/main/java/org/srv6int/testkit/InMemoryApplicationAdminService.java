// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import org.onosproject.app.ApplicationAdminService;
import org.onosproject.app.ApplicationEvent;
import org.onosproject.app.ApplicationListener;
import org.onosproject.app.ApplicationState;
import org.onosproject.core.Application;
import org.onosproject.core.ApplicationId;
import org.onosproject.security.Permission;
import org.osgi.service.component.annotations.Component;

import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Application registry: applications added by the test ({@link #add}), activated and
 * deactivated with APP_ACTIVATED / APP_DEACTIVATED events and deactivation hooks run first,
 * as ONOS's ApplicationManager does. Installing from an .oar stream is not modelled (the
 * Karaf step installs the app's feature instead) and fails saying so.
 */
@Component(immediate = true, service = ApplicationAdminService.class)
public class InMemoryApplicationAdminService implements ApplicationAdminService {

    private final Map<ApplicationId, Application> apps = new LinkedHashMap<>();
    private final Map<ApplicationId, ApplicationState> states = new LinkedHashMap<>();
    private final Map<ApplicationId, Set<Permission>> permissions = new LinkedHashMap<>();
    private final Map<ApplicationId, Runnable> hooks = new LinkedHashMap<>();
    private final Listeners<ApplicationEvent, ApplicationListener> listeners = new Listeners<>();

    /**
     * Adds an installed (not active) application.
     *
     * @param app the application
     */
    public void add(Application app) {
        synchronized (this) {
            apps.put(app.id(), app);
            states.put(app.id(), ApplicationState.INSTALLED);
        }
        listeners.post(new ApplicationEvent(ApplicationEvent.Type.APP_INSTALLED, app));
    }

    @Override
    public synchronized Set<Application> getApplications() {
        return new LinkedHashSet<>(apps.values());
    }

    @Override
    public synchronized ApplicationId getId(String name) {
        return apps.keySet().stream().filter(id -> id.name().equals(name)).findFirst().orElse(null);
    }

    @Override
    public synchronized Application getApplication(ApplicationId appId) {
        return apps.get(appId);
    }

    @Override
    public synchronized ApplicationState getState(ApplicationId appId) {
        return states.get(appId);
    }

    @Override
    public synchronized Set<Permission> getPermissions(ApplicationId appId) {
        return permissions.getOrDefault(appId, Set.of());
    }

    @Override
    public synchronized void registerDeactivateHook(ApplicationId appId, Runnable hook) {
        hooks.put(appId, hook);
    }

    @Override
    public Application install(InputStream appDescStream) {
        throw new UnsupportedOperationException("installing an .oar is not modelled by srv6int-testkit");
    }

    @Override
    public void uninstall(ApplicationId appId) {
        deactivate(appId);
        Application a;
        synchronized (this) {
            a = apps.remove(appId);
            states.remove(appId);
        }
        if (a != null) {
            listeners.post(new ApplicationEvent(ApplicationEvent.Type.APP_UNINSTALLED, a));
        }
    }

    private Application known(ApplicationId appId) {
        Application a = apps.get(appId);
        if (a == null) {
            throw new IllegalArgumentException("no application " + appId);
        }
        return a;
    }

    @Override
    public void activate(ApplicationId appId) {
        Application a;
        synchronized (this) {
            a = known(appId);
            if (states.put(appId, ApplicationState.ACTIVE) == ApplicationState.ACTIVE) {
                return;
            }
        }
        listeners.post(new ApplicationEvent(ApplicationEvent.Type.APP_ACTIVATED, a));
    }

    @Override
    public void deactivate(ApplicationId appId) {
        Application a;
        Runnable hook;
        synchronized (this) {
            a = apps.get(appId);
            if (a == null || states.get(appId) != ApplicationState.ACTIVE) {
                return;
            }
            hook = hooks.remove(appId);
        }
        if (hook != null) {
            hook.run();
        }
        synchronized (this) {
            states.put(appId, ApplicationState.INSTALLED);
        }
        listeners.post(new ApplicationEvent(ApplicationEvent.Type.APP_DEACTIVATED, a));
    }

    @Override
    public synchronized void setPermissions(ApplicationId appId, Set<Permission> perms) {
        permissions.put(appId, Set.copyOf(perms));
    }

    @Override
    public void addListener(ApplicationListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(ApplicationListener listener) {
        listeners.remove(listener);
    }
}
