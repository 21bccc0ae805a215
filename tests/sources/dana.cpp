// Othello with pits, 2020 edition, written with a table of directions.
// Its bug: only a full board ends the game, so two passes in a row go round for ever.
#include <iostream>
#include <string>
using namespace std;

const int N = 8;
string rows[N];
const int DI[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
const int DJ[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

string word() {
    string w;
    if (!(cin >> w)) {
        cerr << "error: no more input" << endl;
        exit(1);
    }
    return w;
}

bool address(const string& w, int& i, int& j) {
    if (w.size() < 2 || w.size() > 3 || !isalpha(w[0]) || !isdigit(w[1]) || w[1] == '0') return false;
    if (w.size() == 3 && !isdigit(w[2])) return false;
    i = atoi(w.c_str() + 1) - 1;
    j = toupper(w[0]) - 'A';
    return i < N && j < N;
}

int flip(char c, int i, int j, bool apply) {
    if (rows[i][j] != '.') return 0;
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int n = 0, a = i + DI[d], b = j + DJ[d];
        while (a >= 0 && a < N && b >= 0 && b < N && rows[a][b] == (c == 'X' ? 'O' : 'X')) {
            a += DI[d];
            b += DJ[d];
            n++;
        }
        if (n == 0 || a < 0 || a >= N || b < 0 || b >= N || rows[a][b] != c) continue;
        total += n;
        for (int k = 0; apply && k <= n; k++) rows[i + k * DI[d]][j + k * DJ[d]] = c;
    }
    return total;
}

bool empty_left() {
    for (int i = 0; i < N; i++)
        if (rows[i].find('.') != string::npos) return true;
    return false;
}

void show() {
    cout << "  ";
    for (int j = 0; j < N; j++) cout << ' ' << char('A' + j);
    cout << '\n';
    for (int i = 0; i < N; i++) {
        cout << (i < 9 ? " " : "") << i + 1 << ' ';
        for (char c : rows[i]) cout << c << ' ';
        cout << '\n';
    }
}

int main() {
    for (int i = 0; i < N; i++) rows[i] = string(N, '.');
    rows[N / 2 - 1][N / 2 - 1] = rows[N / 2][N / 2] = 'X';
    rows[N / 2 - 1][N / 2] = rows[N / 2][N / 2 - 1] = 'O';
    long pits = -1;
    while (pits < 0) {
        cout << "Enter number of pits: " << flush;
        string w = word();
        if (w.find_first_not_of("0123456789") != string::npos) {
            cout << "Invalid number!\n";
        } else if (w.size() > 4 || stol(w) > N * N / 2) {
            cout << "Too many pits!\n";
        } else {
            pits = stol(w);
        }
    }
    for (int k = 1; k <= pits;) {
        cout << "Enter position for pit " << k << ": " << flush;
        int i, j;
        bool ok = address(word(), i, j);
        bool centre = ok && (i == N / 2 - 1 || i == N / 2) && (j == N / 2 - 1 || j == N / 2);
        if (ok && !centre && rows[i][j] == '.') {
            rows[i][j] = '#';
            k++;
        } else {
            cout << "Invalid position!\n";
        }
    }
    char c = 'X';
    for (int round = 1; empty_left(); round++, c = c == 'X' ? 'O' : 'X') {
        cout << "Round " << round << ":\n";
        show();
        bool can = false;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (flip(c, i, j, false) > 0) can = true;
        if (!can) {
            cout << "Player " << c << " has no valid moves! Pass!\n";
            continue;
        }
        while (true) {
            cout << "Player " << c << "'s turn: " << flush;
            int i, j;
            if (address(word(), i, j) && flip(c, i, j, true) > 0) break;
            cout << "Invalid move!\n";
        }
    }
    cout << "Game over:\n";
    show();
    int x = 0, o = 0;
    for (auto& r : rows)
        for (char cell : r) x += cell == 'X', o += cell == 'O';
    cout << (x > o ? "Player X wins!\n" : o > x ? "Player O wins!\n" : "Draw game!\n");
}
