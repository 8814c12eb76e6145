[ Name = "m1"; Arch = "INTEL"; OpSys = "LINUX"; VirtualMemory = 64M; MIPS = 300; KFlops = 10; Subnet = "10.0.1"; Requirements = true ]
[ Name = "m2"; Arch = "INTEL"; OpSys = "LINUX"; VirtualMemory = 64M; MIPS = 200; KFlops = 20; Subnet = "10.0.2"; Requirements = true ]
[ Name = "m3"; Arch = "INTEL"; OpSys = "LINUX"; VirtualMemory = 64M; MIPS = 100; KFlops = 30; Subnet = "10.0.2"; Requirements = true ]
[ Name = "m4"; Arch = "SUN4u"; OpSys = "SOLARIS26"; VirtualMemory = 640M; MIPS = 900; KFlops = 90; Subnet = "10.0.1"; Requirements = true ]
