# SPDX-License-Identifier: Apache-2.0
"""Minimal P4Runtime client for the data-plane tests (p4runtime PyPI protobufs)."""
import queue
import threading

import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc


def _bytes(value, bitwidth):
    """An int or bytes value as the shortest big-endian string P4Runtime expects."""
    nbytes = (bitwidth + 7) // 8
    if isinstance(value, (bytes, bytearray)):
        value = int.from_bytes(value, "big")
    if value < 0 or value >= (1 << bitwidth):
        raise ValueError(f"{value} does not fit in {bitwidth} bits")
    raw = value.to_bytes(nbytes, "big")
    return raw.lstrip(b"\x00") or b"\x00"


class P4Info:
    """Name -> id / width lookups over a p4info."""

    def __init__(self, path):
        with open(path) as f:
            self.proto = text_format.Parse(f.read(), p4info_pb2.P4Info())
        self.tables = {t.preamble.name: t for t in self.proto.tables}
        self.actions = {a.preamble.name: a for a in self.proto.actions}
        self.profiles = {p.preamble.name: p for p in self.proto.action_profiles}

    def table(self, name):
        return self.tables[name]

    def action(self, name):
        return self.actions[name]


class P4RuntimeClient:
    """Primary controller of one device; writes entries and pipeline configs."""

    def __init__(self, address, device_id, p4info_path, json_path):
        self.device_id = device_id
        self.info = P4Info(p4info_path)
        with open(json_path, "rb") as f:
            self.device_config = f.read()
        self.channel = grpc.insecure_channel(address)
        grpc.channel_ready_future(self.channel).result(timeout=20)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self._requests = queue.Queue()
        self._stream = self.stub.StreamChannel(iter(self._requests.get, None))
        self._arbitration = queue.Queue()
        threading.Thread(target=self._read_stream, daemon=True).start()
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = device_id
        req.arbitration.election_id.low = 1
        self._requests.put(req)
        resp = self._arbitration.get(timeout=20)
        if resp.arbitration.status.code != 0:
            raise RuntimeError(f"not primary: {resp.arbitration.status}")

    def _read_stream(self):
        try:
            for resp in self._stream:
                if resp.HasField("arbitration"):
                    self._arbitration.put(resp)
        except grpc.RpcError:
            pass

    def close(self):
        self._requests.put(None)
        self.channel.close()

    def set_pipeline(self):
        """Pushes p4info + BMv2 JSON; every table, register and session starts empty.

        Clone sessions are deleted first: BMv2's PI server forgets them on a
        pipeline push, but simple_switch's replication engine keeps the
        multicast group behind each one, so a session inserted again after the
        push gets a second replica and every clone comes out twice
        (p4lang/behavioral-model#891). Deleting them while the server still
        knows them removes the groups too."""
        for session_id in self.clone_sessions():
            self.delete_clone_session(session_id)
        req = p4runtime_pb2.SetForwardingPipelineConfigRequest()
        req.device_id = self.device_id
        req.election_id.low = 1
        req.action = p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT
        req.config.p4info.CopyFrom(self.info.proto)
        req.config.p4_device_config = self.device_config
        self.stub.SetForwardingPipelineConfig(req)

    def _write(self, *updates):
        req = p4runtime_pb2.WriteRequest()
        req.device_id = self.device_id
        req.election_id.low = 1
        for u in updates:
            req.updates.add().CopyFrom(u)
        self.stub.Write(req)

    def _action(self, name, params):
        info = self.info.action(name)
        action = p4runtime_pb2.Action()
        action.action_id = info.preamble.id
        by_name = {p.name: p for p in info.params}
        if set(by_name) != set(params):
            raise ValueError(f"{name} takes {sorted(by_name)}, got {sorted(params)}")
        for pname, value in params.items():
            p = action.params.add()
            p.param_id = by_name[pname].id
            p.value = _bytes(value, by_name[pname].bitwidth)
        return action

    def _entry(self, table, match, priority):
        info = self.info.table(table)
        entry = p4runtime_pb2.TableEntry()
        entry.table_id = info.preamble.id
        fields = {mf.name: mf for mf in info.match_fields}
        for fname, value in match.items():
            mf = fields[fname]
            m = entry.match.add()
            m.field_id = mf.id
            kind = mf.match_type
            if kind == p4info_pb2.MatchField.EXACT:
                m.exact.value = _bytes(value, mf.bitwidth)
            elif kind == p4info_pb2.MatchField.LPM:
                addr, plen = value
                m.lpm.value = _bytes(addr, mf.bitwidth)
                m.lpm.prefix_len = plen
            elif kind == p4info_pb2.MatchField.TERNARY:
                v, mask = value
                m.ternary.value = _bytes(v, mf.bitwidth)
                m.ternary.mask = _bytes(mask, mf.bitwidth)
            else:
                raise ValueError(f"match kind {kind} of {fname}")
        if priority is not None:
            entry.priority = priority
        return entry

    def insert(self, table, match, action, params=None, priority=None):
        entry = self._entry(table, match, priority)
        entry.action.action.CopyFrom(self._action(action, params or {}))
        self._write(p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT, entity=p4runtime_pb2.Entity(table_entry=entry)))

    def set_default(self, table, action, params=None):
        entry = p4runtime_pb2.TableEntry()
        entry.table_id = self.info.table(table).preamble.id
        entry.is_default_action = True
        entry.action.action.CopyFrom(self._action(action, params or {}))
        self._write(p4runtime_pb2.Update(type=p4runtime_pb2.Update.MODIFY, entity=p4runtime_pb2.Entity(table_entry=entry)))

    def insert_group_entry(self, table, profile, match, members, group_id):
        """members: list of (member_id, action, params, weight)."""
        prof_id = self.info.profiles[profile].preamble.id
        updates = []
        for member_id, action, params, _ in members:
            m = p4runtime_pb2.ActionProfileMember(action_profile_id=prof_id, member_id=member_id)
            m.action.CopyFrom(self._action(action, params))
            updates.append(p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT,
                                                entity=p4runtime_pb2.Entity(action_profile_member=m)))
        g = p4runtime_pb2.ActionProfileGroup(action_profile_id=prof_id, group_id=group_id,
                                             max_size=16)
        for member_id, _, _, weight in members:
            g.members.add(member_id=member_id, weight=weight)
        updates.append(p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT,
                                            entity=p4runtime_pb2.Entity(action_profile_group=g)))
        self._write(*updates)
        entry = self._entry(table, match, None)
        entry.action.action_profile_group_id = group_id
        self._write(p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT, entity=p4runtime_pb2.Entity(table_entry=entry)))

    def insert_clone_session(self, session_id, port):
        pre = p4runtime_pb2.PacketReplicationEngineEntry()
        pre.clone_session_entry.session_id = session_id
        pre.clone_session_entry.replicas.add(egress_port=port, instance=1)
        self._write(p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT,
                                         entity=p4runtime_pb2.Entity(packet_replication_engine_entry=pre)))

    def clone_sessions(self):
        """Ids of the clone sessions the server knows (none before a pipeline)."""
        req = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        req.entities.add().packet_replication_engine_entry.clone_session_entry.session_id = 0
        try:
            return [e.packet_replication_engine_entry.clone_session_entry.session_id
                    for resp in self.stub.Read(req) for e in resp.entities]
        except grpc.RpcError as e:
            if e.code() == grpc.StatusCode.FAILED_PRECONDITION:   # no pipeline yet
                return []
            raise

    def delete_clone_session(self, session_id):
        pre = p4runtime_pb2.PacketReplicationEngineEntry()
        pre.clone_session_entry.session_id = session_id
        self._write(p4runtime_pb2.Update(type=p4runtime_pb2.Update.DELETE,
                                         entity=p4runtime_pb2.Entity(packet_replication_engine_entry=pre)))

    def read_counter(self, name, index):
        counter = next(c for c in self.info.proto.counters if c.preamble.name == name)
        req = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        ce = req.entities.add().counter_entry
        ce.counter_id = counter.preamble.id
        ce.index.index = index
        for resp in self.stub.Read(req):
            for e in resp.entities:
                return e.counter_entry.data.packet_count
        return None

    def read_direct_counter(self, table, match, priority=None):
        """Packets counted by the direct counter of one entry of `table`."""
        req = p4runtime_pb2.ReadRequest(device_id=self.device_id)
        dc = req.entities.add().direct_counter_entry
        dc.table_entry.CopyFrom(self._entry(table, match, priority))
        for resp in self.stub.Read(req):
            for e in resp.entities:
                return e.direct_counter_entry.data.packet_count
        return None
