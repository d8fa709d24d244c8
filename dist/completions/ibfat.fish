# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ibfat_global_optspecs
    string join \n q/quiet v/verbose node-name-map= input-format= partial compute-guids= io-guids= io-hosts= json h/help V/version
end

function __fish_ibfat_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ibfat_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ibfat_using_subcommand
    set -l cmd (__fish_ibfat_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ibfat -n "__fish_ibfat_needs_command" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_needs_command" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_needs_command" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_needs_command" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_needs_command" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_needs_command" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_needs_command" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_needs_command" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_needs_command" -l json -d 'Print the report as JSON (also accepted after the subcommand)'
complete -c ibfat -n "__fish_ibfat_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_needs_command" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "build" -d 'Build a fabric and write its wiring plan (ibsim net file, cable list, spec, picture)'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "metrics" -d 'Cost and latency figures: hosts/switches/cables per family, hops per wiring'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "demo" -d 'Build an order-7 Latin-square fat-tree and a 7-ary MOLS 3-tree and report'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "schedule" -d 'Write an all-to-all schedule (lsft, lsft-partial, shift, ...) for a fabric\'s hosts'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "route" -d 'Compute deterministic LFTs; write opensm-lfts.dump and guid2lid'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "plan-paths" -d 'A full mesh\'s multipath plan: per host pair, the DLID offsets to use round robin'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "lfts" -d 'Work with LFT dumps (validate, diff)'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "check" -d 'Count link conflicts of an all-to-all pattern, phase by phase, on the LFTs'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "recognize" -d 'Recognise the family of a discovered fabric and map it to canonical coordinates'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "cabling" -d 'Check a discovered fabric against its wiring plan, with a fix for every fault'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "whoami" -d 'This host\'s InfiniBand ports and their ranks in a schedule'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "export" -d 'Write the fabric in another tool\'s format (Slurm topology.conf)'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "faults" -d 'Write a degraded copy of a fabric (cut cables, dead switches) and its ibsim commands'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "predict" -d 'Predict every all-to-all algorithm\'s time for a job\'s placement, and the shortlist'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish)'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "man" -d 'Print the man page, or write every page (one per subcommand) into a folder'
complete -c ibfat -n "__fish_ibfat_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l spec -d 'Rebuild the fabric described by a fabric.yaml' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -s o -l out -d 'Write the plan folder here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l no-svg -d 'Do not draw topology.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l graphviz -d 'Also render topology.dot with Graphviz into topology-graphviz.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -f -a "lsft" -d 'Latin-square fat-tree from the projective plane of order Q'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -f -a "kary" -d 'Standard k-ary n-tree (k^n hosts, n levels of k^(n-1) switches)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -f -a "mols" -d '3-level fat-tree with the middle stage rewired by orthogonal Latin squares'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -f -a "pgft" -d 'Parallel-ports generalised fat-tree PGFT(h; m1..mh; w1..wh; p1..ph): the fat-trees sites run (parallel cables, oversubscribed, partly populated)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -f -a "fullmesh" -d 'Full mesh: N switches, every pair cabled (W parallel cables), H hosts per switch'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -f -a "twolevel" -d 'Two-level fat-tree (leaves and spines): a spelling of PGFT(2; H,L; 1,S; 1,P)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -f -a "railopt" -d 'Rail-optimised GPU cluster: units of servers with one HCA per rail, a leaf per rail'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and not __fish_seen_subcommand_from lsft kary mols pgft fullmesh twolevel railopt help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l order -d 'Order q of the projective plane: a prime power (2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17 ...)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l hosts-per-leaf -d 'Hosts per leaf, 1..=q+1 (default q+1)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l shuffle -d 'Permute every switch\'s ports and draw random GUIDs from SEED' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l guid-base -d 'First GUID (hex)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l link-width -d 'Width of every cable: 1x, 4x, 8x, 12x' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l link-speed -d 'Speed of every cable: SDR, DDR, QDR, FDR, EDR, HDR, NDR' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l rails -d 'Identical planes (1..=4), one HCA port per rail on every host' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -s o -l out -d 'Write the plan folder here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l two-sided -d 'Also cable the spines\' upper q+1 ports to a second copy of all leaves and hosts'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l no-svg -d 'Do not draw topology.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l graphviz -d 'Also render topology.dot with Graphviz into topology-graphviz.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from lsft" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l arity -d 'Arity k >= 2 (switches have 2k ports)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l levels -d 'Levels n >= 2' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l shuffle -d 'Permute every switch\'s ports and draw random GUIDs from SEED' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l guid-base -d 'First GUID (hex)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l link-width -d 'Width of every cable: 1x, 4x, 8x, 12x' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l link-speed -d 'Speed of every cable: SDR, DDR, QDR, FDR, EDR, HDR, NDR' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l rails -d 'Identical planes (1..=4), one HCA port per rail on every host' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -s o -l out -d 'Write the plan folder here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l no-svg -d 'Do not draw topology.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l graphviz -d 'Also render topology.dot with Graphviz into topology-graphviz.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from kary" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l arity -d 'Arity n >= 2: n³ hosts, 3n² switches of 2n ports' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l wiring -d 'standard | basic (r + u·c mod n) | mols (GF(n), prime powers) | auto (best available)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l shuffle -d 'Permute every switch\'s ports and draw random GUIDs from SEED' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l guid-base -d 'First GUID (hex)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l link-width -d 'Width of every cable: 1x, 4x, 8x, 12x' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l link-speed -d 'Speed of every cable: SDR, DDR, QDR, FDR, EDR, HDR, NDR' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l rails -d 'Identical planes (1..=4), one HCA port per rail on every host' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -s o -l out -d 'Write the plan folder here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l no-svg -d 'Do not draw topology.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l graphviz -d 'Also render topology.dot with Graphviz into topology-graphviz.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from mols" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l down -d 'm1,..,mh: children per switch of levels 1 (host slots) to h' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l up -d 'w1,..,wh: parents per node (w1 = 1: one port per host)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l parallel -d 'p1,..,ph: parallel cables to each parent (p1 = 1)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l hosts-per-leaf -d 'Hosts on the first M slots of every leaf (default m1: all)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l io-per-leaf -d 'The last K hosts of every leaf are non-compute' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l shuffle -d 'Permute every switch\'s ports and draw random GUIDs from SEED' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l guid-base -d 'First GUID (hex)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l link-width -d 'Width of every cable: 1x, 4x, 8x, 12x' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l link-speed -d 'Speed of every cable: SDR, DDR, QDR, FDR, EDR, HDR, NDR' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l rails -d 'Identical planes (1..=4), one HCA port per rail on every host' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -s o -l out -d 'Write the plan folder here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l no-svg -d 'Do not draw topology.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l graphviz -d 'Also render topology.dot with Graphviz into topology-graphviz.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from pgft" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l switches -d 'Switches N >= 3' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l hosts-per-switch -d 'Hosts per switch H >= 1' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l cables-per-pair -d 'Parallel cables between every pair of switches W >= 1' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l shuffle -d 'Permute every switch\'s ports and draw random GUIDs from SEED' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l guid-base -d 'First GUID (hex)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l link-width -d 'Width of every cable: 1x, 4x, 8x, 12x' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l link-speed -d 'Speed of every cable: SDR, DDR, QDR, FDR, EDR, HDR, NDR' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l rails -d 'Identical planes (1..=4), one HCA port per rail on every host' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -s o -l out -d 'Write the plan folder here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l no-svg -d 'Do not draw topology.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l graphviz -d 'Also render topology.dot with Graphviz into topology-graphviz.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from fullmesh" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l leaves -d 'Leaf switches L' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l hosts-per-leaf -d 'Host slots per leaf H' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l spines -d 'Spine switches S' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l links-per-pair -d 'Parallel cables between each leaf and each spine P' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l shuffle -d 'Permute every switch\'s ports and draw random GUIDs from SEED' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l guid-base -d 'First GUID (hex)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l link-width -d 'Width of every cable: 1x, 4x, 8x, 12x' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l link-speed -d 'Speed of every cable: SDR, DDR, QDR, FDR, EDR, HDR, NDR' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l rails -d 'Identical planes (1..=4), one HCA port per rail on every host' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -s o -l out -d 'Write the plan folder here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l no-svg -d 'Do not draw topology.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l graphviz -d 'Also render topology.dot with Graphviz into topology-graphviz.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from twolevel" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l sus -d 'Scalable units S (2 levels: up to radix/R; 3 levels: up to the LID space)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l servers-per-su -d 'Servers per unit N, 1..=radix/2 (on the first N of a leaf\'s radix/2 down ports)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l rails -d 'HCAs per server R, one per rail (mlx5_0 … mlx5_<R-1>), 2..=16' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l spines -d 'Spines of a two-level plan: a divisor of radix/2 (default: the fewest that fit)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l levels -d '2 (leaves, spines) or 3 (rail spine groups and a core)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l radix -d 'Ports of the switch model' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l shuffle -d 'Permute every switch\'s ports and draw random GUIDs from SEED' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l guid-base -d 'First GUID (hex)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l link-width -d 'Width of every cable: 1x, 4x, 8x, 12x' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l link-speed -d 'Speed of every cable: SDR, DDR, QDR, FDR, EDR, HDR, NDR' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -s o -l out -d 'Write the plan folder here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l no-svg -d 'Do not draw topology.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l graphviz -d 'Also render topology.dot with Graphviz into topology-graphviz.svg'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from railopt" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from help" -f -a "lsft" -d 'Latin-square fat-tree from the projective plane of order Q'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from help" -f -a "kary" -d 'Standard k-ary n-tree (k^n hosts, n levels of k^(n-1) switches)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from help" -f -a "mols" -d '3-level fat-tree with the middle stage rewired by orthogonal Latin squares'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from help" -f -a "pgft" -d 'Parallel-ports generalised fat-tree PGFT(h; m1..mh; w1..wh; p1..ph): the fat-trees sites run (parallel cables, oversubscribed, partly populated)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from help" -f -a "fullmesh" -d 'Full mesh: N switches, every pair cabled (W parallel cables), H hosts per switch'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from help" -f -a "twolevel" -d 'Two-level fat-tree (leaves and spines): a spelling of PGFT(2; H,L; 1,S; 1,P)'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from help" -f -a "railopt" -d 'Rail-optimised GPU cluster: units of servers with one HCA per rail, a leaf per rail'
complete -c ibfat -n "__fish_ibfat_using_subcommand build; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l degrees -d 'Switch degrees for the cost table, as FROM..=TO' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l arities -d 'Arities for the hop table, as FROM..=TO' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l json -d 'Print JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand metrics" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -s o -l out -d 'Folder for the two plan folders' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand demo" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -s f -l family -d 'The family the fabric must be (auto: recognise it)' -r -f -a "auto\t''
lsft\t''
kary\t''
mols\t''
pgft\t''
fullmesh\t''
twolevel\t''
railopt\t''
tree\t''"
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -s p -l pattern -d 'Pattern to generate, e.g. lsft, shift, kary-shift, bcast-multilane' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -s j -l job -d 'The job\'s hosts: ranks:LIST, host names dgx[001-031] or a host file; default all' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l block -d 'lsft-partial: number K of grid columns of the block (1..=q)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l per-leaf -d 'lsft-partial: hosts per leaf M (1..=K)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l job-size -d 'lsft-partial: place a job of D hosts (from --job, or the whole fabric)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l seed -d 'Seed of the random pattern' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l phases -d 'Number of phases of the random pattern (default: the number of ranks)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -s o -l out -d 'Write the schedule here (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l format -d 'json (default, or by the --out extension) or csv' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l lfts -d 'Degraded LSFT: repair the lsft schedule for these tables' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l lids -d 'LIDs of --lfts (guid2lid); default the topology\'s own' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l root -d 'bcast-multilane: the job rank holding the message' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l lanes -d 'bcast-multilane: ports per host used, = parts of the message (1..=8)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l placement -d 'bcast-multilane: which hosts take which tree positions (auto: nested or rank-order, whichever is predicted faster at --message-size on the tables)' -r -f -a "auto\t'`nested` or `rank-order`, whichever the cost model predicts faster at --message-size on the tables'
nested\t'Every subtree (leaf switch, pod) entered and left through one rank: conflict-free steady state on trees, deeper'
rank-order\t'Tree positions in job-rank order: shallowest'
sites\t'Sites (hosts behind one leaf) chained: one flow per part across every boundary'"
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l segment -d 'bcast-multilane: segment size of the pipelines in bytes (default: the best for each algorithm)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l plot -d 'bcast-multilane: draw predicted time against message size per algorithm (SVG)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l rail -d 'A multi-rail fabric: schedule on rail K\'s plane' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l message-size -d 'bcast-multilane: message size in bytes for the predicted times' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l latency -d 'bcast-multilane: latency per hop in microseconds for the predicted times' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l bandwidth -d 'bcast-multilane: bandwidth of one port in GB/s for the predicted times' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l timings -d 'Add the time it took to the JSON report (`seconds`)'
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l sites -d 'bcast-multilane: chain the sites (hosts behind one leaf switch), one flow per part across every site boundary (= --placement sites)'
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand schedule" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -s f -l family -d 'The family the fabric must be (auto: recognise it from the cabling alone)' -r -f -a "auto\t''
lsft\t''
kary\t''
mols\t''
pgft\t''
fullmesh\t''
twolevel\t''
railopt\t''
tree\t''"
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l lmc -d 'LIDs per host port 2^LMC: 0 or 1; full meshes 0..=7' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -s l -l lids -d 'Where the LIDs come from: plan, discovered, or a guid2lid file' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -s o -l out -d 'Output folder' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l dump-style -d 'What each dump entry carries: full, compact, or auto' -r -f -a "auto\t''
full\t''
compact\t''"
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l rail -d 'Route rail K of a multi-rail fabric (the plane on HCA port K+1)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l objective -d 'What the routes optimise: family, or spread (LSFT: detours on 2 VLs)' -r -f -a "family\t''
spread\t''"
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l no-validate -d 'Skip the proof of the computed tables'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l no-sync -d 'Do not wait for the disk before publishing the files'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l timings -d 'Add the time of every stage to the report'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand route" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l rail -d 'A multi-rail fabric: work on rail K\'s plane' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -s d -l direct-share -d 'D: how many of the ten slots use the direct route, 1..=10' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l lmc -d 'The LMC the fabric is routed with (`ibfat route --lmc`)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -s l -l lids -d 'Base LIDs: `plan` (deterministic) or a guid2lid file' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -s o -l out -d 'Write the plan (JSON) to this file, atomically' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand plan-paths" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -f -a "validate" -d 'Check reachability, loops, black holes, hop counts and deadlock freedom'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -f -a "diff" -d 'List the entries that changed between two LFT dumps, per switch, with totals'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and not __fish_seen_subcommand_from validate diff help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l rail -d 'A multi-rail fabric: validate rail K\'s plane' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l topology -d 'Deprecated spelling of TOPOLOGY (one more release)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l lfts -d 'LFT dump to check' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -s l -l lids -d 'guid2lid file with the LIDs the tables were made for' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l sl -d 'Routes on several VLs: the SL of every (SLID, DLID) pair' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l sl2vl -d 'The SL-to-VL tables (sl2vl.txt) that go with --sl' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l strict -d 'Fail (exit 1) on completeness gaps too'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from validate" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -s l -l lids -d 'guid2lid file with the LIDs both dumps were made for' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from diff" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from help" -f -a "validate" -d 'Check reachability, loops, black holes, hop counts and deadlock freedom'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from help" -f -a "diff" -d 'List the entries that changed between two LFT dumps, per switch, with totals'
complete -c ibfat -n "__fish_ibfat_using_subcommand lfts; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l rail -d 'A multi-rail fabric: work on rail K\'s plane' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l topology -d 'Deprecated spelling of TOPOLOGY (one more release)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l lfts -d 'LFT dump (default: ibfat\'s own routes for the topology)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -s l -l lids -d 'guid2lid file with the LIDs the tables were made for' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -s p -l pattern -d 'A pattern (shift, lsft ...) or a schedule file (JSON)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -s j -l job -d 'Ranks of the job: `ranks:0-63`, host names `dgx[001-031]` or a host file' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l block -d 'lsft-partial: block width K (with --per-leaf M)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l per-leaf -d 'lsft-partial: hosts per leaf M' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l job-size -d 'lsft-partial: place a job of D hosts' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l seed -d 'random: seed' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l phases -d 'random: number of phases' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l lid-offset -d 'Use LID base+K as destination (LMC paths)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l shard -d 'Check only slice I of N of the phases (I from 0)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -s o -l out -d 'Write the shard (with --shard) to FILE, atomically' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l heatmap -d 'Colour every link direction by its worst load: FILE.svg or FILE.dot' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l links -d 'Include every link\'s load (`link_loads`) in the --json report'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l rates -d 'Weigh each flow by link rate (reference rate / link rate)'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l allow-stale -d 'Check a schedule file even when it records other tables or fabric'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l timings -d 'Print the seconds of every stage on standard error'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -a "multipath" -d 'A full mesh\'s multipath throughput: the seed\'s patterns at direct shares D1 ... D10'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -a "merge" -d 'Combine shard files (from `check --shard i/N --out FILE`) into one report'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and not __fish_seen_subcommand_from multipath merge help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l lmc -d 'The LMC the mesh is routed with (2^LMC - 1 detour offsets)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -s d -l direct-share -d 'One direct share D (1..=10), or `all` (D1 ... D10)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -s p -l pattern -d 'point-to-point, one-to-n, n-to-one, n-to-n, or `all`' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l lfts -d 'LFT dump to walk (default: ibfat\'s own routes at --lmc)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -s l -l lids -d 'guid2lid file with the LIDs the dump was made for' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from multipath" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l allow-partial -d 'Merge an incomplete set: the report says `partial: true` and the exit code is 1'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l json -d 'Print the merged report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l links -d 'Include every link\'s load (`link_loads`) in the JSON report'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from merge" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from help" -f -a "multipath" -d 'A full mesh\'s multipath throughput: the seed\'s patterns at direct shares D1 ... D10'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from help" -f -a "merge" -d 'Combine shard files (from `check --shard i/N --out FILE`) into one report'
complete -c ibfat -n "__fish_ibfat_using_subcommand check; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -s f -l family -d 'Family to look for (auto: any of them)' -r -f -a "auto\t''
lsft\t''
kary\t''
mols\t''
pgft\t''
fullmesh\t''
twolevel\t''
railopt\t''
tree\t''"
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -l rail -d 'Recognise rail K of a multi-rail fabric only' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -l json -d 'Print the report as JSON (with the full leaf/spine/switch/host maps)'
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand recognize" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l plan -d 'Deprecated spelling of PLAN (one more release)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l discovered -d 'Deprecated spelling of DISCOVERED (one more release)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand cabling" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -l schedule -d 'A schedule file (ibfat\'s JSON format) to find this host\'s ranks in' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -l json -d 'Print JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand whoami" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -f -a "slurm-topology" -d 'Slurm topology.conf (tree plugin) for the fabric'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and not __fish_seen_subcommand_from slurm-topology help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -s o -l out -d 'Write here (atomically; `-` or nothing: stdout)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -l form -d 'Slurm plugin: tree, or block (rail-optimised fabrics: one block per unit)' -r -f -a "tree\t''
block\t''"
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from slurm-topology" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from help" -f -a "slurm-topology" -d 'Slurm topology.conf (tree plugin) for the fabric'
complete -c ibfat -n "__fish_ibfat_using_subcommand export; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l cut -d 'Number of switch-to-switch cables to cut' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l seed -d 'Seed of the choice of cables' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l dead -d 'A switch to kill, by name, NodeDescription or GUID (repeatable)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -s o -l out -d 'Write the degraded fabric and the commands into this folder (atomically)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l json -d 'Print what was injected as JSON (`ibfat.faults/1`)'
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand faults" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l rail -d 'A multi-rail fabric: work on rail K\'s plane' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l lfts -d 'LFT dump (default: ibfat\'s own routes for the topology)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -s l -l lids -d 'guid2lid file with the LIDs the tables were made for' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -s f -l family -d 'The family the fabric must be (auto: recognise it)' -r -f -a "auto\t''
lsft\t''
kary\t''
mols\t''
pgft\t''
fullmesh\t''
twolevel\t''
railopt\t''
tree\t''"
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -s j -l job -d 'The job\'s nodes in rank order: `ranks:0-3,20-23`, names `dgx[001-004]` or a file' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -s m -l msg-size -d 'Message sizes: bytes, or with K, M, G (16K,1M)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l ranks-per-node -d 'Ranks on every node (P_n, 1..=256)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l prune -d 'Drop algorithms predicted X times the best or slower' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l latency -d 'Latency of one message, seconds' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l bandwidth -d 'Bandwidth of one link, bytes per second' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l profile -d 'File with `latency: SECONDS` and `bandwidth: BYTES_PER_S`' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l algorithms -d 'Only these algorithms (comma-separated names)' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l plot -d 'Draw predicted time against message size (log-log SVG)' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l json -d 'Print the report as JSON'
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand predict" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand completions" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -s o -l out -d 'Write every page (ibfat.1, ibfat-SUBCOMMAND.1 ...) into this folder' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -l node-name-map -d 'Name nodes in every report and output as this map does' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -l input-format -d 'Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover, ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -l compute-guids -d 'Host roles: the compute hosts, one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -l io-guids -d 'Host roles: non-compute hosts (storage, login), one GUID per line' -r -F
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -l io-hosts -d 'Host roles: non-compute hosts by name pattern (`stor*`); repeatable' -r
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -s q -l quiet -d 'No notes, warnings or progress bars on stderr (errors still print)'
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -s v -l verbose -d 'Say on stderr what was read and recognised, and the time taken'
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -l partial -d 'Keep a dump whose cables lead outside it (a trimmed dump): those ports count as uncabled and are listed as leading outside'
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ibfat -n "__fish_ibfat_using_subcommand man" -s V -l version -d 'Print version'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "build" -d 'Build a fabric and write its wiring plan (ibsim net file, cable list, spec, picture)'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "metrics" -d 'Cost and latency figures: hosts/switches/cables per family, hops per wiring'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "demo" -d 'Build an order-7 Latin-square fat-tree and a 7-ary MOLS 3-tree and report'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "schedule" -d 'Write an all-to-all schedule (lsft, lsft-partial, shift, ...) for a fabric\'s hosts'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "route" -d 'Compute deterministic LFTs; write opensm-lfts.dump and guid2lid'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "plan-paths" -d 'A full mesh\'s multipath plan: per host pair, the DLID offsets to use round robin'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "lfts" -d 'Work with LFT dumps (validate, diff)'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "check" -d 'Count link conflicts of an all-to-all pattern, phase by phase, on the LFTs'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "recognize" -d 'Recognise the family of a discovered fabric and map it to canonical coordinates'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "cabling" -d 'Check a discovered fabric against its wiring plan, with a fix for every fault'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "whoami" -d 'This host\'s InfiniBand ports and their ranks in a schedule'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "export" -d 'Write the fabric in another tool\'s format (Slurm topology.conf)'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "faults" -d 'Write a degraded copy of a fabric (cut cables, dead switches) and its ibsim commands'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "predict" -d 'Predict every all-to-all algorithm\'s time for a job\'s placement, and the shortlist'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish)'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "man" -d 'Print the man page, or write every page (one per subcommand) into a folder'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and not __fish_seen_subcommand_from build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from build" -f -a "lsft" -d 'Latin-square fat-tree from the projective plane of order Q'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from build" -f -a "kary" -d 'Standard k-ary n-tree (k^n hosts, n levels of k^(n-1) switches)'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from build" -f -a "mols" -d '3-level fat-tree with the middle stage rewired by orthogonal Latin squares'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from build" -f -a "pgft" -d 'Parallel-ports generalised fat-tree PGFT(h; m1..mh; w1..wh; p1..ph): the fat-trees sites run (parallel cables, oversubscribed, partly populated)'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from build" -f -a "fullmesh" -d 'Full mesh: N switches, every pair cabled (W parallel cables), H hosts per switch'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from build" -f -a "twolevel" -d 'Two-level fat-tree (leaves and spines): a spelling of PGFT(2; H,L; 1,S; 1,P)'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from build" -f -a "railopt" -d 'Rail-optimised GPU cluster: units of servers with one HCA per rail, a leaf per rail'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from lfts" -f -a "validate" -d 'Check reachability, loops, black holes, hop counts and deadlock freedom'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from lfts" -f -a "diff" -d 'List the entries that changed between two LFT dumps, per switch, with totals'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from check" -f -a "multipath" -d 'A full mesh\'s multipath throughput: the seed\'s patterns at direct shares D1 ... D10'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from check" -f -a "merge" -d 'Combine shard files (from `check --shard i/N --out FILE`) into one report'
complete -c ibfat -n "__fish_ibfat_using_subcommand help; and __fish_seen_subcommand_from export" -f -a "slurm-topology" -d 'Slurm topology.conf (tree plugin) for the fabric'
