//! gRPC server reflection: what `grpcurl list`, Postman and Python's grpcio-reflection
//! ask to learn the API without its .proto files.
//!
//! tonic-reflection's service answers a file request with that file alone, and only in
//! `grpc.reflection.v1`. Clients that build descriptors from one answer (as the
//! reference servers give it: the file and every file it imports, transitively) then
//! lack the imported types, and older tools speak only `v1alpha` (issues 18 and 19).
//! This service answers both versions from one index — the two are the same messages
//! under two package names, so a `v1alpha` request is answered as its `v1` twin — and
//! sends every file with its imports, the asked-for file first. An unknown name is an
//! in-stream error response (NOT_FOUND), as the protocol specifies, and the stream goes
//! on.
//!
//! The generated message types and service traits are tonic-reflection's; only the
//! index and the answers are ours.

use std::collections::{BTreeMap, BTreeSet};
use std::pin::Pin;
use std::sync::Arc;

use prost::Message;
use prost_types::{DescriptorProto, EnumDescriptorProto, FileDescriptorProto};
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status, Streaming};
use tonic_reflection::pb::{v1, v1alpha};

use crate::error::Error;

/// A `FileDescriptorSet` read only as far as its files' bytes, which are served as they
/// were compiled (decoding and encoding again would drop what prost does not model).
#[derive(Clone, PartialEq, Message)]
struct RawFiles {
    #[prost(bytes = "vec", repeated, tag = "1")]
    file: Vec<Vec<u8>>,
}

/// Every file by name, its imports, the file declaring each symbol, and the services.
#[derive(Debug, Default)]
pub struct Index {
    files: BTreeMap<String, (Vec<u8>, Vec<String>)>,
    symbols: BTreeMap<String, String>,
    services: BTreeSet<String>,
}

impl Index {
    /// Indexes encoded `FileDescriptorSet`s; the services of `served` packages are listed.
    pub fn new(sets: &[&[u8]]) -> Result<Index, prost::DecodeError> {
        let mut index = Index::default();
        for set in sets {
            for raw in RawFiles::decode(*set)?.file {
                let file = FileDescriptorProto::decode(raw.as_slice())?;
                index.add(file, raw);
            }
        }
        Ok(index)
    }

    fn add(&mut self, file: FileDescriptorProto, raw: Vec<u8>) {
        let name = file.name().to_string();
        let package = file.package();
        let mut symbols = Vec::new();
        for message in &file.message_type {
            message_symbols(package, message, &mut symbols);
        }
        for e in &file.enum_type {
            enum_symbols(package, e, &mut symbols);
        }
        for service in &file.service {
            let service_name = qualified(package, service.name());
            for method in &service.method {
                symbols.push(qualified(&service_name, method.name()));
            }
            self.services.insert(service_name.clone());
            symbols.push(service_name);
        }
        for s in symbols {
            self.symbols.insert(s, name.clone());
        }
        self.files.insert(name, (raw, file.dependency));
    }

    /// `name` and every file it imports, transitively, `name` first.
    fn with_imports(&self, name: &str) -> Result<Vec<Vec<u8>>, Error> {
        let mut order = vec![name.to_string()];
        let mut seen: BTreeSet<String> = order.iter().cloned().collect();
        let mut i = 0;
        while let Some(next) = order.get(i).cloned() {
            let (_, imports) = self
                .files
                .get(&next)
                .ok_or_else(|| Error::NotFound(format!("no file {next:?}")))?;
            for import in imports {
                if seen.insert(import.clone()) {
                    order.push(import.clone());
                }
            }
            i += 1;
        }
        Ok(order
            .iter()
            .filter_map(|n| self.files.get(n).map(|(raw, _)| raw.clone()))
            .collect())
    }

    /// The answer to one request.
    fn answer(&self, request: v1::ServerReflectionRequest) -> v1::ServerReflectionResponse {
        use v1::server_reflection_request::MessageRequest as Ask;
        use v1::server_reflection_response::MessageResponse as Answer;
        let files = |found: Result<Vec<Vec<u8>>, Error>| {
            found.map(|file_descriptor_proto| {
                Answer::FileDescriptorResponse(v1::FileDescriptorResponse {
                    file_descriptor_proto,
                })
            })
        };
        let answer = match request.message_request.clone() {
            None => Err(Error::Invalid("an empty reflection request".into())),
            Some(Ask::FileByFilename(name)) => files(self.with_imports(&name)),
            Some(Ask::FileContainingSymbol(symbol)) => files(
                self.symbols
                    .get(symbol.trim_start_matches('.'))
                    .ok_or_else(|| Error::NotFound(format!("no symbol {symbol:?}")))
                    .and_then(|file| self.with_imports(file)),
            ),
            Some(Ask::FileContainingExtension(_)) => {
                Err(Error::NotFound("this API declares no extensions".into()))
            }
            // No extensions: an empty list rather than an error (grpcurl asks).
            Some(Ask::AllExtensionNumbersOfType(base_type_name)) => Ok(
                Answer::AllExtensionNumbersResponse(v1::ExtensionNumberResponse {
                    base_type_name,
                    extension_number: vec![],
                }),
            ),
            Some(Ask::ListServices(_)) => {
                Ok(Answer::ListServicesResponse(v1::ListServiceResponse {
                    service: self
                        .services
                        .iter()
                        .map(|name| v1::ServiceResponse { name: name.clone() })
                        .collect(),
                }))
            }
        };
        let message_response = answer.unwrap_or_else(|e| {
            let status = crate::wire::status(e);
            Answer::ErrorResponse(v1::ErrorResponse {
                error_code: status.code() as i32,
                error_message: status.message().to_string(),
            })
        });
        v1::ServerReflectionResponse {
            valid_host: request.host.clone(),
            original_request: Some(request),
            message_response: Some(message_response),
        }
    }
}

fn qualified(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}.{name}")
    }
}

fn message_symbols(scope: &str, message: &DescriptorProto, out: &mut Vec<String>) {
    let name = qualified(scope, message.name());
    for field in &message.field {
        out.push(qualified(&name, field.name()));
    }
    for nested in &message.nested_type {
        message_symbols(&name, nested, out);
    }
    for e in &message.enum_type {
        enum_symbols(&name, e, out);
    }
    out.push(name);
}

/// An enum and its values; the values are scoped beside the enum, as in C++ (protobuf's
/// rule): `baffle.v1.SIDE_A`, not `baffle.v1.Side.SIDE_A`.
fn enum_symbols(scope: &str, e: &EnumDescriptorProto, out: &mut Vec<String>) {
    out.push(qualified(scope, e.name()));
    for value in &e.value {
        out.push(qualified(scope, value.name()));
    }
}

/// Serves `grpc.reflection.v1` and `grpc.reflection.v1alpha` from one [`Index`].
#[derive(Clone, Debug)]
pub struct Reflection {
    index: Arc<Index>,
}

impl Reflection {
    /// Reflection over `index`.
    pub fn new(index: Index) -> Reflection {
        Reflection {
            index: Arc::new(index),
        }
    }

    /// The `v1` service.
    pub fn v1(&self) -> v1::server_reflection_server::ServerReflectionServer<Reflection> {
        v1::server_reflection_server::ServerReflectionServer::new(self.clone())
    }

    /// The `v1alpha` service.
    pub fn v1alpha(&self) -> v1alpha::server_reflection_server::ServerReflectionServer<Reflection> {
        v1alpha::server_reflection_server::ServerReflectionServer::new(self.clone())
    }
}

/// A stream of answers.
type Answers<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

#[tonic::async_trait]
impl v1::server_reflection_server::ServerReflection for Reflection {
    type ServerReflectionInfoStream = Answers<v1::ServerReflectionResponse>;

    async fn server_reflection_info(
        &self,
        request: Request<Streaming<v1::ServerReflectionRequest>>,
    ) -> Result<Response<Self::ServerReflectionInfoStream>, Status> {
        let index = self.index.clone();
        let answers = request
            .into_inner()
            .map(move |asked| asked.map_err(undecodable).map(|asked| index.answer(asked)));
        Ok(Response::new(Box::pin(answers)))
    }
}

#[tonic::async_trait]
impl v1alpha::server_reflection_server::ServerReflection for Reflection {
    type ServerReflectionInfoStream = Answers<v1alpha::ServerReflectionResponse>;

    async fn server_reflection_info(
        &self,
        request: Request<Streaming<v1alpha::ServerReflectionRequest>>,
    ) -> Result<Response<Self::ServerReflectionInfoStream>, Status> {
        let index = self.index.clone();
        let answers = request.into_inner().map(move |asked| {
            let asked: v1::ServerReflectionRequest = transcode(&asked.map_err(undecodable)?)?;
            transcode(&index.answer(asked))
        });
        Ok(Response::new(Box::pin(answers)))
    }
}

/// What a request that does not decode is answered: the caller's bytes are at fault
/// (INVALID_ARGUMENT, as everywhere else: `decode_errors.rs`), not the server.
fn undecodable(status: Status) -> Status {
    crate::wire::status(Error::Invalid(format!(
        "the reflection request does not decode: {}",
        status.message()
    )))
}

/// A message as its twin in the other version (the same fields, numbers and types).
fn transcode<From: Message, To: Message + Default>(message: &From) -> Result<To, Status> {
    To::decode(message.encode_to_vec().as_slice())
        .map_err(|e| Error::Internal(format!("reflection versions differ: {e}")).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use v1::server_reflection_request::MessageRequest as Ask;
    use v1::server_reflection_response::MessageResponse as Answer;

    fn index() -> Index {
        Index::new(&[
            baffle_proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
        ])
        .unwrap()
    }

    fn ask(index: &Index, request: Ask) -> Answer {
        index
            .answer(v1::ServerReflectionRequest {
                host: String::new(),
                message_request: Some(request),
            })
            .message_response
            .unwrap()
    }

    fn file_names(answer: Answer) -> Vec<String> {
        let Answer::FileDescriptorResponse(r) = answer else {
            panic!("not files: {answer:?}")
        };
        r.file_descriptor_proto
            .iter()
            .map(|raw| {
                FileDescriptorProto::decode(raw.as_slice())
                    .unwrap()
                    .name()
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn a_symbol_comes_with_its_file_and_every_import() {
        let index = index();
        let names = file_names(ask(
            &index,
            Ask::FileContainingSymbol("baffle.v1.Matches".into()),
        ));
        assert_eq!(names[0], "baffle/v1/matches.proto");
        // Every import of every file sent is sent too.
        for raw in &names {
            let (_, imports) = &index.files[raw];
            for import in imports {
                assert!(names.contains(import), "{import} missing from {names:?}");
            }
        }
        assert!(names.len() > 1, "matches.proto imports others: {names:?}");
        // Nested types and methods are found.
        let method = file_names(ask(
            &index,
            Ask::FileContainingSymbol("baffle.v1.Matches.Execute".into()),
        ));
        assert_eq!(method[0], "baffle/v1/matches.proto");
        // Fields and enum values too (`grpcurl describe` asks for them).
        for symbol in ["baffle.v1.MatchState.sent_at_ms", "baffle.v1.SIDE_A"] {
            assert!(
                matches!(
                    ask(&index, Ask::FileContainingSymbol(symbol.into())),
                    Answer::FileDescriptorResponse(_)
                ),
                "{symbol}"
            );
        }
    }

    #[test]
    fn an_unknown_name_is_an_error_in_the_stream() {
        let answer = ask(&index(), Ask::FileByFilename("nope.proto".into()));
        let Answer::ErrorResponse(e) = answer else {
            panic!("{answer:?}")
        };
        assert_eq!(e.error_code, tonic::Code::NotFound as i32);
    }

    #[test]
    fn the_services_are_listed() {
        let Answer::ListServicesResponse(list) = ask(&index(), Ask::ListServices(String::new()))
        else {
            panic!()
        };
        let names: Vec<_> = list.service.iter().map(|s| s.name.as_str()).collect();
        assert!(names.contains(&"baffle.v1.Matches"), "{names:?}");
        assert!(names.contains(&"grpc.health.v1.Health"), "{names:?}");
    }

    #[test]
    fn a_v1alpha_request_is_answered_as_its_v1_twin() {
        let alpha = v1alpha::ServerReflectionRequest {
            host: "h".into(),
            message_request: Some(
                v1alpha::server_reflection_request::MessageRequest::ListServices(String::new()),
            ),
        };
        let asked: v1::ServerReflectionRequest = transcode(&alpha).unwrap();
        let answer: v1alpha::ServerReflectionResponse = transcode(&index().answer(asked)).unwrap();
        assert_eq!(answer.valid_host, "h");
        assert!(matches!(
            answer.message_response,
            Some(v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(_))
        ));
    }
}
