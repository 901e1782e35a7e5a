//! The Xero client secret at rest (docs/decisions/xero.md): sealed with XChaCha20-Poly1305
//! under a 32-byte key kept outside the database — `TYREDESK_SECRET_KEY` (64 hex digits) when
//! set, else `<data dir>/secret.key`, created on first use with mode 0600. The company's id
//! is the associated data, so a sealed secret copied to another company's row does not open.
//! A database backup alone never reveals a secret; losing the key means connecting again.

use std::path::Path;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rand::RngCore;

/// The sealing key.
#[derive(Clone)]
pub struct SecretKey([u8; 32]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(…)")
    }
}

const PREFIX: &str = "v1:";
/// The environment variable that holds the key in hex (64 digits).
pub const ENV: &str = "TYREDESK_SECRET_KEY";
/// The key file's name inside the data directory.
pub const FILE: &str = "secret.key";

impl SecretKey {
    /// The key from `TYREDESK_SECRET_KEY`, else from the data directory's key file, made on
    /// first use.
    pub fn load(data_dir: &Path) -> Result<Self, String> {
        if let Ok(hex_key) = std::env::var(ENV) {
            return Self::from_hex(hex_key.trim()).map_err(|e| format!("{ENV}: {e}"));
        }
        let path = data_dir.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => Self::from_hex(text.trim()).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key = Self::random();
                write_private(&path, &hex::encode(key.0)).map_err(|e| format!("cannot write the secret key {}: {e}", path.display()))?;
                Ok(key)
            }
            Err(e) => Err(format!("cannot read the secret key {}: {e}", path.display())),
        }
    }

    /// A fresh random key (tests, and the first start).
    pub fn random() -> Self {
        let mut k = [0u8; 32];
        rand::rng().fill_bytes(&mut k);
        Self(k)
    }

    /// A key from 64 hexadecimal digits.
    pub fn from_hex(s: &str) -> Result<Self, String> {
        let bytes = hex::decode(s).map_err(|_| "the key must be 64 hexadecimal digits".to_string())?;
        let k: [u8; 32] = bytes.try_into().map_err(|_| "the key must be 64 hexadecimal digits".to_string())?;
        Ok(Self(k))
    }

    /// Seals `secret` for company `org`.
    pub fn seal(&self, org: i64, secret: &str) -> String {
        let cipher = XChaCha20Poly1305::new((&self.0).into());
        let mut nonce = [0u8; 24];
        rand::rng().fill_bytes(&mut nonce);
        let aad = aad(org);
        // Encryption with a valid key and nonce cannot fail.
        let sealed = cipher.encrypt(XNonce::from_slice(&nonce), Payload { msg: secret.as_bytes(), aad: aad.as_bytes() }).unwrap_or_default();
        format!("{PREFIX}{}{}", hex::encode(nonce), hex::encode(sealed))
    }

    /// Opens a secret sealed for company `org`; `None` when the key or company differ.
    pub fn open(&self, org: i64, sealed: &str) -> Option<String> {
        let raw = hex::decode(sealed.strip_prefix(PREFIX)?).ok()?;
        if raw.len() < 24 {
            return None;
        }
        let (nonce, body) = raw.split_at(24);
        let cipher = XChaCha20Poly1305::new((&self.0).into());
        let plain = cipher.decrypt(XNonce::from_slice(nonce), Payload { msg: body, aad: aad(org).as_bytes() }).ok()?;
        String::from_utf8(plain).ok()
    }
}

fn aad(org: i64) -> String {
    format!("tyredesk xero secret of company {org}")
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_only_with_its_key_and_company() {
        let k = SecretKey::random();
        let s = k.seal(4, "top secret");
        assert!(!s.contains("top secret"));
        assert_eq!(k.open(4, &s).as_deref(), Some("top secret"));
        assert_eq!(k.open(5, &s), None);
        assert_eq!(SecretKey::random().open(4, &s), None);
        assert_ne!(k.seal(4, "top secret"), s, "a fresh nonce each time");
    }

    #[test]
    fn the_key_file_is_made_once_private_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let a = SecretKey::load(dir.path()).unwrap();
        let b = SecretKey::load(dir.path()).unwrap();
        assert_eq!(a.0, b.0);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
