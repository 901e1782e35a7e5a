//! argon2id password hashing.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngCore;
use argon2::Argon2;

/// Hashes a password with argon2id (the crate's default parameters) and a random salt.
pub fn hash(password: &str) -> anyhow::Result<String> {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    let salt = SaltString::encode_b64(&bytes).map_err(|e| anyhow::anyhow!("salt encoding failed: {e}"))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("password hashing failed: {e}"))
}

/// True when `password` matches the stored PHC string; a malformed hash never matches.
pub fn verify(password: &str, stored: &str) -> bool {
    match PasswordHash::new(stored) {
        Ok(parsed) => Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn hash_then_verify() {
        let h = super::hash("tyredesk").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(super::verify("tyredesk", &h));
        assert!(!super::verify("Tyredesk", &h));
        assert!(!super::verify("tyredesk", "not-a-hash"));
    }
}
