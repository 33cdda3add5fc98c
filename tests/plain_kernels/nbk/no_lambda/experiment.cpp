int rows() { return plain_twice(exec, x, y); }
