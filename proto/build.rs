//! Compiles `baffle/v1/*.proto` with protox (pure Rust), so no `protoc` is needed.

use std::path::PathBuf;

const PROTOS: &[&str] = &["baffle/v1/clock.proto", "baffle/v1/time_controls.proto"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for p in PROTOS {
        println!("cargo:rerun-if-changed={p}");
    }
    let fds = protox::compile(PROTOS, ["."])?;
    // The descriptor set serves gRPC reflection; protox already has it in hand.
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out.join("baffle_v1_descriptor.bin"),
        prost::Message::encode_to_vec(&fds),
    )?;
    tonic_prost_build::configure().compile_fds(fds)?;
    Ok(())
}
