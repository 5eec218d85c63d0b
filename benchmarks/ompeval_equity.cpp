// OMPEval's equity calculator and hand evaluator, one thread, timed: the peer of benchmarks/bench_vs_ompeval.py.
//
// The user builds it against OMPEval's library (https://github.com/zekyll/OMPEval) and passes the executable to
// that script (--ompeval-driver PATH); pokerpipe ships no copy of OMPEval.
//
// stdin, one question per line:
//     e - BOARD DEAD RANGE RANGE ...    exact enumeration (start(..., enumerateAll=true, ..., threadCount=1))
//     m HANDS BOARD DEAD RANGE ...      Monte Carlo, stopped by setHandLimit(HANDS) (stdevTarget 0)
//     v FILE N                          the evaluator on the N seven-card hands in FILE (N*7 bytes of card ids,
//                                       pokerpipe's ids 4*rank + suit with suits c d h s)
//     t FILE N                          the same, timings only (no values printed)
// BOARD and DEAD are card text such as Qh7h2c, or "-" for none; ranges are OMPEval's syntax (AK,AQ 22+ random).
// stdout, one line per question:
//     e/m: seconds hands m1 .. m(2^P-1) eq1 .. eqP cpu_seconds   (winsByPlayerMask[k]: boards won by exactly the
//          players in bit mask k, bit 0 = first range; seconds: the wall time of start() + wait(); cpu_seconds:
//          the process's CPU time over the same span (CLOCK_PROCESS_CPUTIME_ID: the calculator's own thread))
//     v:   seconds_card_arrays seconds_prebuilt_hands checksum cpu_seconds_card_arrays cpu_seconds_prebuilt_hands,
//          then N lines of OMPEval's value of each hand (so the caller can check that both evaluators order the
//          hands the same way); t: the first line only.  cpu_seconds: the thread's CPU time (CLOCK_THREAD_CPUTIME_ID),
//          which a loaded machine's other processes do not add to
// A fresh EquityCalculator per question, so no answer comes from a lookup table an earlier one filled.
#include "omp/EquityCalculator.h"
#include "omp/HandEvaluator.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double cpu_now(clockid_t clock = CLOCK_THREAD_CPUTIME_ID)     // this thread's (or process's) CPU time
{
    timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

// pokerpipe's suit order is c d h s; OMPEval's card index is 4 * rank + suit with suits s h c d.
static unsigned to_omp(unsigned card)
{
    static const unsigned suit[4] = {2, 3, 1, 0};
    return 4 * (card >> 2) + suit[card & 3];
}

static int evaluator(const std::string& file, size_t n, bool print_values)
{
    std::vector<unsigned char> cards(7 * n);
    std::ifstream in(file, std::ios::binary);
    in.read(reinterpret_cast<char*>(cards.data()), cards.size());
    if (!in) {
        std::fprintf(stderr, "cannot read %zu hands from %s\n", n, file.c_str());
        return 1;
    }
    for (auto& c : cards)
        c = (unsigned char)to_omp(c);
    omp::HandEvaluator eval;
    std::vector<uint16_t> values(n);
    double t0 = now(), c0 = cpu_now();
    for (size_t i = 0; i < n; ++i) {          // card arrays: each hand built from its seven ids, then evaluated
        const unsigned char* c = &cards[7 * i];
        omp::Hand h = omp::Hand::empty() + omp::Hand(c[0]) + omp::Hand(c[1]) + omp::Hand(c[2]) + omp::Hand(c[3])
                      + omp::Hand(c[4]) + omp::Hand(c[5]) + omp::Hand(c[6]);
        values[i] = eval.evaluate(h);
    }
    double arrays = now() - t0, cpu_arrays = cpu_now() - c0;
    std::vector<omp::Hand> hands(n);
    for (size_t i = 0; i < n; ++i) {
        const unsigned char* c = &cards[7 * i];
        hands[i] = omp::Hand::empty() + omp::Hand(c[0]) + omp::Hand(c[1]) + omp::Hand(c[2]) + omp::Hand(c[3])
                   + omp::Hand(c[4]) + omp::Hand(c[5]) + omp::Hand(c[6]);
    }
    unsigned sum = 0;
    t0 = now();
    c0 = cpu_now();
    for (size_t i = 0; i < n; ++i)            // prebuilt Hand objects: the lookup alone
        sum += eval.evaluate(hands[i]);
    double prebuilt = now() - t0, cpu_prebuilt = cpu_now() - c0;
    std::printf("%.9f %.9f %u %.9f %.9f\n", arrays, prebuilt, sum, cpu_arrays, cpu_prebuilt);
    for (size_t i = 0; print_values && i < n; ++i)
        std::printf("%u\n", (unsigned)values[i]);
    return 0;
}

int main()
{
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string mode, limit, board, dead, text;
        if (!(in >> mode))
            continue;
        if (mode == "v" || mode == "t") {
            size_t n;
            in >> text >> n;
            if (evaluator(text, n, mode == "v"))
                return 1;
            std::fflush(stdout);
            continue;
        }
        in >> limit >> board >> dead;
        std::vector<omp::CardRange> ranges;
        while (in >> text)
            ranges.emplace_back(text);
        uint64_t board_mask = board == "-" ? 0 : omp::CardRange::getCardMask(board);
        uint64_t dead_mask = dead == "-" ? 0 : omp::CardRange::getCardMask(dead);
        omp::EquityCalculator calc;
        bool exact = mode == "e";
        if (!exact)
            calc.setHandLimit(std::stoull(limit));
        double t0 = now(), c0 = cpu_now(CLOCK_PROCESS_CPUTIME_ID);
        if (!calc.start(ranges, board_mask, dead_mask, exact, 0, nullptr, 1e9, 1)) {
            std::fprintf(stderr, "cannot start: %s\n", line.c_str());
            return 1;
        }
        calc.wait();
        double seconds = now() - t0, cpu_seconds = cpu_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        omp::EquityCalculator::Results r = calc.getResults();
        std::printf("%.9f %llu", seconds, (unsigned long long)r.hands);
        for (unsigned mask = 1; mask < (1u << ranges.size()); ++mask)
            std::printf(" %llu", (unsigned long long)r.winsByPlayerMask[mask]);
        for (unsigned i = 0; i < ranges.size(); ++i)
            std::printf(" %.17g", r.equity[i]);
        std::printf(" %.9f\n", cpu_seconds);
        std::fflush(stdout);
    }
    return 0;
}
