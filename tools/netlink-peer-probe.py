#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Measurement for docs/security.md ("hostPID and SYS_PTRACE"; the agent does the same in Java:
# node-agent wiring.PodInterfaces, RtNetlink): finds, from the host's network
# namespace, the pod-side name and MAC of every host veth whose name starts with argv[1], by
# netlink only (RTM_GETLINK with IFLA_TARGET_NETNSID): no /proc/<pid>, no setns. Needs
# CAP_NET_ADMIN; run under `unshare --pid --fork --mount-proc setpriv --bounding-set=-all,+net_admin ...`
# it shows that neither host PIDs nor SYS_PTRACE are needed.
# Lists host-side veths (link-netnsid, peer ifindex) from the host netns, then asks the kernel for the
# peer's name and MAC in the pod's netns by nsid (RTM_GETLINK + IFLA_TARGET_NETNSID): no setns, no /proc.
import socket, struct, sys
NETLINK_ROUTE=0; RTM_GETLINK=18; RTM_NEWLINK=16; NLM_F_REQUEST=1; NLM_F_DUMP=0x300
IFLA_ADDRESS=1; IFLA_IFNAME=3; IFLA_LINK=5; IFLA_LINKINFO=18; IFLA_LINK_NETNSID=37; IFLA_TARGET_NETNSID=46
IFLA_INFO_KIND=1
def attrs(buf):
    out={}; i=0
    while i+4<=len(buf):
        l,t=struct.unpack_from("HH",buf,i)
        if l<4: break
        out[t & 0x3fff]=buf[i+4:i+l]; i+=(l+3)&~3
    return out
def req(s, flags, index=0, target=None):
    body=struct.pack("BxHiII",0,0,index,0,0)
    if target is not None:
        body+=struct.pack("HHi",8,IFLA_TARGET_NETNSID,target)
    hdr=struct.pack("IHHII",16+len(body),RTM_GETLINK,NLM_F_REQUEST|flags,1,0)
    s.send(hdr+body)
    links=[]
    while True:
        data=s.recv(65536); i=0; done=False
        while i<len(data):
            l,t,f,seq,pid=struct.unpack_from("IHHII",data,i)
            if t==3: done=True; break
            if t==2:
                err=struct.unpack_from("i",data,i+16)[0]
                if err: raise OSError(-err, "netlink error")
                done=True; break
            if t==RTM_NEWLINK:
                fam,typ,idx,fl,ch=struct.unpack_from("BxHiII",data,i+16)
                links.append((idx,attrs(data[i+32:i+l])))
            i+=(l+3)&~3
        if done or not (flags & NLM_F_DUMP): break
    return links
s=socket.socket(socket.AF_NETLINK,socket.SOCK_RAW,NETLINK_ROUTE); s.bind((0,0))
for idx,a in req(s,NLM_F_DUMP):
    name=a.get(IFLA_IFNAME,b"").rstrip(b"\0").decode()
    if not name.startswith(sys.argv[1]) or IFLA_LINK_NETNSID not in a: continue
    nsid=struct.unpack("i",a[IFLA_LINK_NETNSID])[0]; peer=struct.unpack("i",a[IFLA_LINK])[0]
    p=req(s,0,peer,nsid)[0][1]
    print("host %s (ifindex %d) -> netnsid %d peer ifindex %d: %s mac %s" % (name, idx, nsid, peer,
          p[IFLA_IFNAME].rstrip(b"\0").decode(), ":".join("%02x" % b for b in p[IFLA_ADDRESS])))
