// Othello with pits, 2022 edition, written against a compiler that accepts `void main()`:
// g++ refuses it ("'::main' must return 'int'"), so this submission does not build.
#include <iostream>

#include "reversi.h"

using namespace std;

void main() {
    Board board;
    board.read_pits();
    board.play();
}
