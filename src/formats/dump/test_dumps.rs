//! Dumps shared by the tests of the stages.

pub(super) const FT2: &str = "#\n# Topology file: generated on Sun Nov 22 04:08:17 2026\n#\n\
# Initiated from node 0002c90000000100 port 0002c90000000101\n\n\
vendid=0x0\ndevid=0x0\nsysimgguid=0x2c90000001003\nswitchguid=0x2c90000001003(2c90000001003)\n\
Switch\t4 \"S-0002c90000001003\"\t\t# \"leaf L4\" base port 0 lid 12 lmc 0\n\
[1]\t\"H-0002c9000000010c\"[1](2c9000000010d) \t\t# \"H7 HCA-1\" lid 7 4xSDR\n\
[3]\t\"S-0002c90000002000\"[4]\t\t# \"spine S1\" lid 13 4xQDR\n\n\
switchguid=0x2c90000002000(2c90000002000)\n\
Switch\t4 \"S-0002c90000002000\"\t\t# \"spine S1\" base port 0 lid 13 lmc 0\n\
[4]\t\"S-0002c90000001003\"[3]\t\t# \"leaf L4\" lid 12 4xQDR\n\n\
vendid=0x2c9\ndevid=0x5a44\ncaguid=0x2c9000000010c\n\
Ca\t1 \"H-0002c9000000010c\"\t\t# \"H7 HCA-1\"\n\
[1](2c9000000010d) \t\"S-0002c90000001003\"[1]\t\t# lid 7 lmc 1 \"leaf L4\" lid 12 4xSDR\n";
