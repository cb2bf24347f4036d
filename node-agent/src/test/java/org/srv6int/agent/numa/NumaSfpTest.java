// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.numa;

import org.junit.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

public class NumaSfpTest {

    private static final List<String> RT_BM = List.of("router", "monitor");

    private static NumaSfp engine(NumaSfp.Settings s) {
        return new NumaSfp(NumaProfile.paperTableOne(), 0,
                List.of(new NumaSfp.NodeCapacity(12, 11, 100), new NumaSfp.NodeCapacity(12, 11, 100)), s);
    }

    @Test
    public void maxAllocOfThePapersExample() {
        NumaProfile p = NumaProfile.paperTableOne();
        // §III: RT + BM at 7 Gbps: max((3,20),(2,30)) locally, max((5,30),(4,40)) remotely
        assertEquals(new NumaNeed(3, 30), p.need(RT_BM, 7, true));
        assertEquals(new NumaNeed(5, 40), p.need(RT_BM, 7, false));
        assertNull("remote never reaches 8 Gbps (Table I)", p.need(RT_BM, 8, false));
        assertEquals(7.0, p.maxRate(RT_BM, false), 1e-9);
        assertEquals(10.0, p.maxRate(RT_BM, true), 1e-9);
        assertEquals(5.0, p.achievable(RT_BM, new NumaNeed(3, 29), true), 1e-9);
        // an unprofiled type takes the larger of every row
        assertEquals(new NumaNeed(5, 50), p.need(List.of("nat"), 10, true));
    }

    @Test
    public void placesHighestRateFirstOnTheNicsNodeUntilItIsFull() {
        NumaSfp e = engine(new NumaSfp.Settings());
        Map<String, List<String>> types = new LinkedHashMap<>();
        Map<String, Double> rates = new LinkedHashMap<>();
        for (int i = 1; i <= 3; i++) {
            types.put("c" + i, RT_BM);
        }
        rates.put("c1", 4.0);
        rates.put("c2", 10.0);
        rates.put("c3", 10.0);
        e.placeAll(types, rates);
        // each 10 Gbps chain needs (5,50) locally: two fill the 11 ways / 100 %, the 4 Gbps one goes remote
        assertEquals(0, e.node("c2"));
        assertEquals(0, e.node("c3"));
        assertEquals(1, e.node("c1"));
        e.interval(rates, Set.of());
        assertEquals(new NumaNeed(5, 50), e.allocation("c2"));
        assertEquals(new NumaNeed(3, 20), e.allocation("c1"));
    }

    /** Two chains, the hot one remote; it violates every interval. */
    private static NumaSfp remoteHot(NumaSfp.Settings s) {
        NumaSfp e = engine(s);
        e.pin("low", RT_BM, 0, 3);
        e.pin("hot", RT_BM, 1, 9);
        return e;
    }

    @Test
    public void swapsAfterMoreThanMaxViolationsWhenItGains() {
        NumaSfp e = remoteHot(new NumaSfp.Settings());
        Map<String, Double> rates = Map.of("low", 3.0, "hot", 9.0);
        for (int i = 1; i <= 3; i++) {
            List<NumaDecision> d = e.interval(rates, Set.of("hot"));
            assertTrue("no move after " + i + " violations", d.stream().noneMatch(x
                    -> x.kind() == NumaDecision.Kind.SWAP));
        }
        List<NumaDecision> d = e.interval(rates, Set.of("hot"));
        NumaDecision swap = d.get(0);
        assertEquals(NumaDecision.Kind.SWAP, swap.kind());
        assertEquals("hot", swap.chain());
        assertEquals("low", swap.peer());
        assertTrue(swap.reason(), swap.reason().contains("4 consecutive violations"));
        assertEquals(0, e.node("hot"));
        assertEquals(1, e.node("low"));
        assertEquals(new NumaNeed(4, 30), e.allocation("hot")); // Table I, 9 Gbps local: max((4,30),(4,30))
    }

    @Test
    public void noSwapWithoutAGain() {
        NumaSfp e = engine(new NumaSfp.Settings());
        e.pin("local", RT_BM, 0, 9);
        e.pin("remote", RT_BM, 1, 8);
        // the local chain is above what the remote node carries: not in L_mig, nothing to swap with
        for (int i = 0; i < 10; i++) {
            e.interval(Map.of("local", 9.0, "remote", 8.0), Set.of("remote"));
        }
        assertEquals(1, e.node("remote"));
    }

    @Test
    public void pingPongGuardHoldsAMovedChain() {
        NumaSfp.Settings s = new NumaSfp.Settings();
        s.holdIntervals = 10;
        NumaSfp e = remoteHot(s);
        Map<String, Double> hot = Map.of("low", 3.0, "hot", 9.0);
        for (int i = 0; i < 4; i++) {
            e.interval(hot, Set.of("hot"));
        }
        assertEquals(1, e.node("low"));
        // the rates turn round at once: "low" is now the hot one, on the remote node
        Map<String, Double> turned = Map.of("low", 9.0, "hot", 3.0);
        int movedAt = -1;
        for (int i = 1; i <= 12 && movedAt < 0; i++) {
            for (NumaDecision d : e.interval(turned, Set.of("low"))) {
                if (d.kind() == NumaDecision.Kind.SWAP) {
                    movedAt = i;
                }
            }
        }
        assertEquals("held for 10 intervals after the swap", 10, movedAt);
        assertEquals(0, e.node("low"));
    }

    @Test
    public void staticPlacementNeverMoves() {
        NumaSfp.Settings s = new NumaSfp.Settings();
        s.migrate = false;
        NumaSfp e = remoteHot(s);
        for (int i = 0; i < 20; i++) {
            e.interval(Map.of("low", 3.0, "hot", 9.0), Set.of("hot"));
        }
        assertEquals(1, e.node("hot"));
    }

    @Test(expected = IllegalArgumentException.class)
    public void oneNodeIsRefused() {
        new NumaSfp(NumaProfile.paperTableOne(), 0, List.of(new NumaSfp.NodeCapacity(12, 11, 100)),
                new NumaSfp.Settings());
    }
}
