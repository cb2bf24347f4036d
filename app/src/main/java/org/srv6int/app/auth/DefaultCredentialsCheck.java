// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.auth;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Warns once at activation when ONOS still has its default credentials. ONOS 2.7 ships
 * {@code karaf/karaf} and {@code onos/rocks} in Karaf's {@code etc/users.properties}, the realm
 * that guards the shell (SSH 8101), the REST API (ours included) and the GUI: anyone who can
 * reach port 8181 can then change chains and netcfg. The check reads
 * {@code ${karaf.etc}/users.properties} (a password kept as plain text, or hashed by Karaf's JAAS
 * encryption with MD5, SHA-1, SHA-256 or SHA-512 in hexadecimal or base64, is recognised) and
 * logs one WARN naming the users that still have their default password; it changes nothing.
 */
@Component(immediate = true)
public final class DefaultCredentialsCheck {

    /** ONOS 2.7's default users and passwords (etc/users.properties of its Karaf). */
    static final Map<String, String> DEFAULTS = defaults();
    private static final String CRYPT = "{CRYPT}";

    private final Logger log = LoggerFactory.getLogger(getClass());

    private static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("karaf", "karaf");
        m.put("onos", "rocks");
        return m;
    }

    @Activate
    void activate() {
        String etc = System.getProperty("karaf.etc");
        if (etc == null) {
            log.debug("karaf.etc not set: default credentials not checked");
            return;
        }
        check(Paths.get(etc, "users.properties"));
    }

    /**
     * Logs one WARN when users of the file still have their default password.
     *
     * @param users Karaf's users.properties
     * @return the users with their default password, empty if none (or the file cannot be read)
     */
    List<String> check(Path users) {
        List<String> left;
        try {
            left = remaining(users);
        } catch (IOException e) {
            log.info("Default credentials not checked: cannot read {}: {}", users, e.toString());
            return List.of();
        }
        if (!left.isEmpty()) {
            log.warn("ONOS still has its default credentials for user(s) {} in {}: anyone reaching the shell, "
                             + "REST or GUI can change chains and netcfg; change the password(s) "
                             + "(docs/install.md, step 2; docs/security.md)", left, users);
        }
        return left;
    }

    /**
     * The users of a Karaf users.properties whose password is still ONOS's default.
     *
     * @param users the file
     * @return user names, in the order of {@link #DEFAULTS}
     * @throws IOException if the file cannot be read
     */
    static List<String> remaining(Path users) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(users, StandardCharsets.ISO_8859_1)) {
            p.load(r);
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> d : DEFAULTS.entrySet()) {
            String v = p.getProperty(d.getKey());
            if (v == null) {
                continue;
            }
            int comma = v.indexOf(',');
            String password = (comma < 0 ? v : v.substring(0, comma)).trim();
            if (isPassword(password, d.getValue())) {
                out.add(d.getKey());
            }
        }
        return out;
    }

    /** Whether a stored password (plain or Karaf's {CRYPT}hash{CRYPT}) is the given one. */
    static boolean isPassword(String stored, String plain) {
        if (!(stored.startsWith(CRYPT) && stored.endsWith(CRYPT) && stored.length() >= 2 * CRYPT.length())) {
            return stored.equals(plain);
        }
        String hash = stored.substring(CRYPT.length(), stored.length() - CRYPT.length());
        for (String alg : List.of("MD5", "SHA-1", "SHA-256", "SHA-512")) {
            byte[] d;
            try {
                d = MessageDigest.getInstance(alg).digest(plain.getBytes(StandardCharsets.UTF_8));
            } catch (NoSuchAlgorithmException e) {
                continue;
            }
            StringBuilder hex = new StringBuilder();
            for (byte b : d) {
                hex.append(String.format(Locale.ROOT, "%02x", b));
            }
            if (hash.equalsIgnoreCase(hex.toString()) || hash.equals(Base64.getEncoder().encodeToString(d))) {
                return true;
            }
        }
        return false;
    }
}
