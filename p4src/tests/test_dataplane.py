# SPDX-License-Identifier: Apache-2.0
"""Data-plane tests of the SRv6-INT program on BMv2 (simple_switch_grpc).

Each test configures the one switch as a node of the golden vectors' scenario
(tests/vectors/README.md: SFC 1 over SW1..SW4) over P4Runtime, sends the
vector's input frame and compares the output byte for byte with the golden
vector, with the masks of kind timestamp / queue / sequence applied (the Flow
Label is not masked: the program computes the spec's CRC-32).

Ports: 1 upstream, 2 downstream, 3 the vNF server, 4 the collector.
They skip, with the reason printed, where simple_switch_grpc is not on PATH.
"""
import ipaddress
import json
import os
import select
import socket
import struct
import time

import pytest

from bmv2_harness import Bmv2Switch, skip_reason

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VECTORS = os.environ.get("SRV6INT_VECTORS", os.path.join(REPO, "tests", "vectors"))
OUT = os.path.join(REPO, "pipeconf", "src", "main", "resources", "p4c-out", "bmv2")
P4INFO = os.path.join(OUT, "p4info.txt")
BMV2_JSON = os.path.join(OUT, "bmv2.json")

ING = "Srv6IntIngress"
EGR = "Srv6IntEgress"
MASKED_KINDS = ("timestamp", "queue", "sequence")

UPSTREAM, DOWNSTREAM, VNF_PORT, COLLECTOR_PORT = 1, 2, 3, 4
# ENCAP_BUCKETS of p4src/shared/size.p4 (tests/vectors/bucket-hash.json "buckets").
BUCKETS = 256


def ip6(s):
    return int(ipaddress.IPv6Address(s))


def ip4(s):
    return int(ipaddress.IPv4Address(s))


def mac(s):
    return int(s.replace(":", ""), 16)


def sw_mac(n):
    return mac(f"02:00:00:00:00:0{n}")


PLAIN_PATH = ["fc00:0:2::1", "fc00:0:3::1", "fc00:0:4::d4"]
SFC_PATH = ["fc00:0:2::f1", "fc00:0:3::f2", "fc00:0:4::d4"]
VNF = {2: (1, "fc00:0:2::f1", "02:00:00:00:02:01"), 3: (2, "fc00:0:3::f2", "02:00:00:00:02:02")}


def load(name):
    with open(os.path.join(VECTORS, name + ".json")) as f:
        return json.load(f)


def masked(frame, vector, kinds=MASKED_KINDS):
    b = bytearray(frame)
    for m in vector["masks"]:
        if m["kind"] not in kinds:
            continue
        bitmask = bytes.fromhex(m.get("bitmask", "ff" * m["length"]))
        for i in range(m["length"]):
            if m["offset"] + i < len(b):
                b[m["offset"] + i] &= ~bitmask[i] & 0xFF
    return bytes(b)


def assert_matches(actual, vector):
    expected = bytes.fromhex(vector["hex"])
    assert actual is not None, f"no frame where {vector['name']} was expected"
    a, e = masked(actual, vector), masked(expected, vector)
    diffs = [i for i in range(min(len(a), len(e))) if a[i] != e[i]]
    assert len(a) == len(e) and not diffs, (
        f"{vector['name']}: length {len(a)} vs {len(e)}, differing offsets {diffs[:40]}\n"
        f"got      {actual.hex()}\nexpected {expected.hex()}")


def int_entry(frame, index):
    """Segment List[index] of an encapsulated frame as a dict of INT fields."""
    off = 62 + 16 * index
    dev, qid = struct.unpack_from("!HB", frame, off)
    qlen = int.from_bytes(frame[off + 3:off + 6], "big")
    t_in, lat, pc = struct.unpack_from("!IIH", frame, off + 6)
    return dict(device_id=dev, q_id=qid, q_length=qlen, in_time=t_in, vnf_latency=lat,
                port_counter=pc)


def detection_result(frame):
    last_entry = frame[58]
    return struct.unpack_from("!I", frame, 62 + 16 * (last_entry + 1) + 4)[0]


class Ports:
    """Raw sockets on the test side of each veth."""

    def __init__(self):
        self.socks = {}
        for p in (1, 2, 3, 4):
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
            s.bind((f"t{p}", 0))
            self.socks[p] = s

    def drain(self):
        for s in self.socks.values():
            while select.select([s], [], [], 0)[0]:
                s.recv(65535)

    def send(self, port, frame):
        self.socks[port].send(frame)

    def recv_all(self, timeout=1.0, expect=None):
        """Frames the switch sent, per port, until `expect` frames came or
        `timeout` s pass without one."""
        got = {}
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                return got
            ready, _, _ = select.select(list(self.socks.values()), [], [], left)
            for s in ready:
                data, addr = s.recvfrom(65535)
                if addr[2] == socket.PACKET_OUTGOING:
                    continue
                port = next(p for p, x in self.socks.items() if x is s)
                got.setdefault(port, []).append(data)
                if expect is not None and sum(map(len, got.values())) >= expect:
                    return got
                deadline = time.time() + (timeout if expect is not None else 0.3)

    def exchange(self, port, frame, timeout=2.0, expect=None):
        self.drain()
        self.send(port, frame)
        return self.recv_all(timeout, expect)

    def close(self):
        for s in self.socks.values():
            s.close()


@pytest.fixture(scope="module")
def rig():
    reason = skip_reason()
    if reason is None and not os.path.exists(os.path.join(VECTORS, "index.json")):
        reason = f"golden vectors not found in {VECTORS}"
    if reason is None and not os.path.exists(BMV2_JSON):
        reason = "compiled program missing: run tools/p4-build"
    if reason is not None:
        print(f"\nSKIP data-plane tests: {reason}")
        pytest.skip(reason)
    from p4rt_client import P4RuntimeClient   # grpc/p4runtime only where the tests run
    sw = Bmv2Switch()
    sw.start()
    client = ports = None
    try:
        client = P4RuntimeClient("127.0.0.1:50051", 1, P4INFO, BMV2_JSON)
        ports = Ports()
        yield Rig(client, ports)
    finally:
        if ports:
            ports.close()
        if client:
            client.close()
        sw.stop()


class Rig:
    def __init__(self, client, ports):
        self.c = client
        self.ports = ports

    def switch(self, n, my_sid):
        """Fresh pipeline (empty tables/registers) with SW<n>'s identity."""
        self.c.set_pipeline()
        self.c.set_default(f"{ING}.switch_info", f"{ING}.set_switch_info",
                           dict(device_id=n, my_sid=ip6(my_sid), router_mac=sw_mac(n)))

    def route6(self, prefix, plen, port, dmac):
        self.c.insert(f"{ING}.routing.ipv6_routing", {"ipv6_dst": (ip6(prefix), plen)},
                      f"{ING}.routing.set_next_hop", dict(port=port, dmac=dmac))

    def ingress_sw1(self, sfc, path, int_period=1, weights=None, extra_paths=(), only_buckets=None):
        self.switch(1, "fc00:0:1::1")
        self.c.insert(f"{ING}.classifier.sfc_classifier",
                      {"ipv4_dst": (ip4("10.0.4.1"), 0xFFFFFFFF)},
                      f"{ING}.classifier.set_chain",
                      dict(chain_id=1, sfc_mode=int(sfc), map_info=0x1F, int_period=int_period),
                      priority=10)
        paths = [path] + list(extra_paths)
        weights = weights or [1] * len(paths)
        # The bucket table: every bucket of chain 1 gets one segment list, in
        # contiguous blocks proportional to the weights (the app spreads them
        # with BucketAssignment; any mapping does for these tests).
        total = sum(weights)
        edges, acc = [], 0
        for w in weights:
            acc += w
            edges.append(acc * BUCKETS // total)
        for b in range(BUCKETS) if only_buckets is None else only_buckets:
            p = paths[next(i for i, e in enumerate(edges) if b < e)]
            params = dict(last_entry=len(p))
            for k in range(7):
                params[f"s{k}"] = ip6(p[len(p) - 1 - k]) if k < len(p) else 0
            self.c.insert(f"{ING}.encap.srv6_encap", {"chain_id": 1, "bucket": b},
                          f"{ING}.encap.h_encaps_int", params)
        self.route6("fc00:0:2::", 48, DOWNSTREAM, sw_mac(2))
        self.route6("fc00:0:5::", 48, 3, mac("02:00:00:00:00:05"))

    def endpoint(self, n):
        self.switch(n, f"fc00:0:{n}::1")
        self.c.insert(f"{ING}.endpoint.my_sid", {"ipv6_dst": (ip6(f"fc00:0:{n}::1"), 128)},
                      f"{ING}.endpoint.end_t_int")
        vnf_id, sid, vmac = VNF[n]
        self.c.insert(f"{ING}.endpoint.my_sid", {"ipv6_dst": (ip6(sid), 128)},
                      f"{ING}.endpoint.end_t_int_sfc",
                      dict(vnf_id=vnf_id, vnf_port=VNF_PORT, vnf_mac=mac(vmac)))
        self.route6(f"fc00:0:{n + 1}::", 48, DOWNSTREAM, sw_mac(n + 1))

    def egress_sw4(self, trunc_len=256):
        self.switch(4, "fc00:0:4::1")
        self.c.insert(f"{ING}.endpoint.my_sid", {"ipv6_dst": (ip6("fc00:0:4::d4"), 128)},
                      f"{ING}.endpoint.end_dt_int")
        self.c.insert(f"{ING}.routing.ipv4_routing", {"ipv4_dst": (ip4("10.0.4.1"), 32)},
                      f"{ING}.routing.set_next_hop",
                      dict(port=DOWNSTREAM, dmac=mac("02:00:00:00:01:04")))
        self.c.set_default(f"{EGR}.report.report_config", f"{EGR}.report.set_report_config",
                           dict(src_mac=sw_mac(4), dst_mac=mac("02:00:00:00:03:01"),
                                src_ip=ip4("10.0.100.4"), dst_ip=ip4("10.0.100.1"),
                                udp_sport=32770, udp_dport=32766, trunc_len=trunc_len))
        self.c.insert_clone_session(100, COLLECTOR_PORT)

    def vnf_sid(self, vnf_id, sid, vmac):
        self.c.insert(f"{ING}.endpoint.my_sid", {"ipv6_dst": (ip6(sid), 128)},
                      f"{ING}.endpoint.end_t_int_sfc",
                      dict(vnf_id=vnf_id, vnf_port=VNF_PORT, vnf_mac=mac(vmac)))

    def local_vnfs_sw2(self):
        """SW2 of the local-* vectors: vNFs 1, 2, 3 behind its vNF port."""
        self.endpoint(2)
        self.vnf_sid(2, "fc00:0:2::f2", "02:00:00:00:02:02")
        self.vnf_sid(3, "fc00:0:2::f3", "02:00:00:00:02:03")

    def one(self, port, frame, out_port):
        got = self.ports.exchange(port, frame, expect=1)
        frames = got.get(out_port, [])
        others = {p: len(f) for p, f in got.items() if p != out_port}
        assert len(frames) == 1 and not others, f"expected one frame on port {out_port}, got {got}"
        return frames[0]


def frame(name):
    return bytes.fromhex(load(name)["hex"])


# --- H.Encaps.INT --------------------------------------------------------------

def test_h_encaps_int_plain(rig):
    rig.ingress_sw1(sfc=False, path=PLAIN_PATH)
    out = rig.one(UPSTREAM, frame("input-h1"), DOWNSTREAM)
    assert_matches(out, load("plain-1-sw1-encap"))


def test_h_encaps_int_sfc_second_packet(rig):
    rig.ingress_sw1(sfc=True, path=SFC_PATH)
    rig.one(UPSTREAM, frame("input-h1"), DOWNSTREAM)
    out = rig.one(UPSTREAM, frame("input-h1"), DOWNSTREAM)   # Port_Counter 2
    assert_matches(out, load("sfc-1-sw1-encap"))


def test_int_on_one_in_k_packets(rig):
    rig.ingress_sw1(sfc=False, path=PLAIN_PATH, int_period=3)
    flags = [rig.one(UPSTREAM, frame("input-h1"), DOWNSTREAM)[59] for _ in range(7)]
    assert [f & 1 for f in flags] == [1, 0, 0, 1, 0, 0, 1]


def udp_flow(src, sport, dport):
    """input-h1's addresses and payload with another IPv4 source / UDP ports."""
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    f = Ether(frame("input-h1"))
    f[IP].src = src
    f[UDP].sport, f[UDP].dport = sport, dport
    del f[IP].chksum, f[UDP].chksum
    return bytes(f)


def multipath_flows():
    """Two fixed sets of 120 flows: one client's connections (only the source
    port changes: the case crc16 split badly), and other clients and ports."""
    import random
    rnd = random.Random(8754)
    one_client = [udp_flow("10.0.1.1", sport, 5000) for sport in range(1000, 1120)]
    mixed = [udp_flow(f"10.0.{rnd.randrange(1, 255)}.{rnd.randrange(1, 255)}",
                      rnd.randrange(1024, 65536), rnd.choice([53, 443, 5000, 8080]))
             for _ in range(120)]
    return {"one client": one_client, "mixed": mixed}


@pytest.mark.parametrize("weights", [(3, 1), (1, 1), (1, 3)])
def test_weighted_multipath_keeps_flows_and_follows_weights(rig, weights):
    # Segment list 0 leaves on DOWNSTREAM (fc00:0:2::/48), list 1 on port 3 (fc00:0:5::/48).
    other = ["fc00:0:5::1", "fc00:0:4::d4"]
    rig.ingress_sw1(sfc=False, path=PLAIN_PATH, weights=list(weights), extra_paths=[other])
    expected = weights[0] / sum(weights)
    for name, flows in multipath_flows().items():
        picks = {}
        for f in flows:
            got = rig.ports.exchange(UPSTREAM, f, expect=1)
            assert len(got) == 1, got
            port = next(iter(got))
            assert rig.ports.exchange(UPSTREAM, f, expect=1).keys() == {port}, \
                "a flow changed segment list"
            picks[port] = picks.get(port, 0) + 1
        assert set(picks) <= {DOWNSTREAM, 3}, picks
        # Fixed flows and a fixed hash make the split deterministic; the bound
        # only says "follows the weights": expected share +- 0.15 of 120 flows.
        share = picks.get(DOWNSTREAM, 0) / len(flows)
        assert abs(share - expected) < 0.15, f"{name}: weights {weights} gave {picks}"


def test_bucket_of_a_flow_is_its_golden_bucket(rig):
    """Only the golden bucket of h1's flow has an entry: h1's packet is
    encapsulated, a flow of another bucket is not (no encap, no SRv6)."""
    golden = load("bucket-hash")
    assert golden["buckets"] == BUCKETS
    h1 = next(f for f in golden["flows"] if f["name"] == "ipv4-udp-h1")
    rig.ingress_sw1(sfc=False, path=PLAIN_PATH, only_buckets=[h1["bucket"]])
    out = rig.one(UPSTREAM, frame("input-h1"), DOWNSTREAM)
    assert_matches(out, load("plain-1-sw1-encap"))
    other = udp_flow("10.0.1.1", 5001, 6000)
    got = rig.ports.exchange(UPSTREAM, other, expect=1)
    assert all(f[12:14] != b"\x86\xdd" for frames in got.values() for f in frames), \
        "a flow of another bucket was encapsulated"


def test_every_golden_flow_takes_its_golden_bucket_and_is_counted_there(rig):
    """Every flow of tests/vectors/bucket-hash.json (IPv4 UDP/TCP/ICMP, a later
    fragment, IPv6 TCP/UDP) is encapsulated with the segment list of its golden
    bucket, and that bucket's srv6_encap entry counts it (the per-bucket counter
    the app reads to drain a bucket by its flows)."""
    golden = load("bucket-hash")
    rig.switch(1, "fc00:0:1::1")
    for match in ({"ipv4_dst": (ip4("10.0.4.0"), 0xFFFFFF00)},
                  {"ipv6_dst": (ip6("2001:db8:4::"), ((1 << 48) - 1) << 80)}):
        rig.c.insert(f"{ING}.classifier.sfc_classifier", match, f"{ING}.classifier.set_chain",
                     dict(chain_id=1, sfc_mode=0, map_info=0x1F, int_period=1), priority=10)
    # Bucket b's segment list starts with fc00:0:2::1:<b>, so the outer
    # destination tells which bucket a flow took.
    first_seg = ip6("fc00:0:2::1:0")
    for b in range(BUCKETS):
        params = dict(last_entry=2, s0=ip6("fc00:0:4::d4"), s1=first_seg + b)
        params.update({f"s{k}": 0 for k in range(2, 7)})
        rig.c.insert(f"{ING}.encap.srv6_encap", {"chain_id": 1, "bucket": b},
                     f"{ING}.encap.h_encaps_int", params)
    rig.route6("fc00:0:2::", 48, DOWNSTREAM, sw_mac(2))
    for f in golden["flows"]:
        inner = bytes.fromhex(f["inner_hex"])
        ethertype = b"\x08\x00" if inner[0] >> 4 == 4 else b"\x86\xdd"
        # Padding after the IP packet (as on an Ethernet link): the parser
        # extracts a whole TCP/UDP header where the vector has only the ports.
        raw = bytes.fromhex("020000000001" "020000000101") + ethertype + inner + bytes(20)
        out = rig.one(UPSTREAM, raw, DOWNSTREAM)
        assert out[12:14] == b"\x86\xdd", f"{f['name']} not encapsulated"
        da = int.from_bytes(out[38:54], "big")
        assert da >> 16 == first_seg >> 16, f"{f['name']}: destination {ipaddress.IPv6Address(da)}"
        assert da & 0xFFFF == f["bucket"], f"{f['name']}: bucket {da & 0xFFFF}, golden {f['bucket']}"
    for b in range(BUCKETS):
        expected = sum(1 for f in golden["flows"] if f["bucket"] == b)
        assert rig.c.read_direct_counter(f"{ING}.encap.srv6_encap", {"chain_id": 1, "bucket": b}) == expected, b


# --- End.T.INT -----------------------------------------------------------------

@pytest.mark.parametrize("n,inp,exp", [(2, "plain-1-sw1-encap", "plain-2-sw2-end-t"),
                                       (3, "plain-2-sw2-end-t", "plain-3-sw3-end-t")])
def test_end_t_int_plain(rig, n, inp, exp):
    rig.endpoint(n)
    assert_matches(rig.one(UPSTREAM, frame(inp), DOWNSTREAM), load(exp))


@pytest.mark.parametrize("n,inp,to_vnf,out", [
    (2, "sfc-1-sw1-encap", "sfc-2-sw2-to-vnf1", "sfc-3-sw2-end-t"),
    (3, "sfc-3-sw2-end-t", "sfc-4-sw3-to-vnf2", "sfc-5-sw3-end-t")])
def test_end_t_int_sfc_vnf_round_trip_and_detection_result(rig, n, inp, to_vnf, out):
    rig.endpoint(n)
    sl = frame(inp)[57]
    # Packet 1: no measurement yet, Detection Result 0.
    a1 = rig.one(UPSTREAM, frame(inp), VNF_PORT)
    assert detection_result(a1) == 0
    time.sleep(0.02)                      # the vNF takes >= 20 ms
    b1 = rig.one(VNF_PORT, a1, DOWNSTREAM)
    lat1 = int_entry(b1, sl)["vnf_latency"]
    assert 20_000_000 <= lat1 < 2_000_000_000, lat1
    # Packet 2 carries packet 1's latency to the vNF; compared with the vectors.
    a2 = rig.one(UPSTREAM, frame(inp), VNF_PORT)
    assert detection_result(a2) == lat1
    assert_matches(a2, load(to_vnf))
    b2 = rig.one(VNF_PORT, a2, DOWNSTREAM)
    assert_matches(b2, load(out))
    e = int_entry(b2, sl)
    assert e["device_id"] == n and e["port_counter"] == 2
    assert e["in_time"] == int_entry(a2, sl)["in_time"]      # the parked arrival time
    assert e["vnf_latency"] < 1_000_000_000


def test_q_id_is_the_queue_queue_select_picks(rig):
    # Q_ID = the egress queue = standard_metadata.priority on simple_switch
    # (started with --priority-queues 8 by the harness).
    rig.endpoint(2)
    inp = frame("plain-1-sw1-encap")
    sl = inp[57]
    tc = (struct.unpack_from("!I", inp, 14)[0] >> 20) & 0xFF
    assert int_entry(rig.one(UPSTREAM, inp, DOWNSTREAM), sl)["q_id"] == 0
    rig.c.insert(f"{ING}.queue_select", {"traffic_class": (tc, 0xFF)},
                 f"{ING}.set_queue", dict(qid=5), priority=10)
    e = int_entry(rig.one(UPSTREAM, inp, DOWNSTREAM), sl)
    assert e["q_id"] == 5 and e["device_id"] == 2, e


# --- End.DT.INT and the report -------------------------------------------------

@pytest.mark.parametrize("inp,dt,report,sends", [
    ("plain-3-sw3-end-t", "plain-4-sw4-end-dt", "plain-5-sw4-report", 1),
    ("sfc-5-sw3-end-t", "sfc-6-sw4-end-dt", "sfc-7-sw4-report", 2)])
def test_end_dt_int_decap_and_report(rig, inp, dt, report, sends):
    rig.egress_sw4()
    seqs = []
    for _ in range(sends):
        # Everything the packet causes (until the ports are quiet): exactly one
        # decapsulated packet and one report.
        got = rig.ports.exchange(UPSTREAM, frame(inp))
        assert sorted(got) == [DOWNSTREAM, COLLECTOR_PORT], got
        assert len(got[DOWNSTREAM]) == 1 and len(got[COLLECTOR_PORT]) == 1, \
            {p: len(f) for p, f in got.items()}
        seqs.append(struct.unpack_from("!I", got[COLLECTOR_PORT][0], 46)[0])
    assert_matches(got[DOWNSTREAM][0], load(dt))
    assert_matches(got[COLLECTOR_PORT][0], load(report))
    assert seqs == list(range(sends)), seqs


def test_report_truncated(rig):
    rig.egress_sw4(trunc_len=160)
    for _ in range(2):
        got = rig.ports.exchange(UPSTREAM, frame("sfc-5-sw3-end-t"))
        assert len(got.get(COLLECTOR_PORT, [])) == 1, {p: len(f) for p, f in got.items()}
    assert_matches(got[COLLECTOR_PORT][0], load("sfc-8-sw4-report-truncated"))


# --- consecutive vNFs behind one switch, IPv6 inner ------------------------------

def test_three_consecutive_local_vnfs(rig):
    """vNF 1's return leads to vNF 2 on the same switch (a recirculation), and so on."""
    rig.local_vnfs_sw2()
    for _ in range(2):                       # the second packet has Port_Counter 2
        to_vnf = [rig.one(UPSTREAM, frame("local-1-sw1-encap"), VNF_PORT)]
        for _ in range(2):
            to_vnf.append(rig.one(VNF_PORT, to_vnf[-1], VNF_PORT))
        out = rig.one(VNF_PORT, to_vnf[-1], DOWNSTREAM)
    for got, name in zip(to_vnf, ("local-2-sw2-to-vnf1", "local-3-sw2-to-vnf2", "local-4-sw2-to-vnf3")):
        assert_matches(got, load(name))
    assert_matches(out, load("local-5-sw2-end-t"))
    # Each vNF's own entry, in the slot of its SID (Segment List[5], [4], [3] for
    # vNFs 1, 2, 3; [6] is SW1's): Device_ID 2, Port_Counter 2, a latency of its own.
    assert int_entry(out, 6)["device_id"] == 1
    for slot in (5, 4, 3):
        e = int_entry(out, slot)
        assert e["device_id"] == 2 and e["port_counter"] == 2 and 0 < e["vnf_latency"] < 1_000_000_000, e
    assert rig.c.read_counter(f"{ING}.local_sid_recirculations", 1) == 4
    for reason in range(1, 12):
        assert rig.c.read_counter(f"{ING}.drop_reasons", reason) == 0, reason


def test_end_t_int_after_local_vnfs(rig):
    rig.endpoint(3)
    rig.one(UPSTREAM, frame("local-5-sw2-end-t"), DOWNSTREAM)
    assert_matches(rig.one(UPSTREAM, frame("local-5-sw2-end-t"), DOWNSTREAM), load("local-6-sw3-end-t"))


def test_local_vnf_then_end_dt_int(rig):
    rig.egress_sw4()
    rig.vnf_sid(4, "fc00:0:4::f4", "02:00:00:00:02:04")
    for _ in range(2):
        to_vnf = rig.one(UPSTREAM, frame("local-6-sw3-end-t"), VNF_PORT)
        got = rig.ports.exchange(VNF_PORT, to_vnf)
        assert sorted(got) == [DOWNSTREAM, COLLECTOR_PORT], got
    assert_matches(to_vnf, load("local-7-sw4-to-vnf4"))
    assert_matches(got[DOWNSTREAM][0], load("local-8-sw4-end-dt"))
    assert_matches(got[COLLECTOR_PORT][0], load("local-9-sw4-report"))


def test_ipv6_inner_traffic(rig):
    rig.switch(1, "fc00:0:1::1")
    rig.c.insert(f"{ING}.classifier.sfc_classifier",
                 {"ipv6_dst": (ip6("2001:db8:4::1"), (1 << 128) - 1)},
                 f"{ING}.classifier.set_chain",
                 dict(chain_id=1, sfc_mode=0, map_info=0x1F, int_period=1), priority=10)
    params = dict(last_entry=len(PLAIN_PATH))
    for k in range(7):
        params[f"s{k}"] = ip6(PLAIN_PATH[len(PLAIN_PATH) - 1 - k]) if k < len(PLAIN_PATH) else 0
    for b in range(BUCKETS):
        rig.c.insert(f"{ING}.encap.srv6_encap", {"chain_id": 1, "bucket": b},
                     f"{ING}.encap.h_encaps_int", params)
    rig.route6("fc00:0:2::", 48, DOWNSTREAM, sw_mac(2))
    assert_matches(rig.one(UPSTREAM, frame("input-h1-ipv6"), DOWNSTREAM), load("ipv6-1-sw1-encap"))
    for n in (2, 3):
        rig.endpoint(n)
        assert_matches(rig.one(UPSTREAM, frame(f"ipv6-{n - 1}-sw{n - 1}-{'encap' if n == 2 else 'end-t'}"),
                               DOWNSTREAM), load(f"ipv6-{n}-sw{n}-end-t"))
    rig.egress_sw4()
    rig.route6("2001:db8:4::1", 128, DOWNSTREAM, mac("02:00:00:00:01:04"))
    got = rig.ports.exchange(UPSTREAM, frame("ipv6-3-sw3-end-t"))
    assert sorted(got) == [DOWNSTREAM, COLLECTOR_PORT], got
    assert_matches(got[DOWNSTREAM][0], load("ipv6-4-sw4-end-dt"))
    assert_matches(got[COLLECTOR_PORT][0], load("ipv6-5-sw4-report"))


def encapsulated(path, tag=7):
    """An SFC-mode frame from SW1 (INT on) with `path` after the ingress, built
    from local-1-sw1-encap's inner packet with scapy."""
    from scapy.layers.inet6 import IPv6, IPv6ExtHdrSegmentRouting
    from scapy.layers.l2 import Ether
    inner = frame("input-h1")[14:]
    segs = [str(ipaddress.IPv6Address(x)) for x in reversed(path)] + ["fc00:0:1::1"]
    tlv = bytes([252, 6, 0, 0x1F, 0, 0, 0, 0])
    srh = IPv6ExtHdrSegmentRouting(nh=4, addresses=segs, segleft=len(path) - 1, lastentry=len(path),
                                   tag=tag, unused2=3)
    raw = bytes(srh)[:8 + 16 * len(segs)] + tlv
    raw = raw[:1] + bytes([(len(raw) - 8) // 8]) + raw[2:]
    ip = IPv6(src="fc00:0:1::1", dst=path[0], nh=43, hlim=64, plen=len(raw) + len(inner))
    return bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / ip) + raw + inner


def test_segment_list_looping_on_one_local_sid_is_dropped(rig):
    rig.local_vnfs_sw2()
    to_vnf = rig.one(UPSTREAM, encapsulated(["fc00:0:2::f1"] * 4 + ["fc00:0:4::d4"]), VNF_PORT)
    assert rig.ports.exchange(VNF_PORT, to_vnf) == {}
    assert rig.c.read_counter(f"{ING}.drop_reasons", 10) == 1
    assert rig.c.read_counter(f"{ING}.drop_reasons", 5) == 0


def test_local_sids_beyond_the_pass_limit_are_dropped(rig):
    rig.endpoint(2)
    for sid in ("fc00:0:2::a", "fc00:0:2::b", "fc00:0:2::c"):
        rig.c.insert(f"{ING}.endpoint.my_sid", {"ipv6_dst": (ip6(sid), 128)}, f"{ING}.endpoint.end_t_int")
    rig.one(UPSTREAM, encapsulated(["fc00:0:2::1", "fc00:0:2::a", "fc00:0:2::b", "fc00:0:3::1",
                                    "fc00:0:4::d4"]), DOWNSTREAM)
    assert rig.c.read_counter(f"{ING}.local_sid_recirculations", 7) == 2
    assert rig.ports.exchange(UPSTREAM, encapsulated(["fc00:0:2::1", "fc00:0:2::a", "fc00:0:2::b",
                                                      "fc00:0:2::c", "fc00:0:3::1", "fc00:0:4::d4"])) == {}
    assert rig.c.read_counter(f"{ING}.drop_reasons", 11) == 1


# --- errors ---------------------------------------------------------------------

def test_malformed_srh_is_dropped_and_counted(rig):
    rig.endpoint(2)
    bad = bytearray(frame("plain-1-sw1-encap"))
    bad[126] = 124                         # not the SRv6-INT TLV type
    assert rig.ports.exchange(UPSTREAM, bytes(bad)) == {}
    assert rig.c.read_counter(f"{ING}.drop_reasons", 2) == 1


def test_end_dt_int_with_segments_left_is_dropped(rig):
    rig.egress_sw4()
    bad = bytearray(frame("plain-3-sw3-end-t"))
    bad[57] = 1
    assert rig.ports.exchange(UPSTREAM, bytes(bad)) == {}
    assert rig.c.read_counter(f"{ING}.drop_reasons", 3) == 1


def test_more_than_max_segments_is_a_parser_drop(rig):
    rig.endpoint(2)
    f = bytearray(frame("plain-1-sw1-encap"))
    # 9 segments: LastEntry 8, Hdr Ext Len 19, five more SIDs before the TLV.
    srh_end = 62 + 16 * 4
    f = f[:srh_end] + bytes(16 * 5) + f[srh_end:]
    f[55] = 19
    f[58] = 8
    struct.pack_into("!H", f, 18, struct.unpack_from("!H", f, 18)[0] + 80)
    assert rig.ports.exchange(UPSTREAM, bytes(f)) == {}
    assert rig.c.read_counter(f"{ING}.drop_reasons", 1) == 1


# --- NDP ------------------------------------------------------------------------

def test_ndp_solicitation_for_switch_address_is_answered(rig):
    from scapy.layers.inet6 import ICMPv6ND_NA, ICMPv6ND_NS, ICMPv6NDOptSrcLLAddr, IPv6
    from scapy.layers.l2 import Ether
    rig.switch(2, "fc00:0:2::1")
    rig.c.insert(f"{ING}.ndp.ndp_reply", {"ndp_target": ip6("fc00:0:2::1")},
                 f"{ING}.ndp.ndp_ns_to_na", dict(target_mac=sw_mac(2)))
    ns = (Ether(src="02:00:00:00:00:01", dst="33:33:ff:00:00:01")
          / IPv6(src="fc00:0:1::1", dst="ff02::1:ff00:1", hlim=255)
          / ICMPv6ND_NS(tgt="fc00:0:2::1") / ICMPv6NDOptSrcLLAddr(lladdr="02:00:00:00:00:01"))
    out = rig.one(UPSTREAM, bytes(ns), UPSTREAM)
    na = Ether(out)
    assert na[Ether].src == "02:00:00:00:00:02" and na[Ether].dst == "02:00:00:00:00:01"
    assert na[IPv6].src == "fc00:0:2::1" and na[IPv6].dst == "fc00:0:1::1"
    assert na.haslayer(ICMPv6ND_NA) and na[ICMPv6ND_NA].tgt == "fc00:0:2::1"
    assert na[ICMPv6ND_NA].S == 1 and na[ICMPv6ND_NA].R == 1
    # scapy recomputes the checksum: the switch's must be the same.
    chk = na[ICMPv6ND_NA].cksum
    del na[ICMPv6ND_NA].cksum
    assert Ether(bytes(na))[ICMPv6ND_NA].cksum == chk
