//! Benchmarks of `baffled` beside baselines from the same run: run them with
//! `cargo bench -p baffle-benches --bench NAME` (`docs/benchmarks.md` lists them, their
//! figures and how to reproduce them). The library is empty: the benches are in
//! `benches/`, with what they share in `benches/common/`.
