#include "reversi.h"

#include <iostream>

using namespace std;

Board::Board() {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            cells[i][j] = '.';
    cells[N / 2 - 1][N / 2 - 1] = cells[N / 2][N / 2] = 'X';
    cells[N / 2 - 1][N / 2] = cells[N / 2][N / 2 - 1] = 'O';
}

void Board::print() const {
    cout << "  ";
    for (int j = 0; j < N; j++)
        cout << ' ' << char('A' + j);
    cout << '\n';
    for (int i = 0; i < N; i++) {
        cout << (i < 9 ? " " : "") << i + 1 << ' ';
        for (int j = 0; j < N; j++)
            cout << cells[i][j] << ' ';
        cout << '\n';
    }
}

void Board::read_pits() {
    int pits;
    cout << "Enter number of pits: ";
    cin >> pits;
}

void Board::play() {
    cout << "Round 1:\n";
    print();
}
