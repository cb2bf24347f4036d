// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.auth;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** Which of ONOS 2.7's default users still have their password, read from Karaf's users.properties. */
public class DefaultCredentialsCheckTest {
    /** etc/users.properties as ONOS 2.7 ships it. */
    private static final String ONOS_2_7 = "# Karaf users\n"
            + "karaf = karaf,_g_:admingroup\n"
            + "_g_\\:admingroup = group,admin,manager,viewer,systembundles,ssh\n"
            + "onos = rocks,_g_:admingroup\n";

    private Path file;

    @Before
    public void setUp() throws IOException {
        file = Files.createTempFile("users", ".properties");
    }

    @After
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
    }

    private List<String> remaining(String content) throws IOException {
        Files.writeString(file, content, StandardCharsets.ISO_8859_1);
        return DefaultCredentialsCheck.remaining(file);
    }

    @Test
    public void onosAsShippedHasBothDefaults() throws IOException {
        assertEquals(List.of("karaf", "onos"), remaining(ONOS_2_7));
        assertEquals(List.of("karaf", "onos"), new DefaultCredentialsCheck().check(file));
    }

    @Test
    public void changedPasswordsAreNotNamed() throws IOException {
        assertEquals(List.of("onos"), remaining(ONOS_2_7.replace("karaf = karaf,", "karaf = S3cure-long,")));
        assertEquals(List.of(), remaining(ONOS_2_7.replace("karaf = karaf,", "karaf = x,")
                .replace("onos = rocks,", "onos = rocksolid,")));
        // a removed user is not a default one
        assertEquals(List.of("karaf"), remaining(ONOS_2_7.replace("onos = rocks,_g_:admingroup\n", "")));
        // another user with a default-looking password is not ours to judge
        assertEquals(List.of(), remaining("admin = karaf,_g_:admingroup\n"));
    }

    @Test
    public void hashedDefaultsAreRecognised() throws Exception {
        byte[] sha256 = MessageDigest.getInstance("SHA-256").digest("karaf".getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder();
        for (byte b : sha256) {
            hex.append(String.format("%02x", b));
        }
        byte[] sha512 = MessageDigest.getInstance("SHA-512").digest("rocks".getBytes(StandardCharsets.UTF_8));
        String content = "karaf = {CRYPT}" + hex + "{CRYPT},_g_:admingroup\n"
                + "onos = {CRYPT}" + Base64.getEncoder().encodeToString(sha512) + "{CRYPT},_g_:admingroup\n";
        assertEquals(List.of("karaf", "onos"), remaining(content));
        assertTrue(DefaultCredentialsCheck.isPassword("{CRYPT}" + hex.toString().toUpperCase() + "{CRYPT}", "karaf"));
        assertFalse(DefaultCredentialsCheck.isPassword("{CRYPT}" + hex + "{CRYPT}", "rocks"));
        assertFalse(DefaultCredentialsCheck.isPassword("{CRYPT}{CRYPT}", "karaf"));
    }

    @Test
    public void unreadableFileIsNoWarningAndNoFailure() throws IOException {
        Files.delete(file);
        assertEquals(List.of(), new DefaultCredentialsCheck().check(file));
    }
}
