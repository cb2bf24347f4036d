// SPDX-License-Identifier: Apache-2.0
package org.srv6int.testkit;

import java.util.concurrent.ConcurrentHashMap;
import org.onosproject.ui.UiExtension;
import org.onosproject.ui.UiExtensionService;
import org.onosproject.ui.UiView;
import org.onosproject.ui.lion.LionBundle;
import org.osgi.service.component.annotations.Component;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GUI extension registry. There is no GUI here; what ONOS's GUI would do with an extension
 * at registration is done instead: its {@code css.html} and {@code js.html} injections are
 * read and every {@code app/view/<view>/<file>} they name is loaded through the extension's
 * {@link UiExtension#resource}, as the GUI serves it; a missing file is recorded as -1 bytes.
 */
@Component(immediate = true, service = UiExtensionService.class)
public class InMemoryUiExtensionService implements UiExtensionService {

    private static final Pattern REF = Pattern.compile("(?:src|href)=\"app/view/([^/\"]+)/([^\"]+)\"");

    private final List<UiExtension> extensions = new CopyOnWriteArrayList<>();
    private final Map<UiExtension, Map<String, Integer>> loaded = new ConcurrentHashMap<>();

    @Override
    public void register(UiExtension extension) {
        if (extensions.contains(extension)) {
            return;
        }
        Map<String, Integer> files = new LinkedHashMap<>();
        for (String injected : new String[]{read(extension.css()), read(extension.js())}) {
            if (injected == null) {
                continue;
            }
            Matcher m = REF.matcher(injected);
            while (m.find()) {
                String bytes = read(extension.resource(m.group(1), m.group(2)));
                files.put("app/view/" + m.group(1) + "/" + m.group(2), bytes == null ? -1 : bytes.length());
            }
        }
        loaded.put(extension, files);
        extensions.add(extension);
    }

    private static String read(InputStream in) {
        if (in == null) {
            return null;
        }
        try (InputStream s = in) {
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Returns what registration loaded for an extension.
     *
     * @param extension a registered extension
     * @return resource path to size in characters (-1: missing)
     */
    public Map<String, Integer> loadedResources(UiExtension extension) {
        return loaded.getOrDefault(extension, Map.of());
    }

    @Override
    public void unregister(UiExtension extension) {
        extensions.remove(extension);
        loaded.remove(extension);
    }

    @Override
    public List<UiExtension> getExtensions() {
        return new ArrayList<>(extensions);
    }

    @Override
    public UiExtension getViewExtension(String viewId) {
        for (UiExtension e : extensions) {
            for (UiView v : e.views()) {
                if (v.id().equals(viewId)) {
                    return e;
                }
            }
        }
        return null;
    }

    @Override
    public LionBundle getNavLionBundle() {
        return null;
    }

    @Override
    public void refreshModel() {
        // no GUI model to refresh
    }
}
