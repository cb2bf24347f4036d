#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""SRv6-INT test frames for the vNFs (stdlib only; layout: docs/wire-format.md).

  frames.py gen dpi OUT.pcap                 flows nDPI can classify (DNS, HTTP, NTP, ...) + one unknown
  frames.py gen clean OUT.pcap [-n N]        TCP/UDP frames with clean text payloads (no rule matches)
  frames.py gen attack OUT.pcap --samples F  frames whose payloads contain a rule's sample (+ the canary)
  frames.py gen malformed OUT.pcap           broken frames, one per decoder reason, + inner-broken valid ones
  frames.py gen bench OUT.pcap --payload N   HTTP-like flows (8 frames each) for the service-rate curves
  frames.py gen mix OUT.pcap [--sizes 200,256,512,1024] [--flows N]   frames of those sizes, in turn
  frames.py gen seeds OUT.pcap               all valid kinds together (fuzz seeds)
  frames.py vectors DIR OUT.pcap             the golden SRv6-INT frames of tests/vectors (those a vNF may see)
  frames.py capture IFACE COUNT TIMEOUT OUT.pcap   receive up to COUNT frames (AF_PACKET); OUT.ready once bound
  frames.py compare SENT.pcap GOT.pcap       exit 0 if GOT holds exactly SENT's frames, in order

Frames: Ethernet | IPv6 (src fc00:0:1::1, dst = the vNF SID fc00:0:2::f1, NH 43) |
SRH with 4 segments, Segments Left 2, flags I|S, tag 1, SRv6-INT TLV | inner IPv4 or IPv6.
"""
import random
import socket
import struct
import sys
import time
import zlib

SEGMENTS = ["fc00:0:4::d4", "fc00:0:3::1", "fc00:0:2::f1", "fc00:0:1::1"]   # Segment List[0..3]
VNF_SID = SEGMENTS[2]
ETH = bytes.fromhex("020000000201" "020000000002") + b"\x86\xdd"


def a6(s):
    return socket.inet_pton(socket.AF_INET6, s)


def a4(s):
    return socket.inet_aton(s)


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def l4(proto, src, dst, sport, dport, payload, flags=0x18, seq=1, ack=0):
    if proto == 17:
        h = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0)
    else:
        h = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags, 65535, 0, 0)
    seg = h + payload
    if len(src) == 4:
        ph = src + dst + struct.pack("!BBH", 0, proto, len(seg))
    else:
        ph = src + dst + struct.pack("!IxxxB", len(seg), proto)
    c = csum(ph + seg) or 0xFFFF
    off = 6 if proto == 17 else 16
    return seg[:off] + struct.pack("!H", c) + seg[off + 2:]


def inner4(src, dst, proto, sport, dport, payload, **kw):
    s, d = a4(src), a4(dst)
    body = l4(proto, s, d, sport, dport, payload, **kw)
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(body), 0x1234, 0x4000, 64, proto, 0, s, d)
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + body, 4, (s, d, proto, sport, dport)


def inner6(src, dst, proto, sport, dport, payload, **kw):
    s, d = a6(src), a6(dst)
    body = l4(proto, s, d, sport, dport, payload, **kw)
    h = struct.pack("!IHBB16s16s", 6 << 28, len(body), proto, 64, s, d)
    return h + body, 41, (s, d, proto, sport, dport)


def encap(inner, nh, key, detection=38500, segs_left=2):
    s, d, proto, sp, dp = key
    h = zlib.crc32(s + d + bytes([proto]) + struct.pack("!HH", sp, dp)) & 0xFFFFFFFF
    tc = inner[1] if nh == 4 else ((inner[0] & 0x0F) << 4 | inner[1] >> 4)
    n = len(SEGMENTS)
    srh = struct.pack("!BBBBBBH", nh, 2 * n + 1, 4, segs_left, n - 1, 0x03, 1)
    srh += b"".join(a6(x) for x in SEGMENTS)
    srh += struct.pack("!BBHI", 252, 6, 0x1F, detection)
    ip6 = struct.pack("!IHBB16s16s", 6 << 28 | tc << 20 | (h & 0xFFFFF), len(srh) + len(inner), 43, 64,
                      a6(SEGMENTS[3]), a6(SEGMENTS[segs_left]))
    return ETH + ip6 + srh + inner


def frame(ver, src, dst, proto, sport, dport, payload, **kw):
    f = inner4 if ver == 4 else inner6
    return encap(*f(src, dst, proto, sport, dport, payload, **kw))


def dns_query(name, qid=0x1234):
    q = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0"
    return struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + q + struct.pack("!HH", 1, 1)


def tcp_flow(ver, c, s, cport, sport, req, resp):
    """handshake, request, response, ACK: 5 frames"""
    out = [frame(ver, c, s, 6, cport, sport, b"", flags=0x02, seq=100),
           frame(ver, s, c, 6, sport, cport, b"", flags=0x12, seq=500, ack=101),
           frame(ver, c, s, 6, cport, sport, b"", flags=0x10, seq=101, ack=501),
           frame(ver, c, s, 6, cport, sport, req, flags=0x18, seq=101, ack=501)]
    if resp:
        out.append(frame(ver, s, c, 6, sport, cport, resp, flags=0x18, seq=501, ack=101 + len(req)))
    return out


def gen_dpi():
    fr = []
    fr.append(frame(4, "10.0.1.1", "10.0.4.53", 17, 40001, 53, dns_query("www.example.com")))
    fr.append(frame(6, "2001:db8:1::1", "2001:db8:4::53", 17, 40002, 53, dns_query("srv6.example.org", 0x4321)))
    http_req = b"GET /index.html HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n"
    http_resp = b"HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello"
    fr += tcp_flow(4, "10.0.1.1", "10.0.4.80", 40003, 80, http_req, http_resp)
    fr += tcp_flow(6, "2001:db8:1::1", "2001:db8:4::80", 40004, 80, http_req, http_resp)
    ntp = bytes([0x23, 0, 6, 0x20]) + bytes(44)
    fr.append(frame(4, "10.0.1.1", "10.0.4.123", 17, 40005, 123, ntp))
    fr += tcp_flow(4, "10.0.1.1", "10.0.4.22", 40006, 22, b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", b"SSH-2.0-OpenSSH_8.4\r\n")
    fr.append(frame(4, "10.0.1.1", "10.0.4.9", 17, 41000, 47000, bytes(random.Random(7).randrange(256) for _ in range(64))))
    return fr


CLEAN_WORDS = ("the quick brown fox jumps over the lazy dog while packets cross the service chain "
               "and every segment routing header stays exactly as the switch wrote it").split()


def clean_text(r, n):
    out = []
    while sum(len(w) + 1 for w in out) < n:
        out.append(r.choice(CLEAN_WORDS))
    return (" ".join(out)).encode()[:n]


def gen_clean(n):
    r = random.Random(11)
    fr = []
    for i in range(n):
        ver = 4 if i % 2 == 0 else 6
        src, dst = ("10.0.1.1", "10.0.4.7") if ver == 4 else ("2001:db8:1::1", "2001:db8:4::7")
        proto = 17 if i % 3 else 6
        fr.append(frame(ver, src, dst, proto, 42000 + i, 8080, clean_text(r, r.randint(40, 900))))
    return fr


def gen_attack(samples_path, n):
    samples = [l.split("\t") for l in open(samples_path).read().split("\n") if l]
    r = random.Random(13)
    pick = [samples[0]] + r.sample(samples[1:], n - 1)
    fr = []
    for i, (rid, hx) in enumerate(pick):
        pay = clean_text(r, r.randint(20, 300)) + b" " + bytes.fromhex(hx) + b" " + clean_text(r, 40)
        ver = 4 if i % 2 == 0 else 6
        src, dst = ("10.0.1.1", "10.0.4.8") if ver == 4 else ("2001:db8:1::1", "2001:db8:4::8")
        fr.append(frame(ver, src, dst, 6 if i % 2 else 17, 43000 + i, 80, pay))
    return fr, [p[0] for p in pick]


def gen_malformed():
    """(frame, expected drop reason or None if it must be forwarded)"""
    good = frame(4, "10.0.1.1", "10.0.4.7", 17, 44000, 9, b"payload of a good frame")
    out = []
    def mod(off, val):
        b = bytearray(good); b[off] = val; return bytes(b)
    out.append((good[:10], "TRUNCATED_ETHERNET"))
    out.append((good[:12] + b"\x08\x00" + good[14:], "UNSUPPORTED_ETHERTYPE"))
    out.append((good[:50], "TRUNCATED_IPV6"))
    out.append((mod(14, 0x40), "BAD_IPV6_VERSION"))
    out.append((mod(20, 17), "NO_ROUTING_HEADER"))
    out.append((good[:58], "TRUNCATED_SRH"))
    out.append((mod(56, 2), "BAD_ROUTING_TYPE"))
    out.append((mod(55, 200), "SRH_LENGTH_PAST_BUFFER"))
    b = bytearray(good); b[18:20] = struct.pack("!H", 16); out.append((bytes(b), "PAYLOAD_LENGTH_SHORTER_THAN_SRH"))
    out.append((mod(58, 9), "LAST_ENTRY_PAST_LIST"))
    out.append((mod(57, 5), "SEGMENTS_LEFT_PAST_LAST_ENTRY"))
    out.append((mod(127, 200), "TLV_LENGTH_PAST_END"))
    out.append((mod(126, 7), "UNKNOWN_TLV"))
    out.append((mod(127, 4), "BAD_INT_TLV_LENGTH"))
    b = bytearray(good); b[126:134] = bytes([4, 6]) + bytes(6); out.append((bytes(b), "MISSING_INT_TLV"))
    b = bytearray(good); b[128] = 0x80; out.append((bytes(b), "MAPINFO_BITS_WITHOUT_FIELD"))
    # valid SRv6-INT with a broken inner packet: forwarded unchanged, counted as not inspected
    out.append((good[:134 + 10], None))                 # inner IPv4 cut after 10 bytes (captured-truncated)
    b = bytearray(good); b[134] = 0x41; out.append((bytes(b), None))   # inner IHL 1
    b = bytearray(good); b[54] = 59; out.append((bytes(b), None))      # SRH NH = No Next Header
    # truncations of a good frame at every length up to the inner packet
    for l in range(0, 134, 7):
        out.append((good[:l], "trunc"))
    return out


def gen_bench(payload, flows):
    """flows of 8 frames: request + 7 continuation segments, HTTP-like clean text"""
    r = random.Random(17)
    fr = []
    for fno in range(flows):
        ver = 4 if fno % 4 else 6
        c, s = (("10.1.%d.%d" % (fno >> 8, fno & 255), "10.0.4.80") if ver == 4
                else ("2001:db8:1::%x" % (fno + 1), "2001:db8:4::80"))
        cport = 20000 + fno
        req = (b"GET /app/%d/index.html?user=%d HTTP/1.1\r\nHost: www.example.com\r\n"
               b"User-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nAccept: */*\r\nCookie: session=%d\r\n\r\n"
               % (fno, r.randrange(10**6), r.randrange(10**9)))
        req = (req + clean_text(r, payload))[:payload]
        fr.append(frame(ver, c, s, 6, cport, 80, req, seq=1000))
        for k in range(7):
            fr.append(frame(ver, c, s, 6, cport, 80, clean_text(r, payload), seq=1000 + payload * (k + 1)))
    # interleave flows so consecutive frames belong to different flows
    per = 8
    return [fr[f * per + k] for k in range(per) for f in range(flows)]


def gen_mix(sizes, flows):
    """flows of 8 frames, HTTP-like clean text; frame k of flow f is sizes[(f + k) % len(sizes)]
    bytes on the wire (Ethernet to the end of the inner payload, SRv6 encapsulation included)"""
    r = random.Random(19)
    fr = []
    for fno in range(flows):
        ver = 4 if fno % 4 else 6
        c, s = (("10.1.%d.%d" % (fno >> 8, fno & 255), "10.0.4.80") if ver == 4
                else ("2001:db8:1::%x" % (fno + 1), "2001:db8:4::80"))
        over = len(frame(ver, c, s, 6, 1, 80, b""))
        req = (b"GET /app/%d/index.html HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: Mozilla/5.0\r\n\r\n" % fno)
        for k in range(8):
            n = max(0, sizes[(fno + k) % len(sizes)] - over)
            body = ((req if k == 0 else b"") + clean_text(r, n))[:n].ljust(n, b" ")
            fr.append(frame(ver, c, s, 6, 20000 + fno, 80, body, seq=1000 + 2000 * k))
    return [fr[f * 8 + k] for k in range(8) for f in range(flows)]


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        t = 1700000000
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", t, i, len(fr), len(fr)))
            f.write(fr)


def read_pcap(path):
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    e = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    off, out = 24, []
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(e + "IIII", data[off:off + 16])
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


def capture(iface, count, timeout, out):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind((iface, 0))
    open(out + ".ready", "w").close()
    got, end = [], time.time() + timeout
    while len(got) < count and time.time() < end:
        s.settimeout(max(0.01, end - time.time()))
        try:
            data, addr = s.recvfrom(65535)
        except socket.timeout:
            break
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        got.append(data)
    write_pcap(out, got)
    print("captured=%d" % len(got))


def main():
    a = sys.argv[1:]
    if not a:
        print(__doc__); sys.exit(2)
    if a[0] == "gen":
        kind, out = a[1], a[2]
        opt = dict(zip(a[3::2], a[4::2]))
        if kind == "dpi":
            fr = gen_dpi()
        elif kind == "clean":
            fr = gen_clean(int(opt.get("-n", 50)))
        elif kind == "attack":
            fr, ids = gen_attack(opt["--samples"], int(opt.get("-n", 20)))
            open(out + ".ids", "w").write("\n".join(ids) + "\n")
        elif kind == "malformed":
            m = gen_malformed()
            fr = [x[0] for x in m]
            write_pcap(out + ".fwd.pcap", [x[0] for x in m if x[1] is None])
            # frames shorter than an Ethernet header cannot be sent (the kernel refuses them)
            open(out + ".wire-drops", "w").write("%d\n" % sum(1 for x in m if x[1] and len(x[0]) >= 14))
            with open(out + ".expect", "w") as f:
                for x in m:
                    f.write("%s\n" % (x[1] or "forward"))
        elif kind == "bench":
            fr = gen_bench(int(opt.get("--payload", 512)), int(opt.get("--flows", 512)))
        elif kind == "mix":
            fr = gen_mix([int(x) for x in opt.get("--sizes", "200,256,512,1024").split(",")],
                         int(opt.get("--flows", 256)))
        elif kind == "seeds":
            fr = gen_dpi() + gen_clean(20) + gen_bench(200, 4)
        else:
            sys.exit("unknown kind " + kind)
        write_pcap(out, fr)
        print("frames=%d" % len(fr))
    elif a[0] == "vectors":
        import glob, json
        fr = []
        for p in sorted(glob.glob(a[1] + "/*.json")):
            d = json.load(open(p))
            b = bytes.fromhex(d.get("hex", ""))
            # encapsulated frames only (EtherType 0x86DD, NH 43): what a switch sends to a vNF
            if len(b) > 54 and b[12:14] == b"\x86\xdd" and b[20] == 43:
                fr.append(b)
        write_pcap(a[2], fr)
        print("frames=%d" % len(fr))
    elif a[0] == "capture":
        capture(a[1], int(a[2]), float(a[3]), a[4])
    elif a[0] == "compare":
        sent, got = read_pcap(a[1]), read_pcap(a[2])
        same = sum(1 for x, y in zip(sent, got) if x == y)
        print("sent=%d received=%d identical=%d" % (len(sent), len(got), same))
        sys.exit(0 if len(sent) == len(got) == same else 1)
    else:
        print(__doc__); sys.exit(2)


if __name__ == "__main__":
    main()
