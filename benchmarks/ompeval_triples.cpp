// OMPEval's exact enumeration of specific three-way preflop deals, one thread, timed per deal.
//
// The user builds it against OMPEval's library (https://github.com/zekyll/OMPEval) and passes the executable to
// benchmarks/bench_threeway.py (--ompeval-driver PATH); pokerpipe ships no copy of OMPEval.
//
// stdin: one deal per line, three hands such as "AsAh AdAc KsKh" (no board, no dead cards).
// stdout: one line per deal, in order:
//     seconds hands m1 m2 m3 m4 m5 m6 m7 eq1 eq2 eq3
// where seconds is the wall time of start(...) + wait() (threads=1, enumerate=true), hands the
// boards counted, m<k> Results::winsByPlayerMask[k] (boards won by exactly the players in bit
// mask k, bit 0 = first hand) and eq<i> each hand's equity.  A fresh EquityCalculator per deal,
// so no deal is answered from the lookup table an earlier one filled.
#include "omp/EquityCalculator.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main()
{
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::vector<omp::CardRange> ranges;
        std::string hand;
        while (in >> hand)
            ranges.emplace_back(hand);
        if (ranges.empty())
            continue;
        omp::EquityCalculator calc;
        auto t0 = std::chrono::steady_clock::now();
        if (!calc.start(ranges, 0, 0, true, 0, nullptr, 1e9, 1)) {
            std::fprintf(stderr, "cannot start: %s\n", line.c_str());
            return 1;
        }
        calc.wait();
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        omp::EquityCalculator::Results r = calc.getResults();
        std::printf("%.9f %llu", seconds, (unsigned long long)r.hands);
        for (unsigned mask = 1; mask < (1u << ranges.size()); ++mask)
            std::printf(" %llu", (unsigned long long)r.winsByPlayerMask[mask]);
        for (unsigned i = 0; i < ranges.size(); ++i)
            std::printf(" %.17g", r.equity[i]);
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
