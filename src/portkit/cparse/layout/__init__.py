"""Record layouts as clang computes them for an ABI: every field's offset and
size, holes, C++ bases, and why a record differs between two ABIs. `portkit
layout` reports them; `portkit scan` asks whether a record written as bytes
changes between its two data models."""
