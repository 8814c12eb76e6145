//! The gangmatching algorithms the view offers: their names and what each
//! does, in the order of the select.

use classad::api::session::GangAlgorithm;

pub const ALGORITHMS: [(GangAlgorithm, &str, &str); 8] = [
    (GangAlgorithm::Naive, "naive", "ranked naive search: every free offer's ports tried at each port, best Rank first, backtracking (§5.3)"),
    (GangAlgorithm::Lr, "LR", "indexed, ports left to right: a probe gives each port's candidates, evaluation confirms them (§5.4)"),
    (GangAlgorithm::Rl, "RL", "indexed, ports right to left (§5.6.1)"),
    (GangAlgorithm::Lrc, "LRC", "LR, after an initial probe on every port: stops at once if one has no candidate (§5.6.2)"),
    (GangAlgorithm::Rlc, "RLC", "RL with the same initial checks (§5.6.2)"),
    (GangAlgorithm::Dyn, "DYN", "dynamic order: initial probes, then the port with the fewest candidates first; constraints shunted across ports (§5.5)"),
    (GangAlgorithm::Dyns, "DYNS", "DYN over buckets of identical rectangles: one candidate per bucket (§5.8.1)"),
    (GangAlgorithm::Dynsr, "DYNSR", "DYNS walking each probe's result from a random start (§5.8.3)"),
];

pub fn algorithm_name(a: GangAlgorithm) -> &'static str {
    ALGORITHMS.iter().find(|x| x.0 == a).map_or("?", |x| x.1)
}
