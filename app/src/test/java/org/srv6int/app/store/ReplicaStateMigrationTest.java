// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.junit.Test;
import org.onlab.packet.Ip6Address;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;

import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

/**
 * Replica records stored before DEAD existed still read as they were written: the store keeps a
 * record with the app's Kryo namespace, which writes an enum by its ordinal, so DEAD is appended
 * and the earlier states keep theirs. The bytes below are records as the namespace encoded them
 * before the change (PENDING stood for a reservation and for a dead replica alike).
 */
public class ReplicaStateMigrationTest {

    private static final Map<ReplicaState, String> STORED_BEFORE_DEAD = Map.of(
            ReplicaState.PENDING, "/AMBAWRldmljZTpzsgEBcrMBAgECBEoBAAAAAAICAXdvcmtlcrIBAQAAAAAAAAAAAwEAAAAQ"
                    + "/AAAAAADAA8AAAAAAAAAAwEBAA==",
            ReplicaState.ACTIVE, "/AMBAWRldmljZTpzsgEBcrMBAgECBEoBAAAAAAICAXdvcmtlcrIBAQAAAAAAAAAAAwEAAAAQ"
                    + "/AAAAAADAA8AAAAAAAAAAwECAg==",
            ReplicaState.DRAINING, "/AMBAWRldmljZTpzsgEBcrMBAgECBEoBAAAAAAICAXdvcmtlcrIBAQAAAAAAAAAAAwEAAAAQ"
                    + "/AAAAAADAA8AAAAAAAAAAwEDAA==");

    private static VnfReplica record(ReplicaState state) {
        return new VnfReplica(VnfReplicaId.of(VnfKey.of(SfcId.of(2), 1), "r3"), "worker2",
                              DeviceId.deviceId("device:s2"), PortNumber.portNumber(3),
                              Ip6Address.valueOf("fc00:0:3:f::3"), MacAddress.valueOf("00:00:00:00:02:02"),
                              state, state == ReplicaState.ACTIVE ? 1 : 0);
    }

    @Test
    public void recordsStoredBeforeDeadExistedReadAsWritten() {
        STORED_BEFORE_DEAD.forEach((state, b64) -> {
            VnfReplica r = Srv6IntSerializers.SERIALIZER.decode(Base64.getDecoder().decode(b64));
            assertEquals(state, r.state());
            assertEquals(record(state).weight(), r.weight());
            assertEquals(record(state).sid(), r.sid());
            // and written today they are the same bytes: nothing moved under them
            assertEquals(b64, Base64.getEncoder().encodeToString(Srv6IntSerializers.SERIALIZER.encode(record(state))));
        });
    }

    @Test
    public void deadIsAppendedAndRoundTrips() {
        assertEquals(List.of(ReplicaState.PENDING, ReplicaState.ACTIVE, ReplicaState.DRAINING, ReplicaState.DEAD),
                     List.of(ReplicaState.values()));
        VnfReplica dead = record(ReplicaState.DEAD);
        VnfReplica back = Srv6IntSerializers.SERIALIZER.decode(Srv6IntSerializers.SERIALIZER.encode(dead));
        assertEquals(ReplicaState.DEAD, back.state());
        assertEquals(0, back.weight());
        assertEquals(dead.id(), back.id());
    }
}
