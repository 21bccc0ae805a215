// Othello with pits, 2020 edition: one file, the board's side fixed below.
// Its bug: the walk along a line of the other colour looks at the cell before it checks that
// the cell is on the board, so a line that reaches the edge reads past it.
#include <iostream>
#include <string>
using namespace std;

const int N = 8;
char board[N][N];

void print_board() {
    cout << "  ";
    for (int j = 0; j < N; j++) cout << " " << (char)('A' + j);
    cout << endl;
    for (int i = 0; i < N; i++) {
        if (i < 9) cout << " ";
        cout << i + 1 << " ";
        for (int j = 0; j < N; j++) cout << board[i][j] << " ";
        cout << endl;
    }
}

bool inside(int i, int j) { return i >= 0 && i < N && j >= 0 && j < N; }

int line(char me, int i, int j, int di, int dj) {
    char you = me == 'X' ? 'O' : 'X';
    int k = 1;
    while (board[i + k * di][j + k * dj] == you && inside(i + k * di, j + k * dj)) k++;
    if (k > 1 && inside(i + k * di, j + k * dj) && board[i + k * di][j + k * dj] == me) return k - 1;
    return 0;
}

bool move(char me, int i, int j, bool really) {
    if (!inside(i, j) || board[i][j] != '.') return false;
    bool any = false;
    for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++) {
            if (di == 0 && dj == 0) continue;
            int n = line(me, i, j, di, dj);
            if (n > 0) any = true;
            for (int k = 1; really && k <= n; k++) board[i + k * di][j + k * dj] = me;
        }
    if (any && really) board[i][j] = me;
    return any;
}

bool read(string& s) {
    if (cin >> s) return true;
    cerr << "error: end of input" << endl;
    exit(1);
}

bool cell(string s, int& i, int& j) {
    if (s.size() < 2 || !isalpha(s[0]) || s[1] == '0') return false;
    for (int k = 1; k < (int)s.size(); k++)
        if (!isdigit(s[k])) return false;
    if (s.size() > 3) return false;
    j = toupper(s[0]) - 'A';
    i = stoi(s.substr(1)) - 1;
    return true;
}

int main() {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) board[i][j] = '.';
    board[N / 2 - 1][N / 2 - 1] = board[N / 2][N / 2] = 'X';
    board[N / 2 - 1][N / 2] = board[N / 2][N / 2 - 1] = 'O';
    int pits;
    string s;
    while (true) {
        cout << "Enter number of pits: ";
        read(s);
        bool ok = !s.empty();
        for (int k = (s[0] == '+' || s[0] == '-') ? 1 : 0; k < (int)s.size(); k++)
            if (!isdigit(s[k])) ok = false;
        if (!ok || s == "+" || s == "-" || (s[0] == '-' && s.find_first_not_of("-0") != string::npos)) {
            cout << "Invalid number!" << endl;
            continue;
        }
        if (s.find_first_not_of("+-0") != string::npos && s.size() - s.find_first_not_of("+-0") > 5) {
            cout << "Too many pits!" << endl;
            continue;
        }
        pits = stoi(s);
        if (pits > N * N / 2) {
            cout << "Too many pits!" << endl;
            continue;
        }
        break;
    }
    for (int p = 1; p <= pits; p++) {
        cout << "Enter position for pit " << p << ": ";
        read(s);
        int i, j;
        bool centre = false;
        if (cell(s, i, j)) centre = (i == N / 2 - 1 || i == N / 2) && (j == N / 2 - 1 || j == N / 2);
        if (!cell(s, i, j) || !inside(i, j) || centre || board[i][j] == '#') {
            cout << "Invalid position!" << endl;
            p--;
            continue;
        }
        board[i][j] = '#';
    }
    char me = 'X';
    int round = 1;
    while (true) {
        bool empty = false;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (board[i][j] == '.') empty = true;
        bool moves = false;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (move('X', i, j, false) || move('O', i, j, false)) moves = true;
        if (!empty || !moves) break;
        cout << "Round " << round << ":" << endl;
        print_board();
        while (true) {
            cout << "Player " << me << "'s turn: ";
            read(s);
            int i, j;
            if (cell(s, i, j) && move(me, i, j, true)) break;
            cout << "Invalid move!" << endl;
        }
        me = me == 'X' ? 'O' : 'X';
        round++;
    }
    cout << "Game over:" << endl;
    print_board();
    int x = 0, o = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (board[i][j] == 'X') x++;
            if (board[i][j] == 'O') o++;
        }
    if (x > o) cout << "Player X wins!" << endl;
    else if (o > x) cout << "Player O wins!" << endl;
    else cout << "Draw game!" << endl;
    return 0;
}
