"""C and C++ through libclang, for every command that reads source (layout,
scan): loading libclang, parsing for a target ABI with its own headers,
compilation databases, and parsing in worker processes that a crash cannot end."""
