// only_with_minus_i.h - found only through a -I folder (test_ptxgen's compile options test).
#define ONLY_WITH_MINUS_I 1
