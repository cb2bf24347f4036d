// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_SEGMENTS_P4
#define SRV6INT_SEGMENTS_P4
// Runtime-indexed access to Segment List[idx] (0 <= idx < MAX_SEGMENTS), spelled
// out as constant indices so every target compiles it.
#include "../header.p4"

control ReadSegment(in headers_t hdr, in bit<8> idx, out bit<128> value) {
    apply {
        value = 0;
        if (idx == 0) { value = hdr.segs[0].sid; }
        else if (idx == 1) { value = hdr.segs[1].sid; }
        else if (idx == 2) { value = hdr.segs[2].sid; }
        else if (idx == 3) { value = hdr.segs[3].sid; }
        else if (idx == 4) { value = hdr.segs[4].sid; }
        else if (idx == 5) { value = hdr.segs[5].sid; }
        else if (idx == 6) { value = hdr.segs[6].sid; }
        else if (idx == 7) { value = hdr.segs[7].sid; }
    }
}

control WriteSegment(inout headers_t hdr, in bit<8> idx, in bit<128> value) {
    apply {
        if (idx == 0) { hdr.segs[0].sid = value; }
        else if (idx == 1) { hdr.segs[1].sid = value; }
        else if (idx == 2) { hdr.segs[2].sid = value; }
        else if (idx == 3) { hdr.segs[3].sid = value; }
        else if (idx == 4) { hdr.segs[4].sid = value; }
        else if (idx == 5) { hdr.segs[5].sid = value; }
        else if (idx == 6) { hdr.segs[6].sid = value; }
        else if (idx == 7) { hdr.segs[7].sid = value; }
    }
}

#endif
