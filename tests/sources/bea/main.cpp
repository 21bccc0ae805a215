#include <cstdlib>
#include <iostream>
#include <string>

#include "reversi.h"

using namespace std;

static string next_token() {
    string token;
    if (!(cin >> token)) {
        cerr << "error: the input ended before the game did" << endl;
        exit(1);
    }
    return token;
}

static int read_pits() {
    while (true) {
        cout << "Enter number of pits: " << flush;
        string token = next_token();
        size_t i = (token[0] == '+' || token[0] == '-') ? 1 : 0;
        bool number = i < token.size();
        for (size_t j = i; j < token.size(); j++)
            number = number && isdigit((unsigned char)token[j]);
        if (!number || (token[0] == '-' && token.find_first_not_of("0", 1) != string::npos)) {
            cout << "Invalid number!\n";
            continue;
        }
        string digits = token.substr(i);
        digits.erase(0, min(digits.find_first_not_of('0'), digits.size()));
        if (digits.size() > 6 || atoi(digits.c_str()) > N * N / 2) {
            cout << "Too many pits!\n";
            continue;
        }
        return atoi(digits.c_str());
    }
}

int main() {
    Reversi game;
    int pits = read_pits();
    for (int k = 1; k <= pits; k++) {
        while (true) {
            cout << "Enter position for pit " << k << ": " << flush;
            int row, col;
            if (parse_position(next_token(), row, col) && game.place_pit(row, col))
                break;
            cout << "Invalid position!\n";
        }
    }
    Cell player = BLACK;
    int passes = 0;
    for (int round = 1; !game.full() && passes < 2; round++) {
        cout << "Round " << round << ":\n";
        game.print_board();
        char name = char(player);
        if (!game.has_move(player)) {
            cout << "Player " << name << " has no valid moves! Pass!\n";
            passes++;
        } else {
            passes = 0;
            while (true) {
                cout << "Player " << name << "'s turn: " << flush;
                int row, col;
                if (parse_position(next_token(), row, col) && game.play(player, row, col))
                    break;
                cout << "Invalid move!\n";
            }
        }
        player = player == BLACK ? WHITE : BLACK;
    }
    cout << "Game over:\n";
    game.print_board();
    int black = game.count(BLACK), white = game.count(WHITE);
    if (black > white)
        cout << "Player X wins!\n";
    else if (white > black)
        cout << "Player O wins!\n";
    else
        cout << "Draw game!\n";
    return 0;
}
