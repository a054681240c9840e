from polychess.cli import main

raise SystemExit(main())
