[ Name = "client"; Type = "render_client"; Owner = "raman"; sceneFile = "scene.in"; outputFile = "scene.out";
  Requirements = other.Type == "render_server"; Rank = 0 ]
