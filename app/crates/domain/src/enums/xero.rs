//! Whether a record reached the accounting system.

code_enum! {
    /// Whether a sheet, product or customer reached the accounting system; listed Unsent, Fail, SENT as in the filter.
    /// Sending and Recalling are a sheet's while its job is queued or running (docs/decisions/xero.md).
    XeroState {
        Unsent = 0, "Unsent";
        Fail = 2, "Fail";
        Sent = 1, "SENT";
        Sending = 3, "Sending…";
        Recalling = 4, "Recalling…";
    }
}

impl Default for XeroState {
    /// New records have not been sent.
    fn default() -> Self {
        Self::Unsent
    }
}

impl XeroState {
    /// In the accounting system (SENT); a refused recall leaves a sheet here.
    pub const fn is_sent(self) -> bool {
        matches!(self, Self::Sent)
    }

    /// The last send was refused (Fail).
    pub const fn is_failed(self) -> bool {
        matches!(self, Self::Fail)
    }

    /// A send job is queued or running.
    pub const fn is_sending(self) -> bool {
        matches!(self, Self::Sending)
    }

    /// A send or recall job is queued or running: the sheet's page waits for it.
    pub const fn is_pending(self) -> bool {
        matches!(self, Self::Sending | Self::Recalling)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xero_codes_read_as_sent_failed_or_pending() {
        let state = |code| XeroState::from_i32(code).unwrap();
        let table = [(0, false, false, false, false), (1, true, false, false, false), (2, false, true, false, false), (3, false, false, true, true), (4, false, false, false, true)];
        for (code, sent, failed, sending, pending) in table {
            assert_eq!(state(code).is_sent(), sent, "{code}");
            assert_eq!(state(code).is_failed(), failed, "{code}");
            assert_eq!(state(code).is_sending(), sending, "{code}");
            assert_eq!(state(code).is_pending(), pending, "{code}");
        }
    }

    #[test]
    fn xero_state_defaults_to_unsent() {
        assert_eq!(XeroState::default(), XeroState::Unsent);
    }
}
