// SPDX-License-Identifier: Apache-2.0
import org.srv6int.agent.obs.AppCredentials;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The node agent's HTTPS to the app, as the shipped DaemonSet configures it, against the Karaf
 * step's HTTPS port (tools/karaf/karaf-it, [3b]): the escalation URL of the shipped agent.json
 * (its host and path; the port is Karaf's), trust from the agent's own AppCredentials with the
 * CA file the ConfigMap srv6int-onos-ca would hold, and the agent's bearer-token header.
 * Run with the agent's jar on the class path and -Djdk.net.hosts.file naming the URL's host.
 * Usage: java -cp node-agent.jar AgentTlsCheck AGENT_JSON HTTPS_PORT CA_FILE TOKEN_FILE
 * Prints "status N" for an HTTP answer; "tls-error <exception>" (exit 2) when TLS fails,
 * "io-error <exception>" (exit 3) for any other failure.
 */
public final class AgentTlsCheck {
    private AgentTlsCheck() {
    }

    public static void main(String[] args) throws Exception {
        String json = Files.readString(Path.of(args[0]));
        Matcher m = Pattern.compile("\"escalationUrl\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalArgumentException("no escalationUrl in " + args[0]);
        }
        URI shipped = URI.create(m.group(1));
        URI url = new URI(shipped.getScheme(), null, shipped.getHost(), Integer.parseInt(args[1]), shipped.getPath(),
                          null, null);
        AppCredentials c = AppCredentials.open(args[3], args[2]);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).sslContext(c.ssl()).build();
        HttpRequest req = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(20))
                .header("Authorization", c.authorization().get()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        System.out.println("url " + url);
        try {
            HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
            System.out.println("status " + r.statusCode() + " " + r.body().replace('\n', ' '));
        } catch (IOException e) {
            boolean tls = false;
            for (Throwable t = e; t != null; t = t.getCause()) {
                tls |= t instanceof SSLException;
            }
            System.out.println((tls ? "tls-error " : "io-error ") + e);
            System.exit(tls ? 2 : 3);
        }
    }
}
