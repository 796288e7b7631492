//! TLS to PostgreSQL: the store's URL read for its `sslmode` and `sslrootcert`, as libpq
//! reads them, and the rustls connector that checks the server.
//!
//! tokio-postgres knows `sslmode` only as `disable`, `prefer` and `require`, and it never
//! checks a certificate itself: that is the connector's work. So the two TLS settings are
//! taken out of the URL here, before tokio-postgres parses the rest, and turned into one
//! of two ways to connect ([`Tls`]):
//!
//! - no `sslmode` (or `sslmode=disable`): plain TCP, as before — for a database on the
//!   same machine or a network the venue trusts;
//! - `sslmode=verify-full&sslrootcert=FILE`: TLS is **required** of every host of the
//!   URL, the server's certificate must chain to a CA in `FILE` (PEM), and it must name
//!   the host the URL gives (`host=a,b`: each host is checked against its own name). A
//!   server that answers without TLS, with another CA's certificate or with a
//!   certificate for another name is refused: the connection fails, and says why.
//!
//! Every other mode (`allow`, `prefer`, `require`, `verify-ca`) encrypts without knowing
//! who answers, or may not encrypt at all; each is refused with a clear error rather than
//! quietly weakened. The CA file is read when the store connects (and again on every
//! start), so a wrong path stops `baffled` at once, naming the file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use percent_encoding::percent_decode_str;
use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

/// How the store's connections are made.
#[derive(Clone)]
pub(super) enum Tls {
    /// Plain TCP (no `sslmode`, or `sslmode=disable`).
    Plain,
    /// TLS required, the server checked against the CA file and its host name.
    VerifyFull(MakeRustlsConnect),
}

/// What the URL asks of TLS, before the CA file is read.
#[derive(Debug, PartialEq, Eq)]
pub enum TlsMode {
    /// No TLS.
    Plain,
    /// `sslmode=verify-full` with the CA file given by `sslrootcert`.
    VerifyFull {
        /// The PEM file of the CA (or CAs) that signed the server's certificate.
        ca_file: PathBuf,
    },
}

/// Splits a `postgres://` URL into what tokio-postgres parses and the TLS mode it asks
/// for; an error, said for a person, if it asks for TLS in a way this store refuses.
/// A string that is not a URL (key=value form) is left whole to tokio-postgres.
pub fn split_url(url: &str) -> Result<(String, TlsMode), String> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok((url.to_string(), TlsMode::Plain));
    };
    let (mut mode, mut root) = (None, None);
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let decoded = || {
            percent_decode_str(value)
                .decode_utf8()
                .map(|v| v.into_owned())
                .map_err(|_| format!("the store URL's {key} is not UTF-8"))
        };
        match key {
            "sslmode" => mode = Some(decoded()?),
            "sslrootcert" => root = Some(decoded()?),
            _ => kept.push(pair),
        }
    }
    let rest = match kept.is_empty() {
        true => base.to_string(),
        false => format!("{base}?{}", kept.join("&")),
    };
    let tls = match (mode.as_deref(), root) {
        (None, None) => return Ok((url.to_string(), TlsMode::Plain)),
        (Some("disable"), None) => TlsMode::Plain,
        (Some("verify-full"), Some(ca)) if !ca.is_empty() => TlsMode::VerifyFull {
            ca_file: PathBuf::from(ca),
        },
        (Some("verify-full"), _) => {
            return Err(
                "sslmode=verify-full needs sslrootcert=FILE, the PEM file of the CA \
                        that signed the database server's certificate"
                    .into(),
            );
        }
        (Some("disable") | None, Some(_)) => {
            return Err("sslrootcert is used only with sslmode=verify-full".into());
        }
        (Some(other), _) => {
            return Err(format!(
                "sslmode={other} is not supported: the store either checks the database \
                 server (sslmode=verify-full with sslrootcert=FILE) or does not use TLS \
                 (sslmode=disable, or no sslmode)"
            ));
        }
    };
    Ok((rest, tls))
}

/// The store's connection settings and connector for `url`: the URL parsed, and the CA
/// file read if it asks for `verify-full`.
pub(super) fn settings(url: &str) -> Result<(tokio_postgres::Config, Tls), String> {
    let (rest, mode) = split_url(url)?;
    let mut config: tokio_postgres::Config = rest
        .parse()
        .map_err(|e| format!("the store URL does not parse: {e}"))?;
    let tls = match mode {
        TlsMode::Plain => Tls::Plain,
        TlsMode::VerifyFull { ca_file } => {
            config.ssl_mode(SslMode::Require);
            Tls::VerifyFull(connector(&ca_file)?)
        }
    };
    Ok((config, tls))
}

/// A rustls connector trusting exactly the CAs in the PEM file `ca_file`.
fn connector(ca_file: &Path) -> Result<MakeRustlsConnect, String> {
    let shown = ca_file.display();
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(ca_file)
        .map_err(|e| format!("the store's CA file {shown} cannot be read: {e}"))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("the store's CA file {shown} is not PEM: {e}"))?;
    if certs.is_empty() {
        return Err(format!(
            "the store's CA file {shown} holds no certificate (BEGIN CERTIFICATE)"
        ));
    }
    let mut roots = RootCertStore::empty();
    for cert in certs {
        roots
            .add(cert)
            .map_err(|e| format!("the store's CA file {shown} holds a bad certificate: {e}"))?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS to the store cannot be set up: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_without_tls_is_left_whole() {
        let url = "postgres://u@a:1,b:2/db?target_session_attrs=read-write";
        assert_eq!(split_url(url).unwrap(), (url.to_string(), TlsMode::Plain));
        assert_eq!(
            split_url("postgres://u@a/db").unwrap().1,
            TlsMode::Plain,
            "no query at all"
        );
    }

    #[test]
    fn verify_full_takes_the_ca_file_out_of_the_url() {
        let (rest, mode) = split_url(
            "postgres://u@a,b/db?sslmode=verify-full&target_session_attrs=read-write\
             &sslrootcert=%2Fetc%2Fbaffle%2Fca.pem",
        )
        .unwrap();
        assert_eq!(rest, "postgres://u@a,b/db?target_session_attrs=read-write");
        assert_eq!(
            mode,
            TlsMode::VerifyFull {
                ca_file: PathBuf::from("/etc/baffle/ca.pem")
            }
        );
        let (rest, _) =
            split_url("postgres://u@a/db?sslmode=verify-full&sslrootcert=/ca.pem").unwrap();
        assert_eq!(rest, "postgres://u@a/db");
        assert_eq!(
            split_url("postgres://u@a/db?sslmode=disable").unwrap().1,
            TlsMode::Plain
        );
    }

    #[test]
    fn weaker_or_incomplete_tls_is_refused_with_a_reason() {
        for mode in ["require", "prefer", "allow", "verify-ca", "VERIFY-FULL"] {
            let e =
                split_url(&format!("postgres://a/db?sslmode={mode}&sslrootcert=/c")).unwrap_err();
            assert!(e.contains("not supported") && e.contains(mode), "{e}");
        }
        let e = split_url("postgres://a/db?sslmode=verify-full").unwrap_err();
        assert!(e.contains("needs sslrootcert"), "{e}");
        let e = split_url("postgres://a/db?sslmode=verify-full&sslrootcert=").unwrap_err();
        assert!(e.contains("needs sslrootcert"), "{e}");
        let e = split_url("postgres://a/db?sslrootcert=/c").unwrap_err();
        assert!(e.contains("only with sslmode=verify-full"), "{e}");
    }

    #[test]
    fn a_missing_or_empty_ca_file_is_named() {
        let url = "postgres://a/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem";
        let e = settings(url).err().expect("refused");
        assert!(
            e.contains("/nonexistent/ca.pem") && e.contains("cannot be read"),
            "{e}"
        );
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("ca.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let url = format!(
            "postgres://a/db?sslmode=verify-full&sslrootcert={}",
            empty.display()
        );
        let e = settings(&url).err().expect("refused");
        assert!(e.contains("holds no certificate"), "{e}");
    }
}
