// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.obs;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Serves {@code GET /metrics} (Prometheus text format 0.0.4) and
 * {@code GET /healthz} with the JDK's HTTP server on one daemon thread.
 */
public final class MetricsServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;

    /**
     * Binds and starts the server.
     *
     * @param address "host:port" ("127.0.0.1:9464"; port 0 picks a free one)
     * @param body produces the exposition text
     * @throws IOException if the address cannot be bound
     */
    public MetricsServer(String address, Supplier<String> body) throws IOException {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IOException("metricsAddress '" + address + "' is not host:port");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IOException("metricsAddress '" + address + "': bad port", e);
        }
        server = HttpServer.create(new InetSocketAddress(host, port), 16);
        server.createContext("/metrics", ex -> {
            try {
                if (!"GET".equals(ex.getRequestMethod())) {
                    ex.sendResponseHeaders(405, -1);
                    return;
                }
                byte[] b = body.get().getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                ex.sendResponseHeaders(200, b.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(b);
                }
            } finally {
                ex.close();
            }
        });
        server.createContext("/healthz", ex -> {
            try {
                byte[] b = "ok\n".getBytes(StandardCharsets.US_ASCII);
                ex.sendResponseHeaders(200, b.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(b);
                }
            } finally {
                ex.close();
            }
        });
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "metrics-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.start();
    }

    /**
     * The bound port.
     *
     * @return port
     */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
