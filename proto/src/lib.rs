//! # baffle-proto: the gRPC API
//!
//! The generated types and services of package `baffle.v1` (from `proto/baffle/v1`,
//! compiled with protox, so no `protoc` is needed), the encoded file descriptor set for
//! server reflection, and conversions between the wire types and `baffle-core`.

/// Package `baffle.v1`, generated.
pub mod v1 {
    #![allow(missing_docs, clippy::all)]
    tonic::include_proto!("baffle.v1");
}

pub mod backgammon_text;
pub mod chess_text;
pub mod codec;
pub mod convert;
pub mod faces;

/// The encoded `FileDescriptorSet` of `baffle.v1`, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("baffle_v1_descriptor");
