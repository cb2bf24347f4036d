// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.store;

import org.onlab.util.KryoNamespace;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.Serializer;
import org.srv6int.app.api.model.ChainState;
import org.srv6int.app.api.model.FlowClassifier;
import org.srv6int.app.api.model.LearnedInterference;
import org.srv6int.app.api.model.LoopDecision;
import org.srv6int.app.api.model.ReplicaHealthRecord;
import org.srv6int.app.api.model.ReplicaState;
import org.srv6int.app.api.model.Sfc;
import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfLoopRecord;
import org.srv6int.app.api.model.VnfReplica;
import org.srv6int.app.api.model.VnfReplicaId;
import org.srv6int.app.api.model.VnfSpec;

/**
 * The one Kryo namespace for the app's distributed state.
 */
public final class Srv6IntSerializers {

    /** Namespace: ONOS API types plus the app's model. */
    public static final KryoNamespace NAMESPACE = KryoNamespace.newBuilder()
            .register(KryoNamespaces.API)
            .nextId(KryoNamespaces.BEGIN_USER_CUSTOM_ID)
            .register(SfcId.class, Sfc.class, FlowClassifier.class, VnfSpec.class, VnfKey.class,
                      VnfReplicaId.class, VnfReplica.class, ReplicaState.class,
                      VnfLoopRecord.class, VnfLoopRecord.Phase.class, LoopDecision.class, LoopDecision.Action.class,
                      LoopDecision.Outcome.class, ReplicaHealthRecord.class, ChainState.class,
                      ChainState.Liveness.class, LearnedInterference.class)
            .build("srv6int");

    /** Serializer over {@link #NAMESPACE}. */
    public static final Serializer SERIALIZER = Serializer.using(NAMESPACE);

    private Srv6IntSerializers() {
    }
}
