"""`portkit report`: one answer to "is this port ready?" from the results of
every other command, for people (HTML, Markdown, text) and for CI (JSON,
JUnit XML, the exit status)."""
