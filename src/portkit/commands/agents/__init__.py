"""`portkit agents`: the agents this portkit runs on its targets."""
