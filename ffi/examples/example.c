/*
 * ibfat C ABI example: build an order-3 Latin-square fat-tree from a spec, compute its
 * forwarding tables, look up a route, validate, and show how errors are reported. With a
 * topology file argument (ibnetdiscover output or an ibsim net file) it also loads it,
 * recognises its family, routes it and walks the all-to-all schedule as an MPI rank would.
 *
 *   gcc -std=c11 -Wall example.c -I ../include ../../target/release/libibfatc.a \
 *       -lpthread -ldl -lm -o example
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ibfat.h"

#define CHECK(call)                                                                  \
	do {                                                                         \
		IbfatStatus st_ = (call);                                            \
		if (st_ != IBFAT_OK) {                                               \
			fprintf(stderr, "%s failed (%d): %s\n", #call, (int)st_,     \
				ibfat_last_error());                                 \
			return 1;                                                    \
		}                                                                    \
	} while (0)

static int discovered(const char *path)
{
	IbfatFabric *fabric = NULL;
	IbfatRoutes *routes = NULL;
	IbfatSchedule *sched = NULL;
	IbfatRecognition rec;
	IbfatValidation v;
	uint32_t ranks, phases, peer, rank;
	uint64_t guid;

	CHECK(ibfat_fabric_load(path, &fabric));
	CHECK(ibfat_fabric_recognize(fabric, IBFAT_FAMILY_AUTO, &rec));
	printf("recognised family %d order %u sides %u hosts %u\n", (int)rec.family, rec.order, rec.sides, rec.hosts);
	CHECK(ibfat_routes_compute(fabric, 0, IBFAT_LIDS_FABRIC, &routes));
	CHECK(ibfat_routes_validate(routes, &v));
	printf("discovered fabric routes: ok=%d deadlock_free=%d\n", v.ok, v.deadlock_free);
	CHECK(ibfat_schedule_new(fabric, "lsft", NULL, &sched));
	CHECK(ibfat_schedule_size(sched, &ranks, &phases));
	printf("lsft schedule: %u ranks, %u phases\n", ranks, phases);
	/* as MPI rank 5 would: find myself by port GUID, then my peer in every phase */
	CHECK(ibfat_schedule_rank_guid(sched, 5, &guid));
	CHECK(ibfat_schedule_rank_of(sched, guid, &rank));
	unsigned sent = 0, idle = 0;
	for (uint32_t p = 0; p < phases; p++) {
		CHECK(ibfat_schedule_peer(sched, rank, p, &peer));
		if (peer == IBFAT_IDLE)
			idle++;
		else
			sent++;
	}
	printf("rank %u (GUID 0x%016" PRIx64 ") sends in %u phases, idle in %u\n", rank, guid, sent, idle);
	IbfatStatus st = ibfat_schedule_peer(sched, ranks, 0, &peer);
	printf("rank out of range: status %d: %s\n", (int)st, ibfat_last_error());
	ibfat_schedule_free(sched);
	ibfat_routes_free(routes);
	ibfat_fabric_free(fabric);
	return v.ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	IbfatFabric *fabric = NULL;
	IbfatRoutes *routes = NULL;
	uint32_t switches, cas, cables;
	uint16_t max_lid;
	IbfatValidation v;

	printf("ibfat %s\n", ibfat_version());
	CHECK(ibfat_fabric_build("family: lsft\norder: 3\n", &fabric));
	CHECK(ibfat_fabric_counts(fabric, &switches, &cas, &cables));
	printf("LSFT(3): %" PRIu32 " switches, %" PRIu32 " hosts, %" PRIu32 " cables\n", switches, cas, cables);

	CHECK(ibfat_routes_compute(fabric, 0, IBFAT_LIDS_PLAN, &routes));
	CHECK(ibfat_routes_max_lid(routes, &max_lid));
	printf("max LID %u\n", (unsigned)max_lid);

	/* leaf L0 has node GUID base + 0x10000000; host H5_1 (rank 21) has LID 22 */
	uint8_t port;
	CHECK(ibfat_routes_port(routes, UINT64_C(0x0002c90010000000), 22, &port));
	printf("leaf L0 forwards LID 22 to port %u\n", (unsigned)port);
	const uint8_t *lft;
	size_t len;
	CHECK(ibfat_routes_lft(routes, UINT64_C(0x0002c90010000000), &lft, &len));
	printf("leaf L0 LFT has %zu entries, LID 1 -> port %u\n", len, (unsigned)lft[1]);

	CHECK(ibfat_routes_validate(routes, &v));
	printf("validation: ok=%d black_holes=%" PRIu64 " loops=%" PRIu64 " deadlock_free=%d\n", v.ok, v.black_holes,
	       v.loops, v.deadlock_free);

	/* errors come back as codes with a message, never as a crash */
	IbfatFabric *bad = NULL;
	IbfatStatus st = ibfat_fabric_build("family: lsft\norder: 6\n", &bad);
	printf("order 6: status %d: %s\n", (int)st, ibfat_last_error());
	st = ibfat_routes_port(routes, UINT64_C(0xdead), 1, &port);
	printf("unknown switch: status %d: %s\n", (int)st, ibfat_last_error());
	st = ibfat_routes_port(NULL, 0, 1, &port);
	printf("NULL handle: status %d\n", (int)st);

	ibfat_routes_free(routes);
	ibfat_fabric_free(fabric);
	if (!v.ok)
		return 1;
	return argc > 1 ? discovered(argv[1]) : 0;
}
