"""`python -m palace.app.server NOTEBOOK_OR_FOLDER [VOILA OPTIONS]`: what `make app` runs."""

from palace.app.server.launcher import main

if __name__ == "__main__":
    main()
