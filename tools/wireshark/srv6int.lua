-- SPDX-License-Identifier: Apache-2.0
-- Wireshark dissector for SRv6-INT (docs/wire-format.md):
--  * INT reports on UDP port 32766 (report header, then the mirrored frame is
--    handed to the Ethernet dissector);
--  * a post-dissector that finds every IPv6 Routing header of type 4 (SRH)
--    carrying the SRv6-INT TLV (type 252) and shows the Flags bits, Tag, TLV
--    (MapInfo, Detection Result) and the INT metadata of the consumed segments.
-- Use: wireshark -X lua_script:tools/wireshark/srv6int.lua, or copy it into
-- ~/.local/lib/wireshark/plugins/.

local REPORT_PORT = 32766
local TLV_TYPE = 252

-- ---------------------------------------------------------------- report ----
local report = Proto("srv6int_report", "SRv6-INT Report")
local rf = {
  version  = ProtoField.uint8("srv6int.report.version", "Version", base.DEC, nil, 0xF0),
  hdr_len  = ProtoField.uint8("srv6int.report.hdr_len", "HdrLen (words)", base.DEC, nil, 0x0F),
  flags    = ProtoField.uint8("srv6int.report.flags", "Flags", base.HEX),
  trunc    = ProtoField.bool("srv6int.report.truncated", "Mirrored frame truncated", 8, nil, 0x01),
  reporter = ProtoField.uint16("srv6int.report.reporter", "Reporter Device_ID", base.DEC),
  seq      = ProtoField.uint32("srv6int.report.seq", "Sequence Number", base.DEC),
  ts       = ProtoField.uint32("srv6int.report.egress_ts", "Egress Timestamp (ns)", base.DEC),
  orig_len = ProtoField.uint16("srv6int.report.orig_len", "Original Length", base.DEC),
  reserved = ProtoField.uint16("srv6int.report.reserved", "Reserved", base.HEX),
}
report.fields = { rf.version, rf.hdr_len, rf.flags, rf.trunc, rf.reporter, rf.seq, rf.ts,
                  rf.orig_len, rf.reserved }
local report_err = ProtoExpert.new("srv6int.report.malformed", "Malformed SRv6-INT report",
                                   expert.group.MALFORMED, expert.severity.ERROR)
report.experts = { report_err }

-- Frame number -> list of {start, len} of mirrored frames (data-source offsets),
-- so the post-dissector knows that all Last Entry + 1 entries are INT metadata there.
local mirrored_ranges = {}
local eth = Dissector.get("eth_withoutfcs")

function report.dissector(tvb, pinfo, tree)
  local t = tree:add(report, tvb(), "SRv6-INT Report")
  if tvb:len() < 16 then
    t:add_proto_expert_info(report_err, "shorter than the 16-byte report header")
    return
  end
  pinfo.cols.protocol = "SRv6-INT Report"
  t:add(rf.version, tvb(0, 1))
  t:add(rf.hdr_len, tvb(0, 1))
  local ft = t:add(rf.flags, tvb(1, 1))
  ft:add(rf.trunc, tvb(1, 1))
  t:add(rf.reporter, tvb(2, 2))
  t:add(rf.seq, tvb(4, 4))
  t:add(rf.ts, tvb(8, 4))
  t:add(rf.orig_len, tvb(12, 2))
  t:add(rf.reserved, tvb(14, 2))
  if bit.rshift(tvb(0, 1):uint(), 4) ~= 1 or bit.band(tvb(0, 1):uint(), 0x0F) ~= 4 then
    t:add_proto_expert_info(report_err, "Version must be 1 and HdrLen 4")
  end
  pinfo.cols.info = string.format("INT report from device %d, seq %d",
                                  tvb(2, 2):uint(), tvb(4, 4):uint())
  if tvb:len() > 16 then
    local m = tvb(16)
    local list = mirrored_ranges[pinfo.number] or {}
    list[#list + 1] = { m:offset(), m:len() }
    mirrored_ranges[pinfo.number] = list
    eth:call(m:tvb(), pinfo, tree)
  end
end

DissectorTable.get("udp.port"):add(REPORT_PORT, report)

-- ---------------------------------------------------- SRH post-dissector ----
local srv6int = Proto("srv6int", "SRv6-INT")
local mapinfo_bits = {
  { 0x01, "Device_ID" }, { 0x02, "In_Time" }, { 0x04, "vNF_Latency" },
  { 0x08, "Q_ID + Q_Length" }, { 0x10, "Port_Counter" },
}
local f = {
  flag_int   = ProtoField.bool("srv6int.flags.int", "I (INT on)", 8, nil, 0x01),
  flag_sfc   = ProtoField.bool("srv6int.flags.sfc", "S (SFC mode)", 8, nil, 0x02),
  flags      = ProtoField.uint8("srv6int.flags", "SRH Flags", base.HEX),
  tag        = ProtoField.uint16("srv6int.tag", "Tag (chain id)", base.DEC),
  segleft    = ProtoField.uint8("srv6int.segments_left", "Segments Left", base.DEC),
  last_entry = ProtoField.uint8("srv6int.last_entry", "Last Entry", base.DEC),
  tlv_type   = ProtoField.uint8("srv6int.tlv.type", "TLV Type", base.DEC),
  tlv_len    = ProtoField.uint8("srv6int.tlv.length", "TLV Length", base.DEC),
  map_info   = ProtoField.uint16("srv6int.map_info", "MapInfo", base.HEX),
  dr         = ProtoField.uint32("srv6int.detection_result", "Detection Result (ns)", base.DEC),
  md         = ProtoField.bytes("srv6int.md", "INT metadata"),
  md_hop     = ProtoField.uint8("srv6int.md.hop", "Hop", base.DEC),
  md_dev     = ProtoField.uint16("srv6int.md.device_id", "Device_ID", base.DEC),
  md_qid     = ProtoField.uint8("srv6int.md.q_id", "Q_ID", base.DEC),
  md_qlen    = ProtoField.uint24("srv6int.md.q_length", "Q_Length (packets)", base.DEC),
  md_in      = ProtoField.uint32("srv6int.md.in_time", "In_Time (ns)", base.DEC),
  md_lat     = ProtoField.uint32("srv6int.md.vnf_latency", "vNF_Latency (ns)", base.DEC),
  md_pc      = ProtoField.uint16("srv6int.md.port_counter", "Port_Counter", base.DEC),
}
for i, b in ipairs(mapinfo_bits) do
  f["map_" .. i] = ProtoField.bool("srv6int.map_info.bit" .. (i - 1), b[2], 16, nil, b[1])
end
local flist = {}
for _, v in pairs(f) do flist[#flist + 1] = v end
srv6int.fields = flist
local srh_err = ProtoExpert.new("srv6int.malformed", "Malformed SRv6-INT SRH",
                                expert.group.MALFORMED, expert.severity.ERROR)
srv6int.experts = { srh_err }

local f_rt_type = Field.new("ipv6.routing.type")

local function in_mirror(num, off)
  for _, r in ipairs(mirrored_ranges[num] or {}) do
    if off >= r[1] and off < r[1] + r[2] then return true end
  end
  return false
end

local function dissect_srh(tvb, pinfo, tree, srh)
  if srh + 8 > tvb:len() then return end
  local hel = tvb(srh + 1, 1):uint()
  local sl = tvb(srh + 3, 1):uint()
  local le = tvb(srh + 4, 1):uint()
  local srh_end = srh + 8 + 8 * hel
  local seg = srh + 8
  local seg_end = seg + 16 * (le + 1)
  if srh_end > tvb:len() or seg_end > srh_end then return end
  -- Find our TLV among Pad1 / PadN / others.
  local t = seg_end
  local tlv = nil
  while t < srh_end do
    local ty = tvb(t, 1):uint()
    if ty == 0 then
      t = t + 1
    else
      if t + 2 > srh_end then break end
      local ln = tvb(t + 1, 1):uint()
      if t + 2 + ln > srh_end then break end
      if ty == TLV_TYPE then tlv = t end
      t = t + 2 + ln
    end
  end
  if tlv == nil then return end
  local st = tree:add(srv6int, tvb(srh, srh_end - srh), "SRv6-INT")
  local ft = st:add(f.flags, tvb(srh + 5, 1))
  ft:add(f.flag_int, tvb(srh + 5, 1))
  ft:add(f.flag_sfc, tvb(srh + 5, 1))
  st:add(f.tag, tvb(srh + 6, 2))
  st:add(f.segleft, tvb(srh + 3, 1))
  st:add(f.last_entry, tvb(srh + 4, 1))
  local tt = st:add(tvb(tlv, 8), "SRv6-INT TLV")
  tt:add(f.tlv_type, tvb(tlv, 1))
  local lt = tt:add(f.tlv_len, tvb(tlv + 1, 1))
  if tvb(tlv + 1, 1):uint() ~= 6 then
    lt:add_proto_expert_info(srh_err, "SRv6-INT TLV Length must be 6")
    return
  end
  local mt = tt:add(f.map_info, tvb(tlv + 2, 2))
  for i = 1, #mapinfo_bits do mt:add(f["map_" .. i], tvb(tlv + 2, 2)) end
  if bit.band(tvb(tlv + 2, 2):uint(), 0xFFE0) ~= 0 then
    mt:add_proto_expert_info(srh_err, "MapInfo bits 5..15 must be 0")
  end
  tt:add(f.dr, tvb(tlv + 4, 4))
  if sl > le then
    st:add_proto_expert_info(srh_err, "Segments Left > Last Entry")
    return
  end
  -- Completed hops: Last Entry - Segments Left in transit, all of them in a report.
  local hops = le - sl
  if in_mirror(pinfo.number, srh) and sl == 0 then hops = le + 1 end
  for h = 0, hops - 1 do
    local o = seg + 16 * (le - h)
    local m = st:add(f.md, tvb(o, 16))
    m:set_text(string.format("INT metadata, hop %d (Segment List[%d]): device %d", h, le - h,
                             tvb(o, 2):uint()))
    m:add(f.md_hop, h):set_generated()
    m:add(f.md_dev, tvb(o, 2))
    m:add(f.md_qid, tvb(o + 2, 1))
    m:add(f.md_qlen, tvb(o + 3, 3))
    m:add(f.md_in, tvb(o + 6, 4))
    m:add(f.md_lat, tvb(o + 10, 4))
    m:add(f.md_pc, tvb(o + 14, 2))
  end
end

function srv6int.dissector(tvb, pinfo, tree)
  for _, fi in ipairs({ f_rt_type() }) do
    -- FieldInfo offsets are relative to the frame's data source, which is tvb here.
    if fi.value == 4 then
      dissect_srh(tvb, pinfo, tree, fi.offset - 2)
    end
  end
end

register_postdissector(srv6int)
