#include "reversi.h"

#include <iostream>

using namespace std;

Reversi::Reversi() {
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            board[r][c] = EMPTY;
    board[N / 2 - 1][N / 2 - 1] = BLACK;
    board[N / 2 - 1][N / 2] = WHITE;
    board[N / 2][N / 2 - 1] = WHITE;
    board[N / 2][N / 2] = BLACK;
}

void Reversi::print_board() const {
    cout << "  ";
    for (int c = 0; c < N; c++)
        cout << ' ' << char('A' + c);
    cout << '\n';
    for (int r = 0; r < N; r++) {
        if (r + 1 < 10)
            cout << ' ';
        cout << r + 1 << ' ';
        for (int c = 0; c < N; c++)
            cout << char(board[r][c]) << ' ';
        cout << '\n';
    }
}

bool Reversi::place_pit(int row, int col) {
    bool centre = (row == N / 2 - 1 || row == N / 2) && (col == N / 2 - 1 || col == N / 2);
    if (row < 0 || row >= N || col < 0 || col >= N || centre || board[row][col] == PIT)
        return false;
    board[row][col] = PIT;
    return true;
}

int Reversi::flips(Cell player, int row, int col, int dr, int dc) const {
    Cell other = player == BLACK ? WHITE : BLACK;
    int n = 0;
    int r = row + dr, c = col + dc;
    while (r >= 0 && r < N && c >= 0 && c < N && board[r][c] == other) {
        n++;
        r += dr;
        c += dc;
    }
    if (r >= 0 && r < N && c >= 0 && c < N && board[r][c] == player)
        return n;
    return 0;
}

bool Reversi::play(Cell player, int row, int col) {
    if (row < 0 || row >= N || col < 0 || col >= N || board[row][col] != EMPTY)
        return false;
    int total = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++)
            if (dr != 0 || dc != 0)
                total += flips(player, row, col, dr, dc);
    if (total == 0)
        return false;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++) {
            if (dr == 0 && dc == 0)
                continue;
            int n = flips(player, row, col, dr, dc);
            for (int i = 1; i <= n; i++)
                board[row + i * dr][col + i * dc] = player;
        }
    board[row][col] = player;
    return true;
}

bool Reversi::has_move(Cell player) const {
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            if (board[r][c] != EMPTY)
                continue;
            for (int dr = -1; dr <= 1; dr++)
                for (int dc = -1; dc <= 1; dc++)
                    if ((dr != 0 || dc != 0) && flips(player, r, c, dr, dc) > 0)
                        return true;
        }
    return false;
}

bool Reversi::full() const {
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            if (board[r][c] == EMPTY)
                return false;
    return true;
}

int Reversi::count(Cell player) const {
    int n = 0;
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            if (board[r][c] == player)
                n++;
    return n;
}

bool parse_position(const string& token, int& row, int& col) {
    if (token.size() < 2 || token.size() > 3 || !isalpha((unsigned char)token[0]) || token[1] == '0')
        return false;
    row = 0;
    for (size_t i = 1; i < token.size(); i++) {
        if (!isdigit((unsigned char)token[i]))
            return false;
        row = row * 10 + (token[i] - '0');
    }
    row -= 1;
    col = toupper((unsigned char)token[0]) - 'A';
    return true;
}
