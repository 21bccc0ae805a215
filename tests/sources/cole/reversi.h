// The board's side and the game, 2022 edition.
#ifndef REVERSI_H
#define REVERSI_H

const int N = 8;

struct Board {
    char cells[N][N];
    Board();
    void print() const;
    void read_pits();
    void play();
};

#endif
