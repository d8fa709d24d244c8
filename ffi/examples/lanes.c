/*
 * ibfat C ABI example: route a fabric as found — intact or with cables missing — and
 * read back what a subnet manager needs besides the LFTs: the data VLs the routes use,
 * the SL of every path and the SL-to-VL table of every switch port pair.
 *
 *   lanes TOPOLOGY OUTDIR [LMC]
 *
 * prints the family and fault count, the VLs, the number of (SLID, DLID) paths on an SL
 * other than 0, the highest VL any table maps to, the validation, and writes
 * OUTDIR/opensm-lfts.dump, OUTDIR/guid2lid, and (with lanes) OUTDIR/path-sl.txt and
 * OUTDIR/sl2vl.txt.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Paths on an SL other than 0, over every pair of LIDs the fabric has. */
static int sl_paths(const IbfatRoutes *routes, uint16_t max_lid, unsigned long *out)
{
	unsigned long n = 0;
	for (uint32_t s = 1; s <= max_lid; s++) {
		for (uint32_t d = 1; d <= max_lid; d++) {
			uint8_t sl = 0;
			IbfatStatus st = ibfat_routes_path_sl(routes, (uint16_t)s, (uint16_t)d, &sl);
			if (st == IBFAT_E_NOT_FOUND)
				continue;
			if (st != IBFAT_OK) {
				fprintf(stderr, "path_sl %u -> %u: %s\n", s, d, ibfat_last_error());
				return 1;
			}
			n += sl != 0;
		}
	}
	*out = n;
	return 0;
}

/* The highest VL any switch's SL-to-VL table maps any SL to. */
static int highest_vl(const IbfatRoutes *routes, unsigned *out)
{
	uint32_t n;
	unsigned high = 0;
	CHECK(ibfat_routes_switch_count(routes, &n));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t guid;
		uint8_t ports;
		CHECK(ibfat_routes_switch(routes, i, &guid, &ports));
		for (unsigned in = 0; in <= ports; in++) {
			for (unsigned outp = 0; outp <= ports; outp++) {
				uint8_t vls[16];
				CHECK(ibfat_routes_sl2vl(routes, guid, (uint8_t)in, (uint8_t)outp, vls));
				for (int sl = 0; sl < 16; sl++)
					if (vls[sl] > high)
						high = vls[sl];
			}
		}
	}
	*out = high;
	return 0;
}

int main(int argc, char **argv)
{
	IbfatFabric *fabric = NULL;
	IbfatRoutes *routes = NULL;
	IbfatRecognition rec;
	IbfatValidation v;
	uint16_t max_lid;
	uint8_t data_vls;
	unsigned long on_sl = 0;
	unsigned high = 0;
	char path[4096], other[4096];

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s TOPOLOGY OUTDIR [LMC]\n", argv[0]);
		return 2;
	}
	uint8_t lmc = argc == 4 ? (uint8_t)atoi(argv[3]) : 0;
	CHECK(ibfat_fabric_load(argv[1], &fabric));
	CHECK(ibfat_fabric_recognize(fabric, IBFAT_FAMILY_AUTO, &rec));
	printf("family %d faults %u\n", (int)rec.family, rec.faults);
	CHECK(ibfat_routes_compute(fabric, lmc, IBFAT_LIDS_PLAN, &routes));
	CHECK(ibfat_routes_data_vls(routes, &data_vls));
	CHECK(ibfat_routes_max_lid(routes, &max_lid));
	if (sl_paths(routes, max_lid, &on_sl) || highest_vl(routes, &high))
		return 1;
	printf("data_vls %u sl_paths %lu highest_vl %u\n", data_vls, on_sl, high);
	CHECK(ibfat_routes_validate(routes, &v));
	printf("validation ok=%d deadlock_free=%d loops=%" PRIu64 "\n", v.ok, v.deadlock_free, v.loops);
	snprintf(path, sizeof path, "%s/opensm-lfts.dump", argv[2]);
	snprintf(other, sizeof other, "%s/guid2lid", argv[2]);
	CHECK(ibfat_routes_write(routes, path, other));
	if (data_vls > 1) {
		snprintf(path, sizeof path, "%s/path-sl.txt", argv[2]);
		snprintf(other, sizeof other, "%s/sl2vl.txt", argv[2]);
		CHECK(ibfat_routes_write_lanes(routes, path, other));
	} else {
		IbfatStatus st = ibfat_routes_write_lanes(routes, "x", "y");
		printf("one VL: write_lanes status %d\n", (int)st);
	}
	ibfat_routes_free(routes);
	ibfat_fabric_free(fabric);
	return 0;
}
