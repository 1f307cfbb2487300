"""`python -m palace.scenarios [FILE ...]`: check scenario files (default: all of them)."""

from palace.scenarios import main

raise SystemExit(main())
