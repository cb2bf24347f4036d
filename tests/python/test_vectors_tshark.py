# SPDX-License-Identifier: Apache-2.0
"""The Wireshark Lua dissector (tools/wireshark/srv6int.lua), run by tshark over
the golden vectors, must show the same SRv6-INT fields as the vectors' JSON. The
pcap is written here in Python and must equal tools/srv6int-pcap's byte for byte."""
import json
import os
import pathlib
import shutil
import struct
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors"
LUA = ROOT / "tools" / "wireshark" / "srv6int.lua"
NAMES = json.loads((VECTORS / "index.json").read_text())["vectors"]
FIELDS = ["frame.number", "srv6int.tag", "srv6int.flags", "srv6int.detection_result",
          "srv6int.map_info", "srv6int.tlv.type", "srv6int.md.device_id", "srv6int.md.q_length",
          "srv6int.md.in_time", "srv6int.md.vnf_latency", "srv6int.md.port_counter",
          "srv6int.report.version", "srv6int.report.reporter", "srv6int.report.seq",
          "srv6int.report.egress_ts", "srv6int.report.orig_len", "srv6int.report.truncated",
          "_ws.malformed"]

if shutil.which("tshark") is None and os.environ.get("SRV6INT_ALLOW_NO_TSHARK") == "1":
    pytest.skip("tshark not installed (allowed by SRV6INT_ALLOW_NO_TSHARK=1)", allow_module_level=True)


def vectors():
    return [json.loads((VECTORS / f"{n}.json").read_text()) for n in NAMES]


def write_pcap(path, frames):
    out = bytearray(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i, f in enumerate(frames):
        out += struct.pack("<IIII", i, 0, len(f), len(f)) + f
    path.write_bytes(bytes(out))


@pytest.fixture(scope="module")
def pcap(tmp_path_factory):
    p = tmp_path_factory.mktemp("pcap") / "vectors.pcap"
    write_pcap(p, [bytes.fromhex(v["hex"]) for v in vectors()])
    return p


@pytest.fixture(scope="module")
def rows(pcap):
    assert shutil.which("tshark"), "tshark is missing: install it (tools/deps/codec.apt)"
    cmd = ["tshark", "-X", f"lua_script:{LUA}", "-r", str(pcap), "-T", "fields",
           "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=,"]
    for f in FIELDS:
        cmd += ["-e", f]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "Lua: Error" not in res.stderr, res.stderr
    out = []
    for line in res.stdout.splitlines():
        cols = line.split("\t")
        out.append(dict(zip(FIELDS, cols + [""] * (len(FIELDS) - len(cols)))))
    assert len(out) == len(NAMES)
    return out


def ints(s):
    return [int(x, 0) for x in s.split(",")] if s else []


def test_java_pcap_tool_writes_the_same_file(pcap, tmp_path):
    out = tmp_path / "java.pcap"
    res = subprocess.run([str(ROOT / "tools" / "srv6int-pcap"), str(VECTORS), str(out)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    assert out.read_bytes() == pcap.read_bytes()


@pytest.mark.parametrize("i", range(len(NAMES)), ids=NAMES)
def test_dissector_agrees_with_vector(rows, i):
    v = vectors()[i]
    row = rows[i]
    d = v["decoded"]
    if d["type"] == "int_report":
        r = d["report"]
        assert ints(row["srv6int.report.version"]) == [r["version"]]
        assert ints(row["srv6int.report.reporter"]) == [r["reporter_device_id"]]
        assert ints(row["srv6int.report.seq"]) == [r["sequence_number"]]
        assert ints(row["srv6int.report.egress_ts"]) == [r["egress_timestamp"]]
        assert ints(row["srv6int.report.orig_len"]) == [r["original_length"]]
        assert row["srv6int.report.truncated"] in (("True", "1") if r["truncated"] else ("False", "0"))
        if not r["truncated"]:
            assert row["_ws.malformed"] == ""
        d = d["mirrored"]
    elif d["type"] != "srv6int":
        assert row["srv6int.tag"] == "" and row["srv6int.report.seq"] == ""
        return
    else:
        assert row["_ws.malformed"] == ""
    s = d["srh"]
    assert ints(row["srv6int.tag"]) == [s["tag"]]
    assert ints(row["srv6int.flags"]) == [s["flags"]]
    assert ints(row["srv6int.tlv.type"]) == [252]
    assert ints(row["srv6int.map_info"]) == [s["int_tlv"]["map_info"]]
    assert ints(row["srv6int.detection_result"]) == [s["int_tlv"]["detection_result"]]
    md = d["int_metadata"]
    assert ints(row["srv6int.md.device_id"]) == [m["device_id"] for m in md]
    assert ints(row["srv6int.md.q_length"]) == [m["q_length"] for m in md]
    assert ints(row["srv6int.md.in_time"]) == [m["in_time"] for m in md]
    assert ints(row["srv6int.md.vnf_latency"]) == [m["vnf_latency"] for m in md]
    assert ints(row["srv6int.md.port_counter"]) == [m["port_counter"] for m in md]
