//! A real server on loopback, reached the way clients reach it.

use baffle_core::Millis;
use baffle_core::clock::TimeControl;
use baffle_proto::v1::ListPresetsRequest;
use baffle_proto::v1::time_controls_client::TimeControlsClient;
use baffle_tests::TestServer;
use tokio_stream::StreamExt;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

#[tokio::test]
async fn health_check_answers_serving() {
    let server = TestServer::start().await;
    assert!(
        baffle_firmware_sim::ping::ping(&server.url())
            .await
            .unwrap()
    );
    server.stop().await;
}

#[tokio::test]
async fn presets_come_from_the_core_and_survive_the_wire() {
    let server = TestServer::start().await;
    let channel = baffle_client::connect::connect(&server.url())
        .await
        .unwrap();
    let mut client = TimeControlsClient::new(channel);

    let presets = client
        .list_presets(ListPresetsRequest { match_length: 11 })
        .await
        .unwrap()
        .into_inner()
        .presets;
    let names: Vec<_> = presets.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["backgammon", "fide-classical", "rapid", "blitz"]);
    let backgammon = TimeControl::try_from(presets[0].control.clone().unwrap()).unwrap();
    assert_eq!(backgammon, TimeControl::backgammon_default(11).unwrap());
    assert_eq!(backgammon.periods()[0].base, Millis::mins(22));

    // 0 means the default length of 7.
    let default = client
        .list_presets(ListPresetsRequest { match_length: 0 })
        .await
        .unwrap();
    let control = default.into_inner().presets[0].control.clone().unwrap();
    assert_eq!(control.periods[0].base_ms, Millis::mins(14).as_ms());

    let refused = client
        .list_presets(ListPresetsRequest {
            match_length: 5_000,
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert!(refused.message().contains("5000"));

    let table = baffle_client::presets::render(&presets);
    assert!(table.contains("22:00.0 for rest of game"));
    server.stop().await;
}

#[tokio::test]
async fn reflection_lists_every_service() {
    let server = TestServer::start().await;
    let channel = baffle_client::connect::connect(&server.url())
        .await
        .unwrap();
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut replies = ServerReflectionClient::new(channel)
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let reply = replies.next().await.unwrap().unwrap();
    let Some(MessageResponse::ListServicesResponse(list)) = reply.message_response else {
        panic!("expected a service list, got {reply:?}");
    };
    let names: Vec<_> = list.service.iter().map(|s| s.name.as_str()).collect();
    for expected in ["baffle.v1.TimeControls", "grpc.health.v1.Health"] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    server.stop().await;
}

/// Issues 18 and 19: older tools speak `v1alpha`; a file comes with every file it
/// imports, so a client can build its types from one answer.
#[tokio::test]
async fn reflection_answers_v1alpha_and_sends_imports() {
    use tonic_reflection::pb::v1alpha;
    use v1alpha::server_reflection_request::MessageRequest as Ask;
    use v1alpha::server_reflection_response::MessageResponse as Answer;
    let server = TestServer::start().await;
    let channel = baffle_client::connect::connect(&server.url())
        .await
        .unwrap();
    let ask = |request| v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(request),
    };
    let mut replies = v1alpha::server_reflection_client::ServerReflectionClient::new(channel)
        .server_reflection_info(tokio_stream::iter([
            ask(Ask::FileContainingSymbol("baffle.v1.Matches".into())),
            ask(Ask::FileByFilename("no/such.proto".into())),
            ask(Ask::ListServices(String::new())),
        ]))
        .await
        .unwrap()
        .into_inner();
    let Some(Answer::FileDescriptorResponse(files)) =
        replies.next().await.unwrap().unwrap().message_response
    else {
        panic!("expected files");
    };
    let files: Vec<prost_types::FileDescriptorProto> = files
        .file_descriptor_proto
        .iter()
        .map(|raw| prost::Message::decode(raw.as_slice()).unwrap())
        .collect();
    let names: Vec<&str> = files.iter().map(|f| f.name()).collect();
    assert_eq!(names[0], "baffle/v1/matches.proto");
    for file in &files {
        for import in &file.dependency {
            assert!(
                names.contains(&import.as_str()),
                "{import} not sent: {names:?}"
            );
        }
    }
    // An unknown name is an error in the stream, which goes on.
    let Some(Answer::ErrorResponse(e)) = replies.next().await.unwrap().unwrap().message_response
    else {
        panic!("expected an error response");
    };
    assert_eq!(e.error_code, tonic::Code::NotFound as i32);
    let Some(Answer::ListServicesResponse(list)) =
        replies.next().await.unwrap().unwrap().message_response
    else {
        panic!("expected a service list");
    };
    let services: Vec<_> = list.service.iter().map(|s| s.name.as_str()).collect();
    assert!(
        services.contains(&"grpc.reflection.v1alpha.ServerReflection"),
        "{services:?}"
    );
    assert!(services.contains(&"baffle.v1.Matches"), "{services:?}");
    server.stop().await;
}

#[tokio::test]
async fn an_unreachable_server_is_a_connection_error() {
    // Bind and drop a listener to find a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    assert!(baffle_client::connect::connect(&url).await.is_err());
    assert!(baffle_firmware_sim::ping::ping(&url).await.is_err());
}
