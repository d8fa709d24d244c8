/*
 * Thin C layer between OpenSM 3.3.23 internals and the Rust plugin. Compiled against the
 * installed libopensm-dev headers (osm_config.h changes osm_opensm_t's layout), so Rust
 * never needs OpenSM's struct layouts. The osm_* functions are exported by the opensm
 * executable and bind when opensm dlopen()s the plugin.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_log.h>
#include <opensm/osm_db_pack.h>

typedef int (*ibfat_build_fn)(void *rust_ctx);
/* the SL of the path slid -> dlid (host byte order); hint: what OpenSM would use */
typedef uint8_t (*ibfat_path_sl_fn)(void *rust_ctx, uint8_t hint, uint16_t slid, uint16_t dlid);
/* the VL of each of the 16 SLs (vls, filled with OpenSM's table) at port pair in -> out of
 * the node node_guid (a switch; for a CA port in = out = 0); returns 1 when it changed vls */
typedef int (*ibfat_sl2vl_fn)(void *rust_ctx, uint64_t node_guid, int is_switch, uint8_t in, uint8_t out,
			      uint8_t *vls);

struct shim_engine {
	ibfat_build_fn build;
	ibfat_path_sl_fn path_sl;
	ibfat_sl2vl_fn sl2vl;
	void *rust_ctx;
};

/* one node / one cabled port of the subnet, as the Rust side reads them */
struct shim_node {
	uint64_t guid;
	uint8_t kind;		/* 1 CA, 2 switch, 3 router (IB node types) */
	uint8_t nports;
	uint16_t lid;		/* switch: LID of port 0 */
	char desc[65];
};

struct shim_port {
	uint64_t node_guid;
	uint64_t port_guid;
	uint64_t remote_node_guid;
	uint16_t lid;		/* CA/router ports: base LID */
	uint8_t lmc;
	uint8_t port;
	uint8_t remote_port;
	uint8_t width;		/* PortInfo LinkWidthActive */
	uint8_t speed;		/* PortInfo LinkSpeedActive */
	uint8_t speed_ext;	/* PortInfo LinkSpeedExtActive (0 if not supported) */
	uint8_t speed_mlnx;	/* Mellanox ExtPortInfo LinkSpeedActive (FDR10 bit) */
	uint8_t vl_cap;		/* PortInfo VLCap (1: VL0, 2: VL0-1, 3: VL0-3, 4: VL0-7, 5: VL0-14) */
};

static int shim_build(void *context)
{
	struct shim_engine *e = context;
	return e->build(e->rust_ctx);
}

static uint8_t shim_path_sl(void *context, uint8_t hint, const ib_net16_t slid, const ib_net16_t dlid)
{
	struct shim_engine *e = context;
	return e->path_sl(e->rust_ctx, hint, cl_ntoh16(slid), cl_ntoh16(dlid));
}

static void shim_update_sl2vl(void *context, osm_physp_t *port, uint8_t in_port_num, uint8_t out_port_num,
			      ib_slvl_table_t *t)
{
	struct shim_engine *e = context;
	osm_node_t *node = osm_physp_get_node_ptr(port);
	int is_switch = osm_node_get_type(node) == IB_NODE_TYPE_SWITCH;
	uint8_t vls[16];
	unsigned sl;

	for (sl = 0; sl < 16; sl++)
		vls[sl] = ib_slvl_table_get(t, sl);
	if (e->sl2vl(e->rust_ctx, cl_ntoh64(osm_node_get_node_guid(node)), is_switch,
		     is_switch ? in_port_num : 0, is_switch ? out_port_num : 0, vls) == 1)
		for (sl = 0; sl < 16; sl++)
			ib_slvl_table_set(t, sl, vls[sl] & 0x0f);
}

static void shim_destroy(void *context)
{
	(void)context; /* the engine context lives as long as the plugin */
}

/* OpenSM's min-hop propagation over all switches is skipped: the engine records the hops
 * of its own routes to switch LIDs after programming its tables (hops.rs). An engine after
 * ibfat in the list builds its own matrices (or OpenSM's, when it has none). */
static int shim_lid_matrices(void *context)
{
	(void)context;
	return 0;
}

static int shim_setup(osm_routing_engine_t *re, osm_opensm_t *osm)
{
	(void)osm;
	re->build_lid_matrices = shim_lid_matrices;
	re->ucast_build_fwd_tables = shim_build;
	re->path_sl = shim_path_sl;
	re->update_sl2vl = shim_update_sl2vl;
	re->destroy = shim_destroy;
	return 0;
}

int ibfat_shim_register(void *osm, const char *name, ibfat_build_fn build, ibfat_path_sl_fn path_sl,
			ibfat_sl2vl_fn sl2vl, void *rust_ctx)
{
	struct shim_engine *e = malloc(sizeof(*e));
	external_routing_engine_module_t m;

	if (!e)
		return -1;
	e->build = build;
	e->path_sl = path_sl;
	e->sl2vl = sl2vl;
	e->rust_ctx = rust_ctx;
	m.name = name;
	m.setup = shim_setup;
	m.context = e;
	return osm_register_external_routing_engine(osm, &m, e);
}

void ibfat_shim_log(void *osm, int error, const char *msg)
{
	OSM_LOG(&((osm_opensm_t *)osm)->log, error ? OSM_LOG_ERROR : OSM_LOG_INFO, "%s\n", msg);
}

/* QoS on (OpenSM programs SL-to-VL tables only then), and the max_op_vls option */
void ibfat_shim_qos(void *osm, int *qos, uint8_t *max_op_vls)
{
	*qos = ((osm_opensm_t *)osm)->subn.opt.qos ? 1 : 0;
	*max_op_vls = ((osm_opensm_t *)osm)->subn.opt.max_op_vls;
}

const char *ibfat_shim_options(void *osm)
{
	return ((osm_opensm_t *)osm)->subn.opt.event_plugin_options;
}

/* Room enough for a walk of the subnet: the node count and, over all nodes, their
 * ports (cabled or not). Reads each node record once, not its ports. */
void ibfat_shim_subnet_bounds(void *osm, unsigned *n_nodes, unsigned *n_ports)
{
	cl_qmap_t *tbl = &((osm_opensm_t *)osm)->subn.node_guid_tbl;
	osm_node_t *n;
	unsigned np = 0;

	for (n = (osm_node_t *)cl_qmap_head(tbl); n != (osm_node_t *)cl_qmap_end(tbl);
	     n = (osm_node_t *)cl_qmap_next(&n->map_item))
		np += osm_node_get_num_physp(n);
	*n_nodes = (unsigned)cl_qmap_count(tbl);
	*n_ports = np;
}

/* whether OpenSM's list of routing engines names this one (else its passes never run) */
int ibfat_shim_engine_listed(void *osm, const char *name)
{
	struct osm_routing_engine *e;

	for (e = ((osm_opensm_t *)osm)->routing_engine_list; e; e = e->next)
		if (e->name && strcmp(e->name, name) == 0)
			return 1;
	return 0;
}

/* Take (1) or release (0) OpenSM's subnet lock for reading: for a walk outside a routing
 * pass (the pass holds it), while OpenSM's other threads may change the tables. */
void ibfat_shim_read_lock(void *osm, int take)
{
	cl_plock_t *lock = &((osm_opensm_t *)osm)->lock;

	if (take) {
		CL_PLOCK_ACQUIRE(lock);
	} else {
		CL_PLOCK_RELEASE(lock);
	}
}

/* Walk the subnet: count the nodes and the cabled ports (ports with a remote end) into
 * *n_nodes / *n_ports, and fill the records while they fit in the buffers (pass NULL
 * buffers and 0 sizes to count only). Returns -1 when the buffers were too small.
 * found_only: right after a discovery, leave out what OpenSM's drop manager is about to
 * remove (nodes the sweep did not reach, and the cables to them). */
int ibfat_shim_subnet_walk(void *osm, int found_only, struct shim_node *nodes, unsigned max_nodes,
			   struct shim_port *ports, unsigned max_ports, unsigned *n_nodes, unsigned *n_ports)
{
	cl_qmap_t *tbl = &((osm_opensm_t *)osm)->subn.node_guid_tbl;
	osm_node_t *n;
	unsigned nn = 0, np = 0;

	for (n = (osm_node_t *)cl_qmap_head(tbl); n != (osm_node_t *)cl_qmap_end(tbl);
	     n = (osm_node_t *)cl_qmap_next(&n->map_item)) {
		unsigned i, num = osm_node_get_num_physp(n);
		struct shim_node *sn;
		uint64_t guid = cl_ntoh64(osm_node_get_node_guid(n));
		uint8_t kind = osm_node_get_type(n);

		if (found_only && n->discovery_count == 0)
			continue;
		sn = nn < max_nodes ? &nodes[nn] : NULL;
		nn++;
		if (sn) {
			sn->guid = guid;
			sn->kind = kind;
			sn->nports = num > 0 ? num - 1 : 0;
			sn->lid = 0;
			memset(sn->desc, 0, sizeof(sn->desc));
			memcpy(sn->desc, n->node_desc.description, IB_NODE_DESCRIPTION_SIZE);
			if (kind == IB_NODE_TYPE_SWITCH) {
				osm_physp_t *p0 = osm_node_get_physp_ptr(n, 0);
				if (p0)
					sn->lid = cl_ntoh16(osm_physp_get_base_lid(p0));
			}
		}
		for (i = 1; i < num; i++) {
			osm_physp_t *p = osm_node_get_physp_ptr(n, i);
			osm_physp_t *r;
			struct shim_port *sp;

			if (!p || !(r = osm_physp_get_remote(p)))
				continue;
			if (found_only && osm_physp_get_node_ptr(r)->discovery_count == 0)
				continue;
			sp = np < max_ports ? &ports[np] : NULL;
			np++;
			if (!sp)
				continue;
			sp->node_guid = guid;
			sp->port = i;
			sp->port_guid = cl_ntoh64(osm_physp_get_port_guid(p));
			sp->remote_node_guid = cl_ntoh64(osm_node_get_node_guid(osm_physp_get_node_ptr(r)));
			sp->remote_port = osm_physp_get_port_num(r);
			sp->lid = kind == IB_NODE_TYPE_SWITCH ? 0 : cl_ntoh16(osm_physp_get_base_lid(p));
			sp->lmc = kind == IB_NODE_TYPE_SWITCH ? 0 : osm_physp_get_lmc(p);
			sp->width = p->port_info.link_width_active;
			sp->speed = ib_port_info_get_link_speed_active(&p->port_info);
			/* the extended field is only meaningful when the port says it has it */
			sp->speed_ext = (p->port_info.capability_mask & IB_PORT_CAP_HAS_EXT_SPEEDS) ?
				ib_port_info_get_link_speed_ext_active(&p->port_info) : 0;
			sp->speed_mlnx = p->ext_port_info.link_speed_active;
			sp->vl_cap = ib_port_info_get_vl_cap(&p->port_info);
		}
	}
	*n_nodes = nn;
	*n_ports = np;
	return nn > max_nodes || np > max_ports ? -1 : 0;
}

/* what OpenSM's LID manager decides a port's LIDs from (osm_lid_mgr.c), one per port it
 * will give LIDs to: switch port 0 and every CA or router port */
struct shim_lid_port {
	uint64_t node_guid;
	uint64_t port_guid;
	uint16_t lid;		/* the base LID the port has now (0: none) */
	uint16_t kept;		/* the base LID OpenSM's guid2lid database holds for it (0: none) */
	uint8_t port;		/* its port number (0 for a switch) */
	uint8_t is_switch;
	uint8_t lmc_capable;	/* it takes 2^LMC LIDs (a switch port 0 only when enhanced) */
	uint8_t lmc_now;	/* the LMC the port has now */
};

/* The LID manager's inputs, in the order it gives LIDs (its port table's, after the SM's
 * own port), under OpenSM's read lock: the ports (at most max; *n counts all), the SM's
 * port GUID, the LMC option, the LIDs its database holds (used, IB_LID_UCAST_END_HO + 1
 * bytes) and the highest unicast LID. An SM coming out of standby drops its database at
 * this sweep: without honor_guid2lid_file it starts from none (no entry, nothing held);
 * with it, it reads the file again, which is not told. -1 then, when reassign_lids is
 * set, or when the buffer was too small. Ports the last sweep did not reach are left
 * out: the drop manager removes them before LIDs are given. */
int ibfat_shim_lid_inputs(void *osm, struct shim_lid_port *out, unsigned max, unsigned *n, uint64_t *sm_port,
			  uint8_t *lmc, uint8_t *used, uint16_t *max_lid)
{
	osm_opensm_t *o = osm;
	cl_qmap_t *tbl = &o->subn.port_guid_tbl;
	int standby = o->subn.coming_out_of_standby;
	osm_port_t *p;
	unsigned k = 0;

	CL_PLOCK_ACQUIRE(&o->lock);
	*sm_port = cl_ntoh64(o->subn.sm_port_guid);
	*lmc = o->subn.opt.lmc;
	*max_lid = o->subn.max_ucast_lid_ho;
	if (standby)
		memset(used, 0, sizeof(o->sm.lid_mgr.used_lids));
	else
		memcpy(used, o->sm.lid_mgr.used_lids, sizeof(o->sm.lid_mgr.used_lids));
	for (p = (osm_port_t *)cl_qmap_head(tbl); p != (osm_port_t *)cl_qmap_end(tbl);
	     p = (osm_port_t *)cl_qmap_next(&p->map_item)) {
		uint64_t guid = cl_ntoh64(osm_port_get_guid(p));
		uint16_t lo = 0, hi = 0;
		struct shim_lid_port *r;

		if (p->discovery_count == 0 || !p->p_node || !p->p_physp)
			continue;
		if (k >= max) {
			k++;
			continue;
		}
		r = &out[k++];
		memset(r, 0, sizeof(*r));
		r->node_guid = cl_ntoh64(osm_node_get_node_guid(p->p_node));
		r->port_guid = guid;
		r->lid = cl_ntoh16(osm_port_get_base_lid(p));
		if (!standby && osm_db_guid2lid_get(o->sm.lid_mgr.p_g2l, guid, &lo, &hi) == 0)
			r->kept = lo;
		r->port = osm_physp_get_port_num(p->p_physp);
		r->is_switch = p->p_node->sw != NULL;
		r->lmc_capable = !p->p_node->sw || osm_switch_sp0_is_lmc_capable(p->p_node->sw, &o->subn);
		r->lmc_now = osm_physp_get_lmc(p->p_physp);
	}
	CL_PLOCK_RELEASE(&o->lock);
	*n = k;
	return o->subn.opt.reassign_lids || (standby && o->subn.opt.honor_guid2lid_file) || k > max ? -1 : 0;
}

/* copy a whole new LFT into a switch (entries beyond the switch's table are dropped;
 * entries beyond len keep OpenSM's "no path"); -1 if the switch is unknown */
/* the hops of the engine's routes to switch LIDs: lids[i] through ports[i] in hops[i] */
int ibfat_shim_set_hops(void *osm, uint64_t sw_guid, const uint16_t *lids, const uint8_t *ports,
			const uint8_t *hops, unsigned n)
{
	osm_switch_t *sw = osm_get_switch_by_guid(&((osm_opensm_t *)osm)->subn, cl_hton64(sw_guid));
	unsigned i;

	if (!sw)
		return -1;
	for (i = 0; i < n; i++)
		osm_switch_set_hops(sw, lids[i], ports[i], hops[i]);
	return 0;
}

int ibfat_shim_set_lft(void *osm, uint64_t sw_guid, const uint8_t *lft, unsigned len, unsigned *lft_size)
{
	osm_switch_t *sw = osm_get_switch_by_guid(&((osm_opensm_t *)osm)->subn, cl_hton64(sw_guid));
	unsigned n;

	if (!sw)
		return -1;
	n = len < sw->lft_size ? len : sw->lft_size;
	memcpy(sw->new_lft, lft, n);
	*lft_size = sw->lft_size;
	return 0;
}

/* make the calling thread a background one: every signal blocked (OpenSM's handlers keep
 * running on its own threads), and with idle set, scheduled SCHED_IDLE, so that waking it
 * never preempts OpenSM's sweeper (a nice 19 thread still did, now and then, for
 * milliseconds); where that policy is refused, nice 19 (Linux sets a thread's nice value
 * by its TID). Without idle, a SCHED_IDLE thread is scheduled normally again (work that
 * races OpenSM's next pass); a nice 19 one stays so. */
int ibfat_shim_background_thread(int idle)
{
	struct sched_param none = { 0 };
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (!idle)
		return sched_getscheduler(0) == SCHED_IDLE ?
			pthread_setschedparam(pthread_self(), SCHED_OTHER, &none) : 0;
	if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &none) == 0)
		return 0;
	return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
}

/* the events of OpenSM's sweep thread the plugin acts on (OpenSM's enum values): 1 the
 * start of a heavy sweep, 2 unicast routing done (the switches have their tables), 3 a
 * heavy sweep's discovery done (LIDs and routing to come), 0 any other */
int ibfat_shim_sweep_event(int event)
{
	switch (event) {
	case OSM_EVENT_ID_HEAVY_SWEEP_START:
		return 1;
	case OSM_EVENT_ID_UCAST_ROUTING_DONE:
		return 2;
	case OSM_EVENT_ID_HEAVY_SWEEP_DONE:
		return 3;
	default:
		return 0;
	}
}
