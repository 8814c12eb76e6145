[ Name = "c1"; Arch = "INTEL"; OpSys = "LINUX"; VirtualMemory = 16M; Memory = 64; Requirements = true ]
[ Name = "c2"; Arch = "INTEL"; OpSys = "LINUX"; VirtualMemory = 64M; Memory = 128; Requirements = true ]
[ Name = "lic1"; App = "do_render"; Requirements = other.HostName == "c1" ]
[ Name = "renderd";
  Ports = {
    [ Label = request; Type = "render_server";
      Constraint = request.Type == "render_client" && request.Owner != "rival"; Rank = 0 ],
    [ Label = cpu; ImageSize = 27.2M; MemoryReqs = 15M; Executable = "do_render";
      StdIn = request.sceneFile; StdOut = request.outputFile;
      Constraint = cpu.Arch == "INTEL" && cpu.OpSys == "LINUX" && cpu.VirtualMemory > ImageSize;
      Rank = cpu.Memory ],
    [ Label = license; HostName = cpu.Name; Constraint = license.App == "do_render"; Rank = 0 ]
  } ]
