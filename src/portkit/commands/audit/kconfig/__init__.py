"""`portkit audit kconfig`: a kernel config against rule tables kept as data
(rules/), read by reader.py, evaluated by engine.py, reported through the
findings model with a kernel-hardening-checker style table (render.py)."""
