// SPDX-License-Identifier: Apache-2.0
#ifndef SRV6INT_V1MODEL_SWITCH_INFO_P4
#define SRV6INT_V1MODEL_SWITCH_INFO_P4
// This switch's identity, written once by the app: INT Device_ID, its own SID
// (End.T.INT's address) and router MAC.
#include "../arch.p4"
#include "../../../shared/header.p4"

control SwitchInfo(inout local_md_t md) {
    // P4Runtime names are the ingress's (they predate this control; the app writes them).
    @name(".Srv6IntIngress.set_switch_info")
    action set_switch_info(bit<16> device_id, ipv6_addr_t my_sid, mac_addr_t router_mac) {
        md.device_id = device_id;
        md.my_sid = my_sid;
        md.router_mac = router_mac;
    }

    @name(".Srv6IntIngress.switch_info")
    table switch_info {
        key = {}
        actions = {
            set_switch_info;
        }
        default_action = set_switch_info(0, 0, 0);
        size = 1;
    }

    apply {
        switch_info.apply();
    }
}

#endif
