"""`portkit layout`: struct and union layouts across data models, exact to the byte."""
