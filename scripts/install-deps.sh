#!/bin/sh
# Install the Debian packages ibfat's tests and tools need (idempotent; needs root or sudo).
#   opensm libopensm-dev      stock OpenSM 3.3.23 and its headers (the routing plugin)
#   ibsim-utils libumad2sim0  the MAD-level fabric simulator and its libumad shim
#   infiniband-diags          ibnetdiscover, dump_lfts, ibroute, ...
#   graphviz                  topology-graphviz.svg (build --graphviz); ibfat draws topology.svg itself
#   librsvg2-bin              rsvg-convert: the tests render ibfat's SVG pictures to PNG
#   gcc make pkg-config       the plugin's C shim and the C ABI example
#   libibverbs-dev librdmacm-dev libclang-dev   the optional `verbs` feature (rdma-sys)
#   slurmctld slurmd slurm-client munge   the Slurm array-job test (it runs its own munged and
#                             Slurm daemons on private sockets, ports and folders; the packaged
#                             services are not needed, and no systemd is assumed)
#   openmpi-bin libopenmpi-dev  mpicc and mpirun for examples/mpi and tests/lab/mpi_alltoall.rs
set -eu
PKGS="opensm libopensm-dev ibsim-utils libumad2sim0 infiniband-diags rdma-core libibumad-dev graphviz librsvg2-bin gcc g++ make pkg-config libibverbs-dev librdmacm-dev libclang-dev man-db slurmctld slurmd slurm-client munge openmpi-bin libopenmpi-dev"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO="sudo"
	echo "installing:$missing" >&2
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
dpkg-query -W -f='${Package} ${Version}\n' opensm ibsim-utils infiniband-diags >&2
