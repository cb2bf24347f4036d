package org.srv6int.app.testing;

import org.srv6int.app.api.model.SfcId;
import org.srv6int.app.api.model.SfcTelemetry;
import org.srv6int.app.api.TelemetryService;
import org.srv6int.app.api.model.VnfKey;
import org.srv6int.app.api.model.VnfTelemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Telemetry service holding whatever snapshots a test puts in (stands for the
 * INT collector).
 */
public class FakeTelemetryService implements TelemetryService {

    /** Chain snapshots. */
    public final Map<SfcId, SfcTelemetry> sfcs = new TreeMap<>();
    /** vNF snapshots. */
    public final Map<VnfKey, VnfTelemetry> vnfs = new TreeMap<>();
    /** Counters. */
    public final Map<String, Long> counters = new TreeMap<>();

    @Override
    public Optional<SfcTelemetry> sfcTelemetry(SfcId sfcId) {
        return Optional.ofNullable(sfcs.get(sfcId));
    }

    @Override
    public List<VnfTelemetry> vnfTelemetry(SfcId sfcId) {
        return vnfs.values().stream().filter(v -> v.vnf().sfcId().equals(sfcId))
                .collect(Collectors.toCollection(ArrayList::new));
    }

    @Override
    public Optional<VnfTelemetry> vnfTelemetry(VnfKey vnf) {
        return Optional.ofNullable(vnfs.get(vnf));
    }

    @Override
    public Map<String, Long> counters() {
        return counters;
    }
}
