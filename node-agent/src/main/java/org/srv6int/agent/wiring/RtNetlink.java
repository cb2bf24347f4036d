// SPDX-License-Identifier: Apache-2.0
package org.srv6int.agent.wiring;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A NETLINK_ROUTE socket of the agent's network namespace (the host's, under hostNetwork)
 * asking for links: all of this namespace ({@code RTM_GETLINK} dump), or one of a peer
 * namespace by its nsid ({@code IFLA_TARGET_NETNSID}, Linux ≥ 4.20), which the kernel
 * answers without the caller entering that namespace: no setns, no {@code /proc/<pid>},
 * only {@code CAP_NET_ADMIN} over the peer namespace's user namespace (else EACCES).
 *
 * <p>Java has no AF_NETLINK; the socket is libc's, called through JNA, which the agent
 * already carries for libpcap (pcap4j), so the image gains nothing. iproute2 cannot stand
 * in: {@code ip link} has no target-nsid lookup, only setns ({@code ip -n}), which needs
 * {@code CAP_SYS_ADMIN} and a path to the namespace. Not thread-safe; one lookup at a time.
 */
public final class RtNetlink implements AutoCloseable {

    private static final int AF_NETLINK = 16;
    private static final int SOCK_RAW = 3;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int NETLINK_ROUTE = 0;
    private static final int SOL_SOCKET = 1;
    private static final int SO_RCVTIMEO = 20;
    private static final short RTM_NEWLINK = 16;
    private static final short RTM_GETLINK = 18;
    private static final short NLMSG_ERROR = 2;
    private static final short NLMSG_DONE = 3;
    private static final short NLM_F_REQUEST = 1;
    private static final short NLM_F_DUMP = 0x300;
    private static final int IFLA_ADDRESS = 1;
    private static final int IFLA_IFNAME = 3;
    private static final int IFLA_LINK = 5;
    private static final int IFLA_LINKINFO = 18;
    private static final int IFLA_INFO_KIND = 1;
    private static final int IFLA_LINK_NETNSID = 37;
    private static final int IFLA_TARGET_NETNSID = 46;
    private static final int NLMSG_HDRLEN = 16;
    private static final int IFINFOMSG_LEN = 16;
    private static final int ENODEV = 19;
    private static final int EINVAL = 22;
    /** A reply never takes this long; bounds a recv the kernel would never answer. */
    private static final int RECV_TIMEOUT_S = 5;

    /** The libc calls used. */
    interface Libc extends Library {
        int socket(int domain, int type, int protocol) throws LastErrorException;

        int bind(int fd, byte[] addr, int len) throws LastErrorException;

        int setsockopt(int fd, int level, int name, byte[] value, int len) throws LastErrorException;

        NativeLong send(int fd, byte[] buf, NativeLong len, int flags) throws LastErrorException;

        NativeLong recv(int fd, byte[] buf, NativeLong len, int flags) throws LastErrorException;

        int close(int fd);
    }

    /** One link as the kernel reports it. */
    public static final class Link {
        private final int index;
        private final String name;
        private final String mac;
        private final String kind;
        private final int peerIndex;
        private final Integer peerNetnsid;

        Link(int index, String name, String mac, String kind, int peerIndex, Integer peerNetnsid) {
            this.index = index;
            this.name = name;
            this.mac = mac;
            this.kind = kind;
            this.peerIndex = peerIndex;
            this.peerNetnsid = peerNetnsid;
        }

        /** @return ifindex in its namespace */
        public int index() {
            return index;
        }

        /** @return interface name */
        public String name() {
            return name;
        }

        /** @return MAC address, lower case with colons; "" if it has none */
        public String mac() {
            return mac;
        }

        /** @return the link kind ({@code veth}, {@code bridge}, ...), "" for a physical NIC */
        public String kind() {
            return kind;
        }

        /** @return IFLA_LINK: a veth's peer ifindex (in {@link #peerNetnsid()}'s namespace), 0 if none */
        public int peerIndex() {
            return peerIndex;
        }

        /**
         * The nsid, in the asker's namespace, of the namespace the peer lives in.
         *
         * @return nsid; null if the peer is in the link's own namespace (or it has none)
         */
        public Integer peerNetnsid() {
            return peerNetnsid;
        }

        @Override
        public String toString() {
            return name + "(" + index + (kind.isEmpty() ? "" : " " + kind) + ", " + mac
                    + (peerNetnsid == null ? "" : ", peer " + peerIndex + "@nsid " + peerNetnsid) + ")";
        }
    }

    private static volatile Libc libc;

    private final Libc c;
    private final int fd;
    private final byte[] buf = new byte[32 * 1024];
    private int seq;

    private RtNetlink(Libc c, int fd) {
        this.c = c;
        this.fd = fd;
    }

    /**
     * Opens a socket in the caller's network namespace.
     *
     * @return the socket
     * @throws IOException if netlink or libc is not available
     */
    public static RtNetlink open() throws IOException {
        Libc l;
        int fd;
        try {
            l = libc();
            fd = l.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
        } catch (LastErrorException e) {
            throw new IOException("netlink socket: " + errno(e.getErrorCode()), e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new IOException("netlink socket: libc not callable through JNA (" + e.getMessage() + ")", e);
        }
        try {
            byte[] sa = new byte[12]; // sockaddr_nl: family, pad, pid 0 (the kernel picks), groups 0
            sa[0] = (byte) AF_NETLINK;
            l.bind(fd, sa, sa.length);
            byte[] tv = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder()).putLong(RECV_TIMEOUT_S).putLong(0)
                    .array();
            l.setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, tv, tv.length);
        } catch (LastErrorException e) {
            l.close(fd);
            throw new IOException("netlink bind: " + errno(e.getErrorCode()), e);
        }
        return new RtNetlink(l, fd);
    }

    private static Libc libc() {
        Libc l = libc;
        if (l == null) {
            l = Native.load("c", Libc.class);
            libc = l;
        }
        return l;
    }

    /**
     * Every link of this namespace.
     *
     * @return links in the kernel's order
     * @throws IOException on a netlink error
     */
    public List<Link> links() throws IOException {
        return request(NLM_F_DUMP, 0, null);
    }

    /**
     * One link of a peer namespace, asked by the nsid this namespace gave it.
     *
     * @param netnsid nsid (as in {@link Link#peerNetnsid()})
     * @param index ifindex inside that namespace
     * @return the link; null if there is none: no such ifindex (ENODEV) or no namespace
     *     with that nsid (EINVAL), as when a pod's namespace is torn down between the
     *     dump that named it and this request
     * @throws IOException on another netlink error (EACCES without CAP_NET_ADMIN)
     */
    public Link link(int netnsid, int index) throws IOException {
        try {
            List<Link> l = request((short) 0, index, netnsid);
            return l.isEmpty() ? null : l.get(0);
        } catch (NetlinkError e) {
            if (e.errno == ENODEV || e.errno == EINVAL) {
                return null;
            }
            throw e;
        }
    }

    /** The kernel's error answer to a request. */
    static final class NetlinkError extends IOException {
        private static final long serialVersionUID = 1L;
        final int errno;

        NetlinkError(String what, int errno) {
            super(what + ": " + errno(errno));
            this.errno = errno;
        }
    }

    private List<Link> request(short flags, int index, Integer target) throws IOException {
        int s = ++seq;
        ByteBuffer b = ByteBuffer.allocate(NLMSG_HDRLEN + IFINFOMSG_LEN + (target == null ? 0 : 8))
                .order(ByteOrder.nativeOrder());
        b.putInt(b.capacity()).putShort(RTM_GETLINK).putShort((short) (NLM_F_REQUEST | flags)).putInt(s).putInt(0);
        b.put((byte) 0).put((byte) 0).putShort((short) 0).putInt(index).putInt(0).putInt(0); // ifinfomsg
        if (target != null) {
            b.putShort((short) 8).putShort((short) IFLA_TARGET_NETNSID).putInt(target);
        }
        String what = target == null ? (flags != 0 ? "link dump" : "link " + index)
                : "link " + index + " of nsid " + target;
        try {
            c.send(fd, b.array(), new NativeLong(b.capacity()), 0);
        } catch (LastErrorException e) {
            throw new IOException(what + ": send: " + errno(e.getErrorCode()), e);
        }
        List<Link> out = new ArrayList<>();
        while (true) {
            int n;
            try {
                n = (int) c.recv(fd, buf, new NativeLong(buf.length), 0).longValue();
            } catch (LastErrorException e) {
                throw new IOException(what + ": recv: " + errno(e.getErrorCode()), e);
            }
            if (parse(ByteBuffer.wrap(buf, 0, n).order(ByteOrder.nativeOrder()), s, what, out)
                    || flags == 0 && !out.isEmpty()) {
                return out;
            }
        }
    }

    /**
     * Reads one datagram of answers into {@code out}.
     *
     * @return true if the answer is complete (NLMSG_DONE, or an acknowledgement)
     * @throws NetlinkError if the kernel answered with an error
     */
    static boolean parse(ByteBuffer b, int seq, String what, List<Link> out) throws NetlinkError {
        while (b.remaining() >= NLMSG_HDRLEN) {
            int start = b.position();
            int len = b.getInt(start);
            short type = b.getShort(start + 4);
            int s = b.getInt(start + 8);
            if (len < NLMSG_HDRLEN || start + len > b.limit()) {
                throw new NetlinkError(what + ": truncated message", 0);
            }
            if (s == seq) {
                if (type == NLMSG_DONE) {
                    return true;
                }
                if (type == NLMSG_ERROR) {
                    int err = b.getInt(start + NLMSG_HDRLEN);
                    if (err != 0) {
                        throw new NetlinkError(what, -err);
                    }
                    return true;
                }
                if (type == RTM_NEWLINK && len >= NLMSG_HDRLEN + IFINFOMSG_LEN) {
                    out.add(link(b, start, len));
                }
            }
            b.position(Math.min(b.limit(), start + align(len)));
        }
        return false;
    }

    private static Link link(ByteBuffer b, int start, int len) {
        int index = b.getInt(start + NLMSG_HDRLEN + 4);
        String name = "";
        String mac = "";
        String kind = "";
        int peer = 0;
        Integer nsid = null;
        int end = start + len;
        int a = start + NLMSG_HDRLEN + IFINFOMSG_LEN;
        while (a + 4 <= end) {
            int alen = b.getShort(a) & 0xffff;
            int type = b.getShort(a + 2) & 0x3fff; // without NLA_F_NESTED and NLA_F_NET_BYTEORDER
            if (alen < 4 || a + alen > end) {
                break;
            }
            int v = a + 4;
            int vlen = alen - 4;
            if (type == IFLA_IFNAME) {
                name = string(b, v, vlen);
            } else if (type == IFLA_ADDRESS) {
                mac = mac(b, v, vlen);
            } else if (type == IFLA_LINK && vlen >= 4) {
                peer = b.getInt(v);
            } else if (type == IFLA_LINK_NETNSID && vlen >= 4) {
                nsid = b.getInt(v);
            } else if (type == IFLA_LINKINFO) {
                int i = v;
                while (i + 4 <= v + vlen) {
                    int ilen = b.getShort(i) & 0xffff;
                    if (ilen < 4 || i + ilen > v + vlen) {
                        break;
                    }
                    if ((b.getShort(i + 2) & 0x3fff) == IFLA_INFO_KIND) {
                        kind = string(b, i + 4, ilen - 4);
                    }
                    i += align(ilen);
                }
            }
            a += align(alen);
        }
        if (nsid != null && nsid < 0) {
            nsid = null; // NETNSA_NSID_NOT_ASSIGNED: the kernel gave the peer's namespace no id in ours
        }
        return new Link(index, name, mac, kind, peer, nsid);
    }

    private static String string(ByteBuffer b, int off, int len) {
        int n = 0;
        while (n < len && b.get(off + n) != 0) {
            n++;
        }
        byte[] s = new byte[n];
        for (int i = 0; i < n; i++) {
            s[i] = b.get(off + i);
        }
        return new String(s, StandardCharsets.UTF_8);
    }

    private static String mac(ByteBuffer b, int off, int len) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02x", b.get(off + i) & 0xff));
        }
        return sb.toString();
    }

    private static int align(int len) {
        return (len + 3) & ~3;
    }

    private static String errno(int e) {
        switch (e) {
            case 1:
                return "EPERM";
            case 13:
                return "EACCES (the agent needs CAP_NET_ADMIN)";
            case 19:
                return "ENODEV (no such link)";
            case 22:
                return "EINVAL (no namespace with that nsid)";
            case 93:
                return "EPROTONOSUPPORT";
            case 11:
                return "EAGAIN (no answer within " + RECV_TIMEOUT_S + " s)";
            default:
                return "errno " + e;
        }
    }

    @Override
    public void close() {
        c.close(fd);
    }
}
