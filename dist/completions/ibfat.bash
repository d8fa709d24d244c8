_ibfat() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="ibfat"
                ;;
            ibfat,build)
                cmd="ibfat__subcmd__build"
                ;;
            ibfat,cabling)
                cmd="ibfat__subcmd__cabling"
                ;;
            ibfat,check)
                cmd="ibfat__subcmd__check"
                ;;
            ibfat,completions)
                cmd="ibfat__subcmd__completions"
                ;;
            ibfat,demo)
                cmd="ibfat__subcmd__demo"
                ;;
            ibfat,export)
                cmd="ibfat__subcmd__export"
                ;;
            ibfat,faults)
                cmd="ibfat__subcmd__faults"
                ;;
            ibfat,help)
                cmd="ibfat__subcmd__help"
                ;;
            ibfat,lfts)
                cmd="ibfat__subcmd__lfts"
                ;;
            ibfat,man)
                cmd="ibfat__subcmd__man"
                ;;
            ibfat,metrics)
                cmd="ibfat__subcmd__metrics"
                ;;
            ibfat,plan-paths)
                cmd="ibfat__subcmd__plan__subcmd__paths"
                ;;
            ibfat,predict)
                cmd="ibfat__subcmd__predict"
                ;;
            ibfat,recognize)
                cmd="ibfat__subcmd__recognize"
                ;;
            ibfat,route)
                cmd="ibfat__subcmd__route"
                ;;
            ibfat,schedule)
                cmd="ibfat__subcmd__schedule"
                ;;
            ibfat,whoami)
                cmd="ibfat__subcmd__whoami"
                ;;
            ibfat__subcmd__build,fullmesh)
                cmd="ibfat__subcmd__build__subcmd__fullmesh"
                ;;
            ibfat__subcmd__build,help)
                cmd="ibfat__subcmd__build__subcmd__help"
                ;;
            ibfat__subcmd__build,kary)
                cmd="ibfat__subcmd__build__subcmd__kary"
                ;;
            ibfat__subcmd__build,lsft)
                cmd="ibfat__subcmd__build__subcmd__lsft"
                ;;
            ibfat__subcmd__build,mols)
                cmd="ibfat__subcmd__build__subcmd__mols"
                ;;
            ibfat__subcmd__build,pgft)
                cmd="ibfat__subcmd__build__subcmd__pgft"
                ;;
            ibfat__subcmd__build,railopt)
                cmd="ibfat__subcmd__build__subcmd__railopt"
                ;;
            ibfat__subcmd__build,twolevel)
                cmd="ibfat__subcmd__build__subcmd__twolevel"
                ;;
            ibfat__subcmd__build__subcmd__help,fullmesh)
                cmd="ibfat__subcmd__build__subcmd__help__subcmd__fullmesh"
                ;;
            ibfat__subcmd__build__subcmd__help,help)
                cmd="ibfat__subcmd__build__subcmd__help__subcmd__help"
                ;;
            ibfat__subcmd__build__subcmd__help,kary)
                cmd="ibfat__subcmd__build__subcmd__help__subcmd__kary"
                ;;
            ibfat__subcmd__build__subcmd__help,lsft)
                cmd="ibfat__subcmd__build__subcmd__help__subcmd__lsft"
                ;;
            ibfat__subcmd__build__subcmd__help,mols)
                cmd="ibfat__subcmd__build__subcmd__help__subcmd__mols"
                ;;
            ibfat__subcmd__build__subcmd__help,pgft)
                cmd="ibfat__subcmd__build__subcmd__help__subcmd__pgft"
                ;;
            ibfat__subcmd__build__subcmd__help,railopt)
                cmd="ibfat__subcmd__build__subcmd__help__subcmd__railopt"
                ;;
            ibfat__subcmd__build__subcmd__help,twolevel)
                cmd="ibfat__subcmd__build__subcmd__help__subcmd__twolevel"
                ;;
            ibfat__subcmd__check,help)
                cmd="ibfat__subcmd__check__subcmd__help"
                ;;
            ibfat__subcmd__check,merge)
                cmd="ibfat__subcmd__check__subcmd__merge"
                ;;
            ibfat__subcmd__check,multipath)
                cmd="ibfat__subcmd__check__subcmd__multipath"
                ;;
            ibfat__subcmd__check__subcmd__help,help)
                cmd="ibfat__subcmd__check__subcmd__help__subcmd__help"
                ;;
            ibfat__subcmd__check__subcmd__help,merge)
                cmd="ibfat__subcmd__check__subcmd__help__subcmd__merge"
                ;;
            ibfat__subcmd__check__subcmd__help,multipath)
                cmd="ibfat__subcmd__check__subcmd__help__subcmd__multipath"
                ;;
            ibfat__subcmd__export,help)
                cmd="ibfat__subcmd__export__subcmd__help"
                ;;
            ibfat__subcmd__export,slurm-topology)
                cmd="ibfat__subcmd__export__subcmd__slurm__subcmd__topology"
                ;;
            ibfat__subcmd__export__subcmd__help,help)
                cmd="ibfat__subcmd__export__subcmd__help__subcmd__help"
                ;;
            ibfat__subcmd__export__subcmd__help,slurm-topology)
                cmd="ibfat__subcmd__export__subcmd__help__subcmd__slurm__subcmd__topology"
                ;;
            ibfat__subcmd__help,build)
                cmd="ibfat__subcmd__help__subcmd__build"
                ;;
            ibfat__subcmd__help,cabling)
                cmd="ibfat__subcmd__help__subcmd__cabling"
                ;;
            ibfat__subcmd__help,check)
                cmd="ibfat__subcmd__help__subcmd__check"
                ;;
            ibfat__subcmd__help,completions)
                cmd="ibfat__subcmd__help__subcmd__completions"
                ;;
            ibfat__subcmd__help,demo)
                cmd="ibfat__subcmd__help__subcmd__demo"
                ;;
            ibfat__subcmd__help,export)
                cmd="ibfat__subcmd__help__subcmd__export"
                ;;
            ibfat__subcmd__help,faults)
                cmd="ibfat__subcmd__help__subcmd__faults"
                ;;
            ibfat__subcmd__help,help)
                cmd="ibfat__subcmd__help__subcmd__help"
                ;;
            ibfat__subcmd__help,lfts)
                cmd="ibfat__subcmd__help__subcmd__lfts"
                ;;
            ibfat__subcmd__help,man)
                cmd="ibfat__subcmd__help__subcmd__man"
                ;;
            ibfat__subcmd__help,metrics)
                cmd="ibfat__subcmd__help__subcmd__metrics"
                ;;
            ibfat__subcmd__help,plan-paths)
                cmd="ibfat__subcmd__help__subcmd__plan__subcmd__paths"
                ;;
            ibfat__subcmd__help,predict)
                cmd="ibfat__subcmd__help__subcmd__predict"
                ;;
            ibfat__subcmd__help,recognize)
                cmd="ibfat__subcmd__help__subcmd__recognize"
                ;;
            ibfat__subcmd__help,route)
                cmd="ibfat__subcmd__help__subcmd__route"
                ;;
            ibfat__subcmd__help,schedule)
                cmd="ibfat__subcmd__help__subcmd__schedule"
                ;;
            ibfat__subcmd__help,whoami)
                cmd="ibfat__subcmd__help__subcmd__whoami"
                ;;
            ibfat__subcmd__help__subcmd__build,fullmesh)
                cmd="ibfat__subcmd__help__subcmd__build__subcmd__fullmesh"
                ;;
            ibfat__subcmd__help__subcmd__build,kary)
                cmd="ibfat__subcmd__help__subcmd__build__subcmd__kary"
                ;;
            ibfat__subcmd__help__subcmd__build,lsft)
                cmd="ibfat__subcmd__help__subcmd__build__subcmd__lsft"
                ;;
            ibfat__subcmd__help__subcmd__build,mols)
                cmd="ibfat__subcmd__help__subcmd__build__subcmd__mols"
                ;;
            ibfat__subcmd__help__subcmd__build,pgft)
                cmd="ibfat__subcmd__help__subcmd__build__subcmd__pgft"
                ;;
            ibfat__subcmd__help__subcmd__build,railopt)
                cmd="ibfat__subcmd__help__subcmd__build__subcmd__railopt"
                ;;
            ibfat__subcmd__help__subcmd__build,twolevel)
                cmd="ibfat__subcmd__help__subcmd__build__subcmd__twolevel"
                ;;
            ibfat__subcmd__help__subcmd__check,merge)
                cmd="ibfat__subcmd__help__subcmd__check__subcmd__merge"
                ;;
            ibfat__subcmd__help__subcmd__check,multipath)
                cmd="ibfat__subcmd__help__subcmd__check__subcmd__multipath"
                ;;
            ibfat__subcmd__help__subcmd__export,slurm-topology)
                cmd="ibfat__subcmd__help__subcmd__export__subcmd__slurm__subcmd__topology"
                ;;
            ibfat__subcmd__help__subcmd__lfts,diff)
                cmd="ibfat__subcmd__help__subcmd__lfts__subcmd__diff"
                ;;
            ibfat__subcmd__help__subcmd__lfts,validate)
                cmd="ibfat__subcmd__help__subcmd__lfts__subcmd__validate"
                ;;
            ibfat__subcmd__lfts,diff)
                cmd="ibfat__subcmd__lfts__subcmd__diff"
                ;;
            ibfat__subcmd__lfts,help)
                cmd="ibfat__subcmd__lfts__subcmd__help"
                ;;
            ibfat__subcmd__lfts,validate)
                cmd="ibfat__subcmd__lfts__subcmd__validate"
                ;;
            ibfat__subcmd__lfts__subcmd__help,diff)
                cmd="ibfat__subcmd__lfts__subcmd__help__subcmd__diff"
                ;;
            ibfat__subcmd__lfts__subcmd__help,help)
                cmd="ibfat__subcmd__lfts__subcmd__help__subcmd__help"
                ;;
            ibfat__subcmd__lfts__subcmd__help,validate)
                cmd="ibfat__subcmd__lfts__subcmd__help__subcmd__validate"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        ibfat)
            opts="-q -v -h -V --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --json --help --version build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build)
            opts="-o -q -v -h -V --spec --out --no-svg --graphviz --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version lsft kary mols pgft fullmesh twolevel railopt help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --spec)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__fullmesh)
            opts="-o -q -v -h -V --switches --hosts-per-switch --cables-per-pair --shuffle --guid-base --link-width --link-speed --rails --out --no-svg --graphviz --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --switches)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hosts-per-switch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cables-per-pair)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shuffle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guid-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rails)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help)
            opts="lsft kary mols pgft fullmesh twolevel railopt help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help__subcmd__fullmesh)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help__subcmd__kary)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help__subcmd__lsft)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help__subcmd__mols)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help__subcmd__pgft)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help__subcmd__railopt)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__help__subcmd__twolevel)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__kary)
            opts="-o -q -v -h -V --arity --levels --shuffle --guid-base --link-width --link-speed --rails --out --no-svg --graphviz --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --arity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --levels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shuffle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guid-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rails)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__lsft)
            opts="-o -q -v -h -V --order --two-sided --hosts-per-leaf --shuffle --guid-base --link-width --link-speed --rails --out --no-svg --graphviz --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --order)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hosts-per-leaf)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shuffle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guid-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rails)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__mols)
            opts="-o -q -v -h -V --arity --wiring --shuffle --guid-base --link-width --link-speed --rails --out --no-svg --graphviz --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --arity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wiring)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shuffle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guid-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rails)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__pgft)
            opts="-o -q -v -h -V --down --up --parallel --hosts-per-leaf --io-per-leaf --shuffle --guid-base --link-width --link-speed --rails --out --no-svg --graphviz --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --down)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --up)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --parallel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hosts-per-leaf)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-per-leaf)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shuffle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guid-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rails)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__railopt)
            opts="-o -q -v -h -V --sus --servers-per-su --rails --spines --levels --radix --shuffle --guid-base --link-width --link-speed --out --no-svg --graphviz --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --sus)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --servers-per-su)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rails)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spines)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --levels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --radix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shuffle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guid-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__build__subcmd__twolevel)
            opts="-o -q -v -h -V --leaves --hosts-per-leaf --spines --links-per-pair --shuffle --guid-base --link-width --link-speed --rails --out --no-svg --graphviz --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --leaves)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hosts-per-leaf)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spines)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --links-per-pair)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shuffle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guid-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rails)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__cabling)
            opts="-q -v -h -V --plan --discovered --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --plan)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --discovered)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__check)
            opts="-l -p -j -o -q -v -h -V --rail --topology --lfts --lids --pattern --job --block --per-leaf --job-size --seed --phases --lid-offset --shard --out --links --heatmap --rates --json --allow-stale --timings --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version multipath merge help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --rail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --topology)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lfts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pattern)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --job)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --per-leaf)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --job-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --phases)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lid-offset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shard)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --heatmap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__check__subcmd__help)
            opts="multipath merge help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__check__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__check__subcmd__help__subcmd__merge)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__check__subcmd__help__subcmd__multipath)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__check__subcmd__merge)
            opts="-q -v -h -V --allow-partial --json --links --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__check__subcmd__multipath)
            opts="-d -p -l -q -v -h -V --lmc --direct-share --pattern --lfts --lids --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --lmc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --direct-share)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pattern)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lfts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__completions)
            opts="-q -v -h -V --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version bash zsh fish"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__demo)
            opts="-o -q -v -h -V --out --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__export)
            opts="-q -v -h -V --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version slurm-topology help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__export__subcmd__help)
            opts="slurm-topology help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__export__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__export__subcmd__help__subcmd__slurm__subcmd__topology)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__export__subcmd__slurm__subcmd__topology)
            opts="-o -q -v -h -V --out --form --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --form)
                    COMPREPLY=($(compgen -W "tree block" -- "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__faults)
            opts="-o -q -v -h -V --cut --seed --dead --out --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cut)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dead)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help)
            opts="build metrics demo schedule route plan-paths lfts check recognize cabling whoami export faults predict completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__build)
            opts="lsft kary mols pgft fullmesh twolevel railopt"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__build__subcmd__fullmesh)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__build__subcmd__kary)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__build__subcmd__lsft)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__build__subcmd__mols)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__build__subcmd__pgft)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__build__subcmd__railopt)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__build__subcmd__twolevel)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__cabling)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__check)
            opts="multipath merge"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__check__subcmd__merge)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__check__subcmd__multipath)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__demo)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__export)
            opts="slurm-topology"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__export__subcmd__slurm__subcmd__topology)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__faults)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__lfts)
            opts="validate diff"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__lfts__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__lfts__subcmd__validate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__metrics)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__plan__subcmd__paths)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__predict)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__recognize)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__route)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__schedule)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__help__subcmd__whoami)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__lfts)
            opts="-q -v -h -V --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version validate diff help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__lfts__subcmd__diff)
            opts="-l -q -v -h -V --lids --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --lids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__lfts__subcmd__help)
            opts="validate diff help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__lfts__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__lfts__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__lfts__subcmd__help__subcmd__validate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__lfts__subcmd__validate)
            opts="-l -q -v -h -V --rail --topology --lfts --lids --json --strict --sl --sl2vl --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --rail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --topology)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lfts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sl)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sl2vl)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__man)
            opts="-o -q -v -h -V --out --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__metrics)
            opts="-q -v -h -V --degrees --arities --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version cost hops all"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --degrees)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --arities)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__plan__subcmd__paths)
            opts="-d -l -o -q -v -h -V --rail --direct-share --lmc --lids --out --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --rail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --direct-share)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lmc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__predict)
            opts="-l -f -j -m -q -v -h -V --rail --lfts --lids --family --job --msg-size --ranks-per-node --prune --latency --bandwidth --profile --algorithms --plot --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --rail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lfts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --family)
                    COMPREPLY=($(compgen -W "auto lsft kary mols pgft fullmesh twolevel railopt tree" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto lsft kary mols pgft fullmesh twolevel railopt tree" -- "${cur}"))
                    return 0
                    ;;
                --job)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --msg-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -m)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ranks-per-node)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --prune)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --latency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bandwidth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --algorithms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --plot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__recognize)
            opts="-f -q -v -h -V --family --rail --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --family)
                    COMPREPLY=($(compgen -W "auto lsft kary mols pgft fullmesh twolevel railopt tree" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto lsft kary mols pgft fullmesh twolevel railopt tree" -- "${cur}"))
                    return 0
                    ;;
                --rail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__route)
            opts="-f -l -o -q -v -h -V --family --lmc --lids --out --no-validate --dump-style --no-sync --rail --objective --json --timings --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --family)
                    COMPREPLY=($(compgen -W "auto lsft kary mols pgft fullmesh twolevel railopt tree" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto lsft kary mols pgft fullmesh twolevel railopt tree" -- "${cur}"))
                    return 0
                    ;;
                --lmc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dump-style)
                    COMPREPLY=($(compgen -W "auto full compact" -- "${cur}"))
                    return 0
                    ;;
                --rail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --objective)
                    COMPREPLY=($(compgen -W "family spread" -- "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__schedule)
            opts="-f -p -j -o -q -v -h -V --family --pattern --job --block --per-leaf --job-size --seed --phases --out --format --json --timings --lfts --lids --root --lanes --sites --placement --segment --plot --rail --message-size --latency --bandwidth --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --family)
                    COMPREPLY=($(compgen -W "auto lsft kary mols pgft fullmesh twolevel railopt tree" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "auto lsft kary mols pgft fullmesh twolevel railopt tree" -- "${cur}"))
                    return 0
                    ;;
                --pattern)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --job)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --block)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --per-leaf)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --job-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --phases)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lfts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lanes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --placement)
                    COMPREPLY=($(compgen -W "auto nested rank-order sites" -- "${cur}"))
                    return 0
                    ;;
                --segment)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --plot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --message-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --latency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bandwidth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ibfat__subcmd__whoami)
            opts="-q -v -h -V --schedule --json --quiet --verbose --node-name-map --input-format --partial --compute-guids --io-guids --io-hosts --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --schedule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-name-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input-format)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compute-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-guids)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --io-hosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _ibfat -o nosort -o bashdefault -o default ibfat
else
    complete -F _ibfat -o bashdefault -o default ibfat
fi
