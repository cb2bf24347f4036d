// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.obs;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * How the agent proves who it is to the app: its own projected ServiceAccount token (audience
 * {@code srv6int.org/agent}, bound to its pod and so to its node), sent as
 * {@code Authorization: Bearer}, read from its file before every request because the kubelet
 * rotates it; and the CA the app's HTTPS certificate is checked against. Both are checked once at
 * start-up: a missing, unreadable or empty token file, or a CA file without a certificate, stops
 * the agent with the reason, rather than letting every report be refused later.
 */
public final class AppCredentials {

    private final Path tokenFile;
    private final SSLContext ssl;

    private AppCredentials(Path tokenFile, SSLContext ssl) {
        this.tokenFile = tokenFile;
        this.ssl = ssl;
    }

    /**
     * Checks and opens the credentials.
     *
     * @param tokenFile the token's file (required)
     * @param caFile    PEM file of the CA(s) to trust for https, null or empty for the JVM's trust store
     * @return credentials
     * @throws IOException naming the file and what is wrong with it
     */
    public static AppCredentials open(String tokenFile, String caFile) throws IOException {
        if (tokenFile == null || tokenFile.isEmpty()) {
            throw new IOException("escalationUrl is set but tokenFile is not: the agent authenticates to the app with "
                    + "its projected ServiceAccount token (docs/security.md)");
        }
        Path token = Path.of(tokenFile);
        read(token); // fails here, at start, with the reason
        return new AppCredentials(token, caFile == null || caFile.isEmpty() ? null : trust(Path.of(caFile)));
    }

    private static String read(Path token) throws IOException {
        String t;
        try {
            t = Files.readString(token, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IOException("tokenFile " + token + " cannot be read (" + e + "): mount the agent's projected "
                    + "ServiceAccount token there (docs/install.md)", e);
        }
        if (t.isEmpty()) {
            throw new IOException("tokenFile " + token + " is empty");
        }
        return t;
    }

    private static SSLContext trust(Path caFile) throws IOException {
        try (InputStream in = Files.newInputStream(caFile)) {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certs.isEmpty()) {
                throw new IOException("caFile " + caFile + " holds no certificate");
            }
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : certs) {
                ks.setCertificateEntry("ca" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("caFile " + caFile + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IOException("caFile " + caFile + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * The Authorization header, from the token file as it is now.
     *
     * @return supplier; throws UncheckedIOException if the file became unreadable
     */
    public Supplier<String> authorization() {
        return () -> {
            try {
                return "Bearer " + read(tokenFile);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /**
     * The TLS context trusting the configured CA.
     *
     * @return context, null for the JVM's default
     */
    public SSLContext ssl() {
        return ssl;
    }
}
