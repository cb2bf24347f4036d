// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.loop;

import org.srv6int.app.config.KubernetesSettings;
import org.srv6int.app.config.Srv6IntAppConfig;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the loop core reads from its parameters supplier at every entry: whether the loop runs,
 * Algorithm 4's parameters, whether placement scores interference, and the failure detection's
 * silence and return hold. In ONOS the supplier reads netcfg ({@link #fromNetcfg}); the twin and
 * tests give fixed settings ({@link #of}). A change of the loop's part (parameters, interference
 * awareness) makes the core start a new {@link GlobalLoop}, which resumes the store's state.
 */
public final class LoopSettings {

    /**
     * Time after the drain deadline for the moved buckets to be written and confirmed, ms: a
     * drained replica's pod waits for the switches at most the drain deadline plus this.
     */
    public static final long RELEASE_GRACE_MS = 30_000;

    /**
     * Time after the platform's ready timeout before a reservation no create owns is given back,
     * ms: the create's own give-back (a few store calls) ends within it when the store answers.
     */
    public static final long RESERVATION_GRACE_MS = 30_000;

    private final boolean enabled;
    private final LoopParams params;
    private final boolean interferenceAware;
    private final long silenceNanos;
    private final long replicaSilenceNanos;
    private final long returnHoldNanos;

    private LoopSettings(boolean enabled, LoopParams params, boolean interferenceAware, long silenceNanos,
                         long replicaSilenceNanos, long returnHoldNanos) {
        this.enabled = enabled;
        this.params = Objects.requireNonNull(params, "params");
        this.interferenceAware = interferenceAware;
        this.silenceNanos = silenceNanos;
        this.replicaSilenceNanos = replicaSilenceNanos;
        this.returnHoldNanos = returnHoldNanos;
    }

    /**
     * Settings of a running loop with these parameters, no interference scoring and the failure
     * detection's defaults (silence {@value Srv6IntAppConfig#DEFAULT_SILENCE_MS} ms, return hold
     * {@value Srv6IntAppConfig#DEFAULT_RETURN_HOLD_MS} ms).
     *
     * @param params Algorithm 4's parameters
     * @return settings
     */
    public static LoopSettings of(LoopParams params) {
        long silence = TimeUnit.MILLISECONDS.toNanos(Srv6IntAppConfig.DEFAULT_SILENCE_MS);
        return new LoopSettings(true, params, false, silence, silence,
                                TimeUnit.MILLISECONDS.toNanos(Srv6IntAppConfig.DEFAULT_RETURN_HOLD_MS));
    }

    /**
     * The settings netcfg gives the loop (the app's {@code loop} section; defaults without one):
     * enabled, t̂, the demand's latency, push-aside, interference awareness, the release timeout
     * (drain deadline plus {@link #RELEASE_GRACE_MS}), the reservation timeout (the Kubernetes
     * section's ready timeout plus {@link #RESERVATION_GRACE_MS}), silences and return hold.
     *
     * @param config the app's netcfg, empty if none
     * @return settings
     */
    public static LoopSettings fromNetcfg(Optional<Srv6IntAppConfig> config) {
        long tHat = config.map(Srv6IntAppConfig::tHatMillis).orElse(Srv6IntAppConfig.DEFAULT_T_HAT_MS);
        boolean tail = config.map(Srv6IntAppConfig::demandFromHealthyTail).orElse(true);
        long release = config.map(Srv6IntAppConfig::drainDeadlineMillis)
                .orElse(Srv6IntAppConfig.DEFAULT_DRAIN_DEADLINE_MS) + RELEASE_GRACE_MS;
        // A reservation outlives its create by at most the platform's ready timeout and the give-back.
        long reservation = config.flatMap(Srv6IntAppConfig::kubernetes).map(KubernetesSettings::readyTimeoutMillis)
                .orElse(KubernetesSettings.DEFAULT_READY_TIMEOUT_MS) + RESERVATION_GRACE_MS;
        LoopParams p = LoopParams.builder().tHatNanos(TimeUnit.MILLISECONDS.toNanos(tHat))
                .demandLatency(tail ? LoopParams.DemandLatency.HEALTHY_TAIL : LoopParams.DemandLatency.MEASURED)
                .pushAside(config.map(Srv6IntAppConfig::pushAside).orElse(false))
                .releaseTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(release))
                .reservationTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(reservation)).build();
        return of(p).enabled(config.map(Srv6IntAppConfig::loopEnabled).orElse(true))
                .interferenceAware(config.map(Srv6IntAppConfig::interferenceAware).orElse(false))
                .detection(config);
    }

    /**
     * These settings with the failure detection's silences and return hold from netcfg.
     *
     * @param config the app's netcfg, empty for the defaults
     * @return settings
     */
    public LoopSettings detection(Optional<Srv6IntAppConfig> config) {
        long silence = config.map(Srv6IntAppConfig::silenceMillis).orElse(Srv6IntAppConfig.DEFAULT_SILENCE_MS);
        long replica = config.map(Srv6IntAppConfig::replicaSilenceMillis).orElse(silence);
        long hold = config.map(Srv6IntAppConfig::returnHoldMillis).orElse(Srv6IntAppConfig.DEFAULT_RETURN_HOLD_MS);
        return new LoopSettings(enabled, params, interferenceAware, TimeUnit.MILLISECONDS.toNanos(silence),
                                TimeUnit.MILLISECONDS.toNanos(replica), TimeUnit.MILLISECONDS.toNanos(hold));
    }

    /**
     * These settings with the loop on or off.
     *
     * @param on whether the loop acts
     * @return settings
     */
    public LoopSettings enabled(boolean on) {
        return new LoopSettings(on, params, interferenceAware, silenceNanos, replicaSilenceNanos, returnHoldNanos);
    }

    /**
     * These settings with placement scoring learned interference or not.
     *
     * @param aware whether scale-outs avoid interfering neighbours
     * @return settings
     */
    public LoopSettings interferenceAware(boolean aware) {
        return new LoopSettings(enabled, params, aware, silenceNanos, replicaSilenceNanos, returnHoldNanos);
    }

    /** @return whether the loop acts (netcfg {@code loop.enabled}) */
    public boolean enabled() {
        return enabled;
    }

    /** @return Algorithm 4's parameters */
    public LoopParams params() {
        return params;
    }

    /** @return whether placement scores learned interference */
    public boolean interferenceAware() {
        return interferenceAware;
    }

    /** @return how long a chain may stay without INT reports, ns */
    public long silenceNanos() {
        return silenceNanos;
    }

    /** @return how long a replica may stay without packets, ns */
    public long replicaSilenceNanos() {
        return replicaSilenceNanos;
    }

    /** @return how long a dead replica must look alive before it rejoins, ns */
    public long returnHoldNanos() {
        return returnHoldNanos;
    }

    /**
     * Whether a loop built for {@code other} serves these settings as well (the same parameters
     * and interference awareness).
     *
     * @param other settings a loop was built for
     * @return true if no new loop is needed
     */
    boolean sameLoop(LoopSettings other) {
        return other != null && params.equals(other.params) && interferenceAware == other.interferenceAware;
    }
}
