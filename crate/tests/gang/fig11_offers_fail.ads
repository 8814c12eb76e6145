[ Name = "n1"; Type = "ComputeNode"; IsDedicated = true; Host = "hostA"; Arch = "INTEL"; OpSys = "LINUX"; NumCpus = 1; Memory = 64M; Disk = 1000; VirtualMemory = 128M; Requirements = other.Type == "cpu_request" ]
[ Name = "n2"; Type = "ComputeNode"; IsDedicated = true; Host = "hostB"; Arch = "INTEL"; OpSys = "LINUX"; NumCpus = 1; Memory = 64M; Disk = 1000; VirtualMemory = 128M; Requirements = other.Type == "cpu_request" ]
[ Name = "mp";
  Ports = {
    [ Label = cpu1; Type = "cpu_request"; Constraint = cpu1.Type == "ComputeNode" && cpu1.IsDedicated; Rank = 0 ],
    [ Label = cpu2; Type = "cpu_request"; Constraint = cpu2.Type == "ComputeNode" && cpu2.IsDedicated && cpu1.Host == cpu2.Host; Rank = 0 ],
    [ Label = request; Type = "multi_processor"; HostName = cpu1.Name; Arch = cpu1.Arch; OpSys = cpu1.OpSys;
      NumCpus = cpu1.NumCpus + cpu2.NumCpus; Memory = cpu1.Memory + cpu2.Memory; Disk = cpu1.Disk + cpu2.Disk;
      VirtualMemory = cpu1.VirtualMemory + cpu2.VirtualMemory;
      Constraint = request.MemoryReqs < Memory - 15M; Rank = 0 ]
  } ]
