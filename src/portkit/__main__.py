from portkit.cli import main

raise SystemExit(main())
