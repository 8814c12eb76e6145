[ Name = "mpijob"; MemoryReqs = 100M; Requirements = other.Type == "multi_processor" && other.NumCpus >= 2; Rank = other.Memory ]
