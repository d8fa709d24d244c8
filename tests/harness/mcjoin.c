/* mcjoin: join this host's port to a multicast group through the SA, as IPoIB does.
 *
 * Why: the multicast tests need real members in OpenSM's multicast manager, and only a
 * client on the member's own port can send the join (OpenSM checks that the PortGID of a
 * full-member join is the requester's). infiniband-diags has no join tool, so the lab
 * runs this one under ibsim's umad shim, one process per simulated host (SIM_HOST).
 *
 * It sends one SubnAdmSet(MCMemberRecord) to the SM LID of the first active port and
 * waits for the answer. The record carries every component OpenSM asks of the join that
 * creates a group (MGID, PortGID, JoinState, Q_Key, P_Key, TClass, FlowLabel, SL), so
 * whichever host joins first creates it; MTU and rate ask for the largest the port has.
 *
 * Usage: mcjoin [MGID]   (default ff12:601b:ffff::1, IPoIB's IPv6 all-nodes group)
 * Prints: "mlid 0x<mlid> status 0x<status> port_guid 0x<guid> lid <lid>"; exits 0 when
 * the SA answered with status 0, 1 otherwise (the reason on stderr).
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <infiniband/umad.h>
#include <infiniband/umad_sa.h>
#include <infiniband/umad_sa_mcm.h>
#include <infiniband/umad_types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAD_SIZE 256

int main(int argc, char **argv)
{
	const char *mgid_text = argc > 1 ? argv[1] : "ff12:601b:ffff::1";
	umad_port_t port;
	uint8_t mgid[16];
	int fd, agent, len, i;

	if (inet_pton(AF_INET6, mgid_text, mgid) != 1) {
		fprintf(stderr, "mcjoin: bad MGID %s\n", mgid_text);
		return 1;
	}
	if (umad_init() < 0 || umad_get_port(NULL, 0, &port) < 0) {
		fprintf(stderr, "mcjoin: no umad port\n");
		return 1;
	}
	if (port.sm_lid == 0) {
		fprintf(stderr, "mcjoin: the port knows no SM LID yet\n");
		return 1;
	}
	fd = umad_open_port(port.ca_name, port.portnum);
	if (fd < 0) {
		fprintf(stderr, "mcjoin: cannot open %s port %d\n", port.ca_name, port.portnum);
		return 1;
	}
	/* a requester of the SA class (no methods to receive unsolicited) */
	agent = umad_register(fd, UMAD_CLASS_SUBN_ADM, UMAD_SA_CLASS_VERSION, 0, NULL);
	if (agent < 0) {
		fprintf(stderr, "mcjoin: cannot register for the SA class\n");
		return 1;
	}

	void *req = calloc(1, umad_size() + MAD_SIZE);
	void *resp = calloc(1, umad_size() + MAD_SIZE);
	struct umad_sa_packet *sa = umad_get_mad(req);
	struct umad_sa_mcmember_record *rec = (void *)sa->data;

	sa->mad_hdr.base_version = 1;
	sa->mad_hdr.mgmt_class = UMAD_CLASS_SUBN_ADM;
	sa->mad_hdr.class_version = UMAD_SA_CLASS_VERSION;
	sa->mad_hdr.method = UMAD_METHOD_SET;
	sa->mad_hdr.tid = htobe64((uint32_t)getpid() << 8 | 0x6a);
	sa->mad_hdr.attr_id = htons(UMAD_SA_ATTR_MCMEMBER_REC);
	sa->comp_mask = htobe64(UMAD_SA_MCM_COMP_MASK_MGID | UMAD_SA_MCM_COMP_MASK_PORT_GID |
				UMAD_SA_MCM_COMP_MASK_QKEY | UMAD_SA_MCM_COMP_MASK_MTU_SEL |
				UMAD_SA_MCM_COMP_MASK_MTU | UMAD_SA_MCM_COMP_MASK_TCLASS |
				UMAD_SA_MCM_COMP_MASK_PKEY | UMAD_SA_MCM_COMP_MASK_RATE_SEL |
				UMAD_SA_MCM_COMP_MASK_RATE | UMAD_SA_MCM_COMP_MASK_SL |
				UMAD_SA_MCM_COMP_MASK_FLOW_LABEL | UMAD_SA_MCM_COMP_MASK_JOIN_STATE);
	memcpy(rec->mgid, mgid, 16);
	/* PortGID: the port's subnet prefix and GUID (both already in network order) */
	memcpy(rec->portgid, &port.gid_prefix, 8);
	memcpy(rec->portgid + 8, &port.port_guid, 8);
	rec->qkey = htonl(0x00000b1b); /* IPoIB's Q_Key */
	rec->pkey = htons(0xffff);
	rec->mtu = 3 << 6 | 1;  /* selector 3: the largest available (the value must be valid) */
	rec->rate = 3 << 6 | 2; /* likewise */
	rec->tclass = 0;
	rec->sl_flow_hop = umad_sa_mcm_set_sl_flow_hop(0, 0, 0);
	rec->scope_state = umad_sa_mcm_set_scope_state(UMAD_SA_MCM_ADDR_SCOPE_LINK_LOCAL,
						       UMAD_SA_MCM_JOIN_STATE_FULL_MEMBER);

	umad_set_addr(req, port.sm_lid, 1, port.sm_sl, UMAD_QKEY);
	/* the SA does not answer while OpenSM sweeps: a patient timeout, several retries */
	if (umad_send(fd, agent, req, MAD_SIZE, 2000, 7) < 0) {
		fprintf(stderr, "mcjoin: send failed\n");
		return 1;
	}
	for (i = 0; i < 4; i++) {
		len = MAD_SIZE;
		if (umad_recv(fd, resp, &len, 20000) < 0) {
			fprintf(stderr, "mcjoin: no answer from the SA (LID %u)\n", port.sm_lid);
			return 1;
		}
		if (umad_status(resp)) {
			fprintf(stderr, "mcjoin: the request failed: %s\n", strerror(umad_status(resp)));
			return 1;
		}
		struct umad_sa_packet *ans = umad_get_mad(resp);
		/* the kernel (here ibsim and its shim) keeps the upper 32 bits of the TID */
		if ((be64toh(ans->mad_hdr.tid) ^ be64toh(sa->mad_hdr.tid)) & 0xffffffffULL)
			continue; /* not ours */
		struct umad_sa_mcmember_record *got = (void *)ans->data;
		unsigned status = ntohs(ans->mad_hdr.status);
		printf("mlid 0x%04x status 0x%04x port_guid 0x%016llx lid %u\n", ntohs(got->mlid), status,
		       (unsigned long long)be64toh(port.port_guid), port.base_lid);
		if (ans->mad_hdr.method != UMAD_METHOD_GET_RESP || status != 0) {
			fprintf(stderr, "mcjoin: the SA refused the join (method 0x%02x, status 0x%04x)\n",
				ans->mad_hdr.method, status);
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "mcjoin: no answer to this request\n");
	return 1;
}
