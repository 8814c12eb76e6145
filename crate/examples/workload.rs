//! Write the `classad::matchmaking::workload` pools (the ones `negotiation_timing` and
//! the negotiation benches use) as `condor_q -l` / `condor_status -l` files,
//! for the in-browser measurements (`tests/e2e/measure_matchmaking.mjs
//! --jobs … --machines …`).
//! `cargo run --release -p classad --example workload [N [DIR]]` writes
//! `DIR/wl_jobs_N.txt` and `DIR/wl_machines_N.txt` (default 10000, bench/data).

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let dir = args.next().unwrap_or_else(|| "bench/data".into());
    std::fs::create_dir_all(&dir)?;
    // The same seeds as examples/negotiation_timing.rs.
    std::fs::write(
        format!("{dir}/wl_jobs_{n}.txt"),
        classad::matchmaking::workload::jobs(n, 2),
    )?;
    std::fs::write(
        format!("{dir}/wl_machines_{n}.txt"),
        classad::matchmaking::workload::machines(n, 1),
    )?;
    println!("wrote {dir}/wl_jobs_{n}.txt and {dir}/wl_machines_{n}.txt");
    Ok(())
}
