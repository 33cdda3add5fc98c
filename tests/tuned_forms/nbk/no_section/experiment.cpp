// fixture: a statement
