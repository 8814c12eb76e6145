[
  Name = "raman"; Owner = "raman"; Priority = 23.7;
  Ports = {
    [ Label = Host1; Executable = "a.out"; ImageSize = 25.7M; MemoryReqs = 17.2M;
      Constraint = Host1.Arch == "INTEL" && Host1.OpSys == "LINUX" && Host1.VirtualMemory > ImageSize;
      Rank = Host1.MIPS ],
    [ Label = Host2; Executable = "b.out"; ImageSize = 22.7M; MemoryReqs = 11.2M;
      Constraint = Host2.Arch == "INTEL" && Host2.OpSys == "LINUX" && Host2.VirtualMemory > ImageSize && Host1.Subnet == Host2.Subnet;
      Rank = Host2.KFlops ]
  }
]
