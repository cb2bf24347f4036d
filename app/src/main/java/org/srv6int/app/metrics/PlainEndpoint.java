// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * The optional plain port: answers {@code GET /metrics} with the exposition text, anything else
 * with 404, one connection at a time on one thread (HTTP/1.1, Connection: close). java.net only,
 * so the bundle imports nothing for it; ONOS's REST path stays the authenticated way.
 */
final class PlainEndpoint implements AutoCloseable {

    private static final int MAX_REQUEST = 8192;
    private static final int TIMEOUT_MS = 5000;

    private final ServerSocket socket;
    private final Supplier<String> body;
    private final Thread thread;

    /**
     * Binds and starts serving.
     *
     * @param address address to bind
     * @param port    port (0: any free port)
     * @param body    exposition text supplier
     * @throws IOException if the address cannot be bound
     */
    PlainEndpoint(String address, int port, Supplier<String> body) throws IOException {
        this.body = body;
        socket = new ServerSocket();
        socket.setReuseAddress(true);
        try {
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), port), 16);
        } catch (IOException e) {
            socket.close();
            throw new IOException("metrics port " + address + ":" + port + ": " + e.getMessage(), e);
        }
        thread = new Thread(this::serve, "srv6int-metrics-http");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return the bound port */
    int port() {
        return socket.getLocalPort();
    }

    /** @return the address the socket is bound to (read from the socket) */
    InetAddress address() {
        return socket.getInetAddress();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket s = socket.accept()) {
                s.setSoTimeout(TIMEOUT_MS);
                answer(s);
            } catch (SocketException e) {
                if (socket.isClosed()) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                // one bad client or render failure: the next connection is served anyway
                continue;
            }
        }
    }

    private void answer(Socket s) throws IOException {
        String requestLine = readHead(s.getInputStream());
        String[] parts = requestLine == null ? new String[0] : requestLine.split(" ");
        OutputStream out = s.getOutputStream();
        if (parts.length < 2 || !"GET".equals(parts[0])) {
            write(out, "405 Method Not Allowed", "text/plain; charset=utf-8", "only GET /metrics\n");
            return;
        }
        String path = parts[1];
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        if (!"/metrics".equals(path)) {
            write(out, "404 Not Found", "text/plain; charset=utf-8", "only GET /metrics\n");
            return;
        }
        String text;
        try {
            text = body.get();
        } catch (RuntimeException e) {
            write(out, "500 Internal Server Error", "text/plain; charset=utf-8", e + "\n");
            return;
        }
        write(out, "200 OK", TextExposition.CONTENT_TYPE, text);
    }

    /** Reads the request head; returns its first line, null if empty or too long. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            head.append((char) c);
            int n = head.length();
            if (n >= 4 && head.substring(n - 4).equals("\r\n\r\n") || n >= 2 && head.substring(n - 2).equals("\n\n")) {
                break;
            }
            if (n > MAX_REQUEST) {
                return null;
            }
        }
        int eol = head.indexOf("\n");
        return eol < 0 ? null : head.substring(0, eol).trim();
    }

    private static void write(OutputStream out, String status, String type, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        String h = "HTTP/1.1 " + status + "\r\nContent-Type: " + type + "\r\nContent-Length: " + b.length
                + "\r\nConnection: close\r\n\r\n";
        out.write(h.getBytes(StandardCharsets.US_ASCII));
        out.write(b);
        out.flush();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing to keep
        }
        thread.interrupt();
    }
}
