# SPDX-License-Identifier: Apache-2.0
"""Runs simple_switch_grpc on veth pairs inside a network namespace this test
creates, and moves the test process into that namespace so scapy and gRPC talk
to the switch only there (nothing leaves the namespace)."""
import ctypes
import importlib
import os
import shutil
import subprocess
import tempfile
import time

CLONE_NEWNET = 0x40000000
GRPC_PORT = 50051
CPU_PORT = 255
PRIORITY_QUEUES = 8
PORTS = (1, 2, 3, 4)

_libc = ctypes.CDLL("libc.so.6", use_errno=True)


def _setns(fd):
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def _run(*cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def skip_reason():
    """None when the tests can run here, else why not."""
    if shutil.which("simple_switch_grpc") is None:
        return "simple_switch_grpc is not on PATH (BMv2 with its P4Runtime server not built)"
    if os.geteuid() != 0:
        return "creating a network namespace needs root"
    if shutil.which("ip") is None:
        return "iproute2 (ip) is not installed"
    for module in ("grpc", "p4.v1.p4runtime_pb2", "scapy"):
        try:
            importlib.import_module(module)
        except ImportError:
            return (f"Python module {module} missing: run with tools/.venv/bin/python "
                    "(tools/setup-deps installs tools/deps/p4.pip)")
    return None


class Bmv2Switch:
    """One simple_switch_grpc in namespace `srv6int-p4t-<pid>`; port n is veth
    `s<n>` on the switch side and `t<n>` on the test side."""

    def __init__(self):
        self.ns = f"srv6int-p4t-{os.getpid()}"
        self.proc = None
        self._host_ns = None
        self.log_dir = tempfile.mkdtemp(prefix="srv6int-bmv2-")
        self.log_path = os.path.join(self.log_dir, "switch.log")

    def start(self):
        _run("ip", "netns", "add", self.ns)
        try:
            ex = ("ip", "netns", "exec", self.ns)
            _run(*ex, "ip", "link", "set", "lo", "up")
            for p in PORTS:
                _run(*ex, "ip", "link", "add", f"s{p}", "type", "veth", "peer", "name", f"t{p}")
                for dev in (f"s{p}", f"t{p}"):
                    _run(*ex, "ip", "link", "set", dev, "up")
                    # No IPv6 autoconf / DAD chatter on the test ports.
                    _run(*ex, "sysctl", "-q", "-w", f"net.ipv6.conf.{dev}.disable_ipv6=1")
            args = list(ex) + ["simple_switch_grpc", "--device-id", "1", "--log-file",
                               os.path.join(self.log_dir, "bmv2"), "--log-level", "info"]
            for p in PORTS:
                args += ["-i", f"{p}@s{p}"]
            # 8 queues per port (all of v1model's 3-bit priority): queue_select
            # can then be tested; without entries every packet uses queue 0.
            args += ["--no-p4", "--", f"--grpc-server-addr=127.0.0.1:{GRPC_PORT}",
                     f"--cpu-port={CPU_PORT}", f"--priority-queues={PRIORITY_QUEUES}"]
            self._log = open(self.log_path, "w")
            self.proc = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT)
            self._host_ns = os.open("/proc/self/ns/net", os.O_RDONLY)
            ns_fd = os.open(f"/run/netns/{self.ns}", os.O_RDONLY)
            try:
                _setns(ns_fd)
            finally:
                os.close(ns_fd)
            time.sleep(0.5)
            if self.proc.poll() is not None:
                raise RuntimeError("simple_switch_grpc exited: " + open(self.log_path).read())
        except Exception:
            self.stop()
            raise

    def stop(self):
        if self._host_ns is not None:
            _setns(self._host_ns)
            os.close(self._host_ns)
            self._host_ns = None
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        subprocess.run(["ip", "netns", "del", self.ns], stderr=subprocess.DEVNULL)
