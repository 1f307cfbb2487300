"""`python -m palace.scenarios [FILE ...]`: check scenario files (default: all of them)."""

from palace.scenarios.loader import main

if __name__ == "__main__":
    raise SystemExit(main())
