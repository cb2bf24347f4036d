# SPDX-License-Identifier: Apache-2.0
"""Independent check of the golden vectors: scapy (not our codec) parses every
frame and must agree with the vector's JSON on every IPv6 / SRH field, the
SRv6-INT TLV bytes, the INT metadata, the report header and the flow hash."""
import ipaddress
import json
import pathlib
import struct
import zlib

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6, IPv6ExtHdrSegmentRouting
from scapy.layers.l2 import Ether

VECTORS = pathlib.Path(__file__).resolve().parents[1] / "vectors"
NAMES = json.loads((VECTORS / "index.json").read_text())["vectors"]
TLV_TYPE = 252
REPORT_PORT = 32766


def load(name):
    v = json.loads((VECTORS / f"{name}.json").read_text())
    raw = bytes.fromhex(v["hex"])
    assert len(raw) == v["length"]
    return v, raw


def ip6(text):
    return ipaddress.IPv6Address(text)


def srh_flags(srh):
    # scapy 2.6.1 splits the Flags byte into named bits; put it back together.
    return (srh.unused1 << 6) | (srh.protected << 5) | (srh.oam << 4) | (srh.alert << 3) \
        | (srh.hmac << 2) | srh.unused2


def five_tuple_label(inner):
    # The addresses at their own width (docs/wire-format.md 1.6).
    if inner[0] >> 4 == 6:
        ipl = IPv6(inner)
        tup = ip6(ipl.src).packed + ip6(ipl.dst).packed + bytes([ipl.nh])
    else:
        ipl = IP(inner)
        tup = ipaddress.IPv4Address(ipl.src).packed + ipaddress.IPv4Address(ipl.dst).packed
        tup += bytes([ipl.proto])
    tup += struct.pack("!HH", ipl[UDP].sport, ipl[UDP].dport)
    return zlib.crc32(tup) & 0xFFFFF


def check_srv6(frame_bytes, d, truncated=False):
    """Parses an SRv6-INT Ethernet frame with scapy and compares with decoded JSON d."""
    p = Ether(frame_bytes)
    assert p.dst == d["ethernet"]["dst"] and p.src == d["ethernet"]["src"]
    assert p.type == int(d["ethernet"]["ethertype"], 16) == 0x86DD
    i6 = p[IPv6]
    j6 = d["ipv6"]
    assert (i6.version, i6.tc, i6.fl, i6.plen, i6.nh, i6.hlim) == (
        j6["version"], j6["traffic_class"], j6["flow_label"], j6["payload_length"],
        j6["next_header"], j6["hop_limit"])
    assert ip6(i6.src) == ip6(j6["src"]) and ip6(i6.dst) == ip6(j6["dst"])
    srh = p[IPv6ExtHdrSegmentRouting]
    js = d["srh"]
    assert (srh.nh, srh.len, srh.type, srh.segleft, srh.lastentry, srh.tag) == (
        js["next_header"], js["hdr_ext_len"], js["routing_type"], js["segments_left"],
        js["last_entry"], js["tag"])
    assert srh_flags(srh) == js["flags"]
    assert bool(js["flags"] & 1) == js["flag_int"] and bool(js["flags"] & 2) == js["flag_sfc"]
    # Segments in wire order, as 16-byte values.
    assert [ip6(a).packed.hex() for a in srh.addresses] == js["segments"]
    assert len(srh.addresses) == srh.lastentry + 1
    # The active segment is the destination (RFC 8754), unless it is being consumed
    # (on the way to a vNF) or was consumed by End.DT.INT (mirrored in a report).
    active = js["segments"][js["segments_left"]]
    if active.startswith("fc00"):
        assert ip6(i6.dst).packed.hex() == active
    else:
        assert ip6(i6.dst).packed.hex().startswith("fc00")
        assert js["flag_sfc"] or js["segments_left"] == 0
    # Exactly one TLV: ours, the last 8 bytes of the SRH.
    assert len(srh.tlv_objects) == 1
    tlv = bytes(srh.tlv_objects[0])
    assert tlv.hex() == js["int_tlv"]["hex"]
    t, ln, map_info, dr = struct.unpack("!BBHI", tlv)
    assert (t, ln, map_info, dr) == (TLV_TYPE, 6, js["int_tlv"]["map_info"],
                                     js["int_tlv"]["detection_result"])
    assert 8 * (srh.len + 1) == 8 + 16 * (srh.lastentry + 1) + 8
    # INT metadata, parsed from the segment bytes with struct.
    for md in d["int_metadata"]:
        raw = ip6(srh.addresses[srh.lastentry - md["hop"]]).packed
        dev, qid, qhi, qlo, in_time, lat, pc = struct.unpack("!HBBHIIH", raw)
        assert (dev, qid, (qhi << 16) | qlo, in_time, lat, pc) == (
            md["device_id"], md["q_id"], md["q_length"], md["in_time"], md["vnf_latency"],
            md["port_counter"])
    # Inner packet.
    inner = bytes(srh.payload)
    assert len(inner) == d["inner"]["available"]
    assert d["inner"]["truncated"] == truncated
    if not truncated:
        if "ipv6" in d["inner"]:
            assert srh.nh == 41
            ipl = IPv6(inner)
            assert ip6(ipl.src) == ip6(d["inner"]["ipv6"]["src"])
            assert ip6(ipl.dst) == ip6(d["inner"]["ipv6"]["dst"])
            assert ipl.tc == i6.tc  # outer Traffic Class copied from the inner one
        else:
            assert srh.nh == 4
            ipl = IP(inner)
            assert ipl.src == d["inner"]["ipv4"]["src"] and ipl.dst == d["inner"]["ipv4"]["dst"]
            assert ipl.tos == i6.tc  # outer Traffic Class copied from the inner TOS
        assert five_tuple_label(inner) == i6.fl  # Flow Label = CRC-32 of the 5-tuple
    return p


@pytest.mark.parametrize("name", NAMES)
def test_vector_agrees_with_scapy(name):
    v, raw = load(name)
    d = v["decoded"]
    for m in v["masks"]:
        assert 0 <= m["offset"] and m["offset"] + m["length"] <= len(raw)
    if d["type"] == "srv6int":
        check_srv6(raw, d)
    elif d["type"] == "int_report":
        p = Ether(raw)
        assert p[IP].src == d["ipv4"]["src"] and p[IP].dst == d["ipv4"]["dst"]
        assert p[IP].flags == "DF" and p[IP].ttl == 64 and p[IP].id == 0
        rebuilt = IP(bytes(p[IP]))
        del rebuilt.chksum
        assert IP(bytes(rebuilt)).chksum == p[IP].chksum == d["ipv4"]["checksum"]
        assert p[UDP].dport == REPORT_PORT == d["udp"]["dst_port"]
        assert p[UDP].sport == d["udp"]["src_port"] and p[UDP].chksum == 0
        payload = bytes(p[UDP].payload)
        vh, flags, dev, seq, ts, orig, rsv = struct.unpack("!BBHIIHH", payload[:16])
        r = d["report"]
        assert (vh >> 4, vh & 15, flags, dev, seq, ts, orig, rsv) == (
            r["version"], r["hdr_len"], r["flags"], r["reporter_device_id"], r["sequence_number"],
            r["egress_timestamp"], r["original_length"], 0)
        mirrored = payload[16:]
        assert (orig > len(mirrored)) == r["truncated"]
        if not r["truncated"]:
            assert orig == len(mirrored)
        mp = check_srv6(mirrored, d["mirrored"], truncated=r["truncated"])
        assert mp[IPv6ExtHdrSegmentRouting].segleft == 0
        assert len(d["mirrored"]["int_metadata"]) == mp[IPv6ExtHdrSegmentRouting].lastentry + 1
    elif "ipv6" in d:
        p = Ether(raw)
        assert p.type == 0x86DD
        assert ip6(p[IPv6].src) == ip6(d["ipv6"]["src"]) and ip6(p[IPv6].dst) == ip6(d["ipv6"]["dst"])
        assert p[IPv6].tc == d["ipv6"]["traffic_class"] and p[IPv6].hlim == d["ipv6"]["hop_limit"]
        assert bytes(p[IPv6].payload).hex() == d["payload"]
        # The UDP checksum scapy computes over the IPv6 pseudo-header matches.
        rebuilt = IPv6(bytes(p[IPv6]))
        del rebuilt[UDP].chksum
        assert IPv6(bytes(rebuilt))[UDP].chksum == p[UDP].chksum
    else:
        p = Ether(raw)
        assert p[IP].src == d["ipv4"]["src"] and p[IP].dst == d["ipv4"]["dst"]
        assert p[UDP].sport == d["udp"]["src_port"] and p[UDP].dport == d["udp"]["dst_port"]
        assert bytes(p[UDP].payload).hex() == d["payload"]


def test_inner_packet_survives_the_chain():
    """The inner packet leaves SW4 exactly as it entered SW1, in both modes."""
    _, h1 = load("input-h1")
    for name in ("plain-4-sw4-end-dt", "sfc-6-sw4-end-dt", "local-8-sw4-end-dt"):
        _, out = load(name)
        assert out[14:] == h1[14:]
    _, h1v6 = load("input-h1-ipv6")
    _, out = load("ipv6-4-sw4-end-dt")
    assert out[12:] == h1v6[12:]  # EtherType IPv6 and the packet unchanged


def test_vnf_latency_and_detection_result():
    """SFC mode: per-hop vNF latency in the report, Detection Result on the way to each vNF."""
    d = load("sfc-7-sw4-report")[0]["decoded"]["mirrored"]
    assert [m["vnf_latency"] for m in d["int_metadata"]] == [0, 40000, 25000, 0]
    assert [m["device_id"] for m in d["int_metadata"]] == [1, 2, 3, 4]
    assert load("sfc-2-sw2-to-vnf1")[0]["decoded"]["srh"]["int_tlv"]["detection_result"] == 38500
    assert load("sfc-4-sw3-to-vnf2")[0]["decoded"]["srh"]["int_tlv"]["detection_result"] == 27250


def test_consecutive_local_vnfs_one_entry_per_hop():
    """vNFs 1-3 behind SW2 and vNF 4 before End.DT.INT on SW4: each vNF wrote its own
    entry with its own latency, and each departure stamped that vNF's Detection Result."""
    d = load("local-9-sw4-report")[0]["decoded"]["mirrored"]
    assert [m["device_id"] for m in d["int_metadata"]] == [1, 2, 2, 2, 3, 4, 4]
    assert [m["vnf_latency"] for m in d["int_metadata"]] == [0, 39000, 38000, 48000, 0, 39000, 0]
    results = [load(n)[0]["decoded"]["srh"]["int_tlv"]["detection_result"] for n in (
        "local-2-sw2-to-vnf1", "local-3-sw2-to-vnf2", "local-4-sw2-to-vnf3", "local-7-sw4-to-vnf4")]
    assert results == [31000, 32000, 33000, 34000]
    # Each frame to a vNF is addressed to that vNF's SID, with the Segments Left of its slot.
    for n, sid, sl in (("local-3-sw2-to-vnf2", "fc00:0:2::f2", 4), ("local-4-sw2-to-vnf3", "fc00:0:2::f3", 3)):
        j = load(n)[0]["decoded"]
        assert ip6(j["ipv6"]["dst"]) == ip6(sid) and j["srh"]["segments_left"] == sl
