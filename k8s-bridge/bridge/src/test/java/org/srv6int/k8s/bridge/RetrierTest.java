// SPDX-License-Identifier: Apache-2.0
package org.srv6int.k8s.bridge;

import java.util.function.Supplier;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * Which failures the bridge retries within its budget.
 */
public class RetrierTest {

    private final Retrier retrier = new Retrier(new BridgeConfig("srv6int-sfc", 10,
            Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofSeconds(5), Duration.ofSeconds(1)));

    private static KubernetesClientException refused() {
        return new KubernetesClientException("connect failed", new IOException(new ConnectException("refused")));
    }

    private static KubernetesClientException forbidden() {
        return new KubernetesClientException("forbidden", 403, null);
    }

    private static <T> Supplier<T> script(List<KubernetesClientException> failures,
                                                            T result, int[] calls) {
        Deque<KubernetesClientException> q = new ArrayDeque<>(failures);
        return () -> {
            calls[0]++;
            if (!q.isEmpty()) {
                throw q.poll();
            }
            return result;
        };
    }

    @Test
    public void forbiddenRightAfterTheServerCameBackIsRetried() {
        int[] calls = {0};
        String r = retrier.call("get", script(List.of(refused(), refused(), forbidden()), "ok", calls));
        assertEquals("ok", r);
        assertEquals(4, calls[0]);
    }

    @Test
    public void forbiddenFromAServerThatWasUpIsFinal() {
        int[] calls = {0};
        try {
            retrier.call("get", script(List.of(forbidden()), "ok", calls));
            fail("403 must not be retried");
        } catch (BridgeException e) {
            assertEquals(1, e.attempts());
            assertEquals(403, e.httpCode());
        }
        assertEquals(1, calls[0]);
    }
}
