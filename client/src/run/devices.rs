//! `baffle device …`: register, bind, unbind, revoke and list the devices at the tables.
//!
//! The server keeps no list of devices; `device list` finds them in the matches' states.

use baffle_proto::v1;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;

use super::connection::{authed, channel};
use super::outcome::{Outcome, refused};
use crate::cli::{Cli, DeviceCommand};
use crate::views::{DeviceView, to_json};

/// `baffle device …`.
pub(super) async fn run_device(
    cli: &Cli,
    token: &Option<String>,
    d: &DeviceCommand,
) -> Result<Outcome, Outcome> {
    if let DeviceCommand::List { tournament } = d {
        return device_list(cli, tournament).await;
    }
    let mut client = DevicesClient::new(channel(cli).await?);
    let device = match d {
        DeviceCommand::List { .. } => unreachable!("listed above"),
        DeviceCommand::Register { id } => {
            let r = client
                .register_device(authed(
                    v1::RegisterDeviceRequest {
                        device_id: id.clone(),
                    },
                    token,
                )?)
                .await
                .map_err(refused)?
                .into_inner();
            return Ok(if cli.json {
                Outcome::ok(to_json(
                    &serde_json::json!({ "device_id": id, "credential": r.credential }),
                ))
            } else {
                Outcome::ok(format!(
                    "registered device {id}\ncredential (shown once): {}\n",
                    r.credential
                ))
            });
        }
        DeviceCommand::Bind { id, match_id } => {
            let request = v1::BindDeviceRequest {
                device_id: id.clone(),
                match_id: match_id.clone(),
            };
            client.bind_device(authed(request, token)?).await
        }
        DeviceCommand::Revoke { id } => client
            .revoke_device(authed(
                v1::RevokeDeviceRequest {
                    device_id: id.clone(),
                },
                token,
            )?)
            .await
            .map(|r| {
                let mut d = r.into_inner();
                d.match_id.clear();
                tonic::Response::new(d)
            }),
        DeviceCommand::Unbind { id } => {
            client
                .unbind_device(authed(
                    v1::UnbindDeviceRequest {
                        device_id: id.clone(),
                    },
                    token,
                )?)
                .await
        }
    }
    .map_err(refused)?
    .into_inner();
    Ok(if cli.json {
        Outcome::ok(to_json(&DeviceView {
            device_id: device.device_id,
            match_id: Some(device.match_id),
            connected: false,
        }))
    } else if device.match_id.is_empty() {
        Outcome::ok(format!("device {} is unbound\n", device.device_id))
    } else {
        Outcome::ok(format!(
            "device {} is bound to {}\n",
            device.device_id, device.match_id
        ))
    })
}

/// `baffle device list`: the devices bound to matches, found in the matches' states
/// (the server lists no devices of its own), with whether each is connected now.
async fn device_list(cli: &Cli, tournament: &Option<String>) -> Result<Outcome, Outcome> {
    let list = TournamentsClient::new(channel(cli).await?)
        .list_matches(v1::ListMatchesRequest {
            tournament_id: tournament.clone().unwrap_or_default(),
            ..Default::default()
        })
        .await
        .map_err(refused)?
        .into_inner()
        .matches;
    let mut devices: Vec<DeviceView> = list
        .iter()
        .flat_map(|s| {
            s.devices.iter().map(|d| DeviceView {
                device_id: d.device_id.clone(),
                match_id: Some(s.match_id.clone()),
                connected: d.connected,
            })
        })
        .collect();
    devices.sort_by(|a, b| a.device_id.cmp(&b.device_id));
    if cli.json {
        return Ok(Outcome::ok(to_json(&devices)));
    }
    let mut out = format!("{:<16} {:<16} {}\n", "DEVICE", "MATCH", "CONNECTED");
    for d in &devices {
        out.push_str(&format!(
            "{:<16} {:<16} {}\n",
            d.device_id,
            d.match_id.as_deref().unwrap_or("-"),
            if d.connected { "yes" } else { "no" }
        ));
    }
    Ok(Outcome::ok(out))
}
