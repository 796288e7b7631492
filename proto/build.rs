//! Compiles `baffle/v1/*.proto` with protox (pure Rust), so no `protoc` is needed.

use std::path::PathBuf;

const PROTOS: &[&str] = &[
    "baffle/v1/clock.proto",
    "baffle/v1/chess.proto",
    "baffle/v1/time_controls.proto",
    "baffle/v1/tournaments.proto",
    "baffle/v1/draws.proto",
    "baffle/v1/matches.proto",
    "baffle/v1/devices.proto",
    "baffle/v1/audit.proto",
    "baffle/v1/server.proto",
];

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
    // No generated `Client::connect` helpers: they would clash with the Devices.Connect
    // RPC, and clients dial with `Endpoint` and call `Client::new(channel)` anyway.
    // A smaller encoding buffer per stream than tonic's default (src/codec.rs).
    tonic_prost_build::configure()
        .build_transport(false)
        .codec_path("crate::codec::SmallBuffers")
        .compile_fds(fds)?;
    Ok(())
}
