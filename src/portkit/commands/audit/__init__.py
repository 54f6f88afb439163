"""`portkit audit MODE`: check what is about to be shipped to a board before
the board does: a kernel configuration (kconfig), and more modes beside it."""
