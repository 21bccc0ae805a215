// Othello with pits, 2022 edition: the board's side is fixed here.
#ifndef REVERSI_H
#define REVERSI_H

#include <string>

const int N = 8;

enum Cell { EMPTY = '.', BLACK = 'X', WHITE = 'O', PIT = '#' };

class Reversi {
public:
    Reversi();
    void print_board() const;
    bool place_pit(int row, int col);
    bool play(Cell player, int row, int col);
    bool has_move(Cell player) const;
    bool full() const;
    int count(Cell player) const;

private:
    Cell board[N][N];
    int flips(Cell player, int row, int col, int dr, int dc) const;
};

bool parse_position(const std::string& token, int& row, int& col);

#endif
