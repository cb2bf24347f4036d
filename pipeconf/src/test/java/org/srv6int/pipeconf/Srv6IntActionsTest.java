// SPDX-License-Identifier: Apache-2.0
package org.srv6int.pipeconf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.PortNumber;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;

public class Srv6IntActionsTest {

    private static ImmutableByteSequence param(PiAction a, PiActionParamId id) {
        return a.parameters().stream().filter(p -> p.id().equals(id)).map(PiActionParam::value)
                .findFirst().orElseThrow();
    }

    @Test
    public void encapsPutsTheEgressSidInSegmentZero() throws Exception {
        Ip6Address a = Ip6Address.valueOf("fc00:0:2::f1");
        Ip6Address b = Ip6Address.valueOf("fc00:0:3::f2");
        Ip6Address dt = Ip6Address.valueOf("fc00:0:4::d4");
        PiAction act = Srv6IntActions.hEncapsInt(List.of(a, b, dt));
        assertEquals(ImmutableByteSequence.copyFrom(3).fit(8), param(act, Srv6IntConstants.LAST_ENTRY));
        assertEquals(ImmutableByteSequence.copyFrom(dt.toOctets()), param(act, Srv6IntConstants.S0));
        assertEquals(ImmutableByteSequence.copyFrom(b.toOctets()), param(act, Srv6IntConstants.S1));
        assertEquals(ImmutableByteSequence.copyFrom(a.toOctets()), param(act, Srv6IntConstants.S2));
        assertEquals(ImmutableByteSequence.ofZeros(16), param(act, Srv6IntConstants.S6));
        assertEquals(8, act.parameters().size());
    }

    @Test(expected = IllegalArgumentException.class)
    public void encapsRejectsMoreThanSevenSegments() {
        Ip6Address s = Ip6Address.valueOf("fc00::1");
        Srv6IntActions.hEncapsInt(List.of(s, s, s, s, s, s, s, s));
    }

    @Test(expected = IllegalArgumentException.class)
    public void encapsRejectsAnEmptyPath() {
        Srv6IntActions.hEncapsInt(List.of());
    }

    @Test
    public void valuesOutsideTheirWidthAreRejected() {
        MacAddress m = MacAddress.valueOf("02:00:00:00:00:01");
        Runnable[] bad = {
            () -> Srv6IntActions.setChain(65536, false, 0x1F, 1),
            () -> Srv6IntActions.setChain(1, false, 0x20, 1),
            () -> Srv6IntActions.setChain(-1, false, 0x1F, 1),
            () -> Srv6IntActions.setNextHop(PortNumber.portNumber(512), m),
            () -> Srv6IntActions.endTIntSfc(Srv6IntPipelineConstants.MAX_VNFS, PortNumber.portNumber(3), m),
        };
        for (Runnable r : bad) {
            try {
                r.run();
                throw new AssertionError("accepted an out-of-range value");
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage().length() > 0);
            }
        }
    }

    @Test
    public void sfcModeIsOneBit() throws Exception {
        PiAction a = Srv6IntActions.setChain(7, true, 0x05, 100);
        assertEquals(ImmutableByteSequence.copyFrom(1).fit(1), param(a, Srv6IntConstants.SFC_MODE));
        assertEquals(ImmutableByteSequence.copyFrom(7).fit(16), param(a, Srv6IntConstants.CHAIN_ID));
    }
}
