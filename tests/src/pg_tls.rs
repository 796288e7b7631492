//! A test certificate authority and a PostgreSQL server certificate signed by it, made
//! afresh by each test with rcgen (ECDSA P-256 keys, nothing kept on disk but what the
//! test writes): what `sslmode=verify-full&sslrootcert=…` is tested against
//! (`docs/cluster.md`, "TLS to the database").

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};

/// A CA: its certificate (PEM) and what signs with it.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A server's certificate and key, both PEM.
pub struct ServerCert {
    /// The certificate, signed by the CA.
    pub cert_pem: String,
    /// Its private key (PKCS#8).
    pub key_pem: String,
}

impl TestCa {
    /// A new CA named `name`.
    pub fn new(name: &str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let key = KeyPair::generate().expect("a CA key");
        TestCa {
            issuer: CertifiedIssuer::self_signed(params, key).expect("a CA certificate"),
        }
    }

    /// The CA's certificate, PEM: what `sslrootcert` names.
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A server certificate valid for exactly the DNS names `names`.
    pub fn server(&self, names: &[&str]) -> ServerCert {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = CertificateParams::new(names).expect("server parameters");
        params
            .distinguished_name
            .push(DnType::CommonName, "baffle test database");
        let key = KeyPair::generate().expect("a server key");
        let cert = params
            .signed_by(&key, &*self.issuer)
            .expect("a server certificate");
        ServerCert {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}
