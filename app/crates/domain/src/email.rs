//! E-mail of documents through the company's own SMTP relay (issue 33, docs/decisions/
//! documents.md "E-mail"): the document types and their default texts, the placeholders a
//! template may use, the relay's settings as entered and checked, recipient lists, the
//! states of a sent e-mail and the retry schedule. Values in, values out.

use std::collections::BTreeMap;

use crate::validate::is_email;

/// What an e-mail carries: a document type (its PDF is attached), or the settings' test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Doc {
    Invoice,
    CreditNote,
    DeliveryDocket,
    PurchaseOrder,
    Quotation,
    Statement,
    /// "Send test e-mail" of the settings: no attachment.
    Test,
}

impl Doc {
    /// The document types with a template in Settings, in the form's order.
    pub const TEMPLATED: [Doc; 6] = [Doc::Invoice, Doc::CreditNote, Doc::DeliveryDocket, Doc::PurchaseOrder, Doc::Quotation, Doc::Statement];
    pub const ALL: [Doc; 7] = [Doc::Invoice, Doc::CreditNote, Doc::DeliveryDocket, Doc::PurchaseOrder, Doc::Quotation, Doc::Statement, Doc::Test];

    /// The word stored in `emails.kind` and `jobs.kind`, and the form's field suffix.
    pub const fn code(self) -> &'static str {
        match self {
            Doc::Invoice => "invoice",
            Doc::CreditNote => "credit_note",
            Doc::DeliveryDocket => "delivery_docket",
            Doc::PurchaseOrder => "purchase_order",
            Doc::Quotation => "quotation",
            Doc::Statement => "statement",
            Doc::Test => "test",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.code() == code)
    }

    /// How people name it.
    pub const fn label(self) -> &'static str {
        match self {
            Doc::Invoice => "Tax invoice",
            Doc::CreditNote => "Credit note",
            Doc::DeliveryDocket => "Delivery docket",
            Doc::PurchaseOrder => "Purchase order",
            Doc::Quotation => "Quotation",
            Doc::Statement => "Statement",
            Doc::Test => "Test e-mail",
        }
    }

    /// The subject and text used until Settings give their own.
    pub const fn default_template(self) -> (&'static str, &'static str) {
        match self {
            Doc::Invoice => ("Tax invoice {number} from {company}", "Dear {customer},\n\nPlease find attached tax invoice {number}.\n\nKind regards,\n{company}"),
            Doc::CreditNote => ("Credit note {number} from {company}", "Dear {customer},\n\nPlease find attached credit note {number}.\n\nKind regards,\n{company}"),
            Doc::DeliveryDocket => ("Delivery docket {number} from {company}", "Dear {customer},\n\nPlease find attached the delivery docket for {number}.\n\nKind regards,\n{company}"),
            Doc::PurchaseOrder => ("Purchase order {number} from {company}", "Dear {customer},\n\nPlease find attached our purchase order {number}.\n\nKind regards,\n{company}"),
            Doc::Quotation => ("Quotation {number} from {company}", "Dear {customer},\n\nPlease find attached quotation {number}.\n\nKind regards,\n{company}"),
            Doc::Statement => ("Statement {number} from {company}", "Dear {customer},\n\nPlease find attached your statement for {number}.\n\nKind regards,\n{company}"),
            Doc::Test => ("Test e-mail from {company}", "This is a test e-mail from TyreDesk: {company}'s e-mail settings work."),
        }
    }
}

/// The placeholders a template may use, and what each stands for.
pub const PLACEHOLDERS: [(&str, &str); 4] = [
    ("{company}", "your company's name"),
    ("{number}", "the document's number (a statement's month)"),
    ("{customer}", "the customer's or supplier's name"),
    ("{reference}", "the sheet's reference"),
];

/// The values of the placeholders for one e-mail.
#[derive(Clone, Debug, Default)]
pub struct Fill {
    pub company: String,
    pub number: String,
    pub customer: String,
    pub reference: String,
}

impl Fill {
    /// `text` with each placeholder replaced (unknown braces are left as typed).
    pub fn apply(&self, text: &str) -> String {
        text.replace("{company}", &self.company).replace("{number}", &self.number).replace("{customer}", &self.customer).replace("{reference}", &self.reference)
    }
}

/// A template as stored: subject and text.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Template {
    pub subject: String,
    pub body: String,
}

/// The templates kept for a company, by document code; a missing or empty one uses the default.
pub type Templates = BTreeMap<String, Template>;

/// The template of `doc`: the company's own, else the default.
pub fn template_of(templates: &Templates, doc: Doc) -> Template {
    let (subject, body) = doc.default_template();
    let own = templates.get(doc.code());
    Template {
        subject: own.map(|t| t.subject.trim()).filter(|s| !s.is_empty()).unwrap_or(subject).to_string(),
        body: own.map(|t| t.body.trim()).filter(|s| !s.is_empty()).unwrap_or(body).to_string(),
    }
}

/// How the connection to the relay is secured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Security {
    /// Plain SMTP (a relay on the local network or this machine).
    None,
    /// Plain connection upgraded with STARTTLS, which is required (port 587).
    #[default]
    StartTls,
    /// TLS from the first byte (SMTPS, port 465).
    Tls,
}

impl Security {
    pub const ALL: [Security; 3] = [Security::None, Security::StartTls, Security::Tls];

    pub const fn code(self) -> &'static str {
        match self {
            Security::None => "none",
            Security::StartTls => "starttls",
            Security::Tls => "tls",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Security::None => "None (plain SMTP)",
            Security::StartTls => "STARTTLS (usually port 587)",
            Security::Tls => "TLS (usually port 465)",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }
}

/// The longest subject a template may have.
pub const SUBJECT_MAX: usize = 200;
/// The longest text a template may have.
pub const BODY_MAX: usize = 2000;
/// The longest host name.
pub const HOST_MAX: usize = 253;
/// The longest user name or password.
pub const CREDENTIAL_MAX: usize = 200;
/// The most recipients one e-mail has.
pub const RECIPIENTS_MAX: usize = 10;

/// The settings form as typed (the password empty keeps the stored one).
#[derive(Clone, Debug, Default)]
pub struct SettingsInput {
    pub host: String,
    pub port: String,
    pub security: String,
    pub username: String,
    pub password: String,
    pub from_address: String,
    pub reply_to: String,
    pub invoice_on_approval: bool,
    /// Subject and text by document code.
    pub templates: Templates,
}

/// Checked settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub host: String,
    pub port: i32,
    pub security: Security,
    pub username: String,
    /// `None`: keep the stored password (the field was left empty).
    pub password: Option<String>,
    pub from_address: String,
    pub reply_to: String,
    pub invoice_on_approval: bool,
    pub templates: Templates,
}

fn no_spaces_or_controls(s: &str) -> bool {
    !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Checks the settings form; every problem by field name (`host`, `port`, …, `subject_invoice`).
pub fn check(input: &SettingsInput) -> Result<Checked, BTreeMap<String, String>> {
    let mut errors = BTreeMap::new();
    let mut err = |f: &str, m: &str| {
        errors.insert(f.to_string(), m.to_string());
    };
    let host = input.host.trim();
    if host.is_empty() {
        err("host", "Enter the SMTP server's host name, e.g. smtp.example.com.au.");
    } else if host.len() > HOST_MAX || !no_spaces_or_controls(host) || !host.chars().all(|c| c.is_ascii_alphanumeric() || ".-:[]_".contains(c)) {
        err("host", "Enter a host name or IP address of at most 253 characters: letters, digits, dots and hyphens.");
    }
    let port = match input.port.trim().parse::<i32>() {
        Ok(p) if (1..=65535).contains(&p) => p,
        _ => {
            err("port", "Enter a port from 1 to 65535 (587 for STARTTLS, 465 for TLS, 25 for plain SMTP).");
            0
        }
    };
    let security = Security::from_code(input.security.trim()).unwrap_or_else(|| {
        err("security", "Choose None, STARTTLS or TLS.");
        Security::StartTls
    });
    let username = input.username.trim();
    if username.len() > CREDENTIAL_MAX || username.chars().any(char::is_control) {
        err("username", "The user name is at most 200 characters.");
    }
    let password = (!input.password.is_empty()).then(|| input.password.clone());
    if password.as_ref().is_some_and(|p| p.len() > CREDENTIAL_MAX || p.chars().any(char::is_control)) {
        err("password", "The password is at most 200 characters.");
    }
    let from = input.from_address.trim();
    if from.is_empty() {
        err("from_address", "Enter the address e-mails are sent from.");
    } else if !is_email(from) {
        err("from_address", "Enter an e-mail address such as accounts@example.com.au.");
    }
    let reply_to = input.reply_to.trim();
    if !reply_to.is_empty() && !is_email(reply_to) {
        err("reply_to", "Enter an e-mail address such as accounts@example.com.au, or leave it empty.");
    }
    let mut templates = Templates::new();
    for doc in Doc::TEMPLATED {
        let t = input.templates.get(doc.code()).cloned().unwrap_or_default();
        let (subject, body) = (t.subject.trim(), t.body.trim());
        if subject.chars().count() > SUBJECT_MAX || subject.chars().any(char::is_control) {
            err(&format!("subject_{}", doc.code()), "The subject is one line of at most 200 characters.");
        }
        if body.chars().count() > BODY_MAX {
            err(&format!("body_{}", doc.code()), "The text is at most 2,000 characters.");
        }
        let (default_subject, default_body) = doc.default_template();
        // A text equal to the default is not kept: a later default reaches it.
        let subject = if subject == default_subject { "" } else { subject };
        let body = if body == default_body { "" } else { body };
        if !subject.is_empty() || !body.is_empty() {
            templates.insert(doc.code().to_string(), Template { subject: subject.to_string(), body: body.replace("\r\n", "\n") });
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Checked {
        host: host.to_string(),
        port,
        security,
        username: username.to_string(),
        password,
        from_address: from.to_string(),
        reply_to: reply_to.to_string(),
        invoice_on_approval: input.invoice_on_approval,
        templates,
    })
}

/// Reads a recipient list: addresses separated by commas or semicolons, each checked, each
/// once; at least one, at most [`RECIPIENTS_MAX`].
pub fn recipients(text: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split([',', ';']).map(str::trim).filter(|p| !p.is_empty()) {
        if !is_email(part) {
            let shown: String = part.chars().take(60).collect();
            return Err(format!("'{shown}' is not an e-mail address: enter addresses such as accounts@example.com.au, separated by commas."));
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(part)) {
            out.push(part.to_string());
        }
    }
    if out.is_empty() {
        return Err("Enter at least one e-mail address.".into());
    }
    if out.len() > RECIPIENTS_MAX {
        return Err(format!("Send to at most {RECIPIENTS_MAX} addresses at once."));
    }
    Ok(out)
}

/// The state of one e-mail of the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Waiting for the worker, or for its next attempt.
    Queued,
    /// Being handed to the relay (committed before the relay is spoken to).
    Sending,
    /// The relay accepted it (250 to DATA).
    Sent,
    /// Refused for good, or too many failed attempts.
    Failed,
}

impl State {
    pub const ALL: [State; 4] = [State::Queued, State::Sending, State::Sent, State::Failed];

    pub const fn code(self) -> &'static str {
        match self {
            State::Queued => "queued",
            State::Sending => "sending",
            State::Sent => "sent",
            State::Failed => "failed",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            State::Queued => "Queued",
            State::Sending => "Sending",
            State::Sent => "Sent",
            State::Failed => "Failed",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }
}

/// Attempts at most: the first and five retries.
pub const MAX_ATTEMPTS: i32 = 6;

/// The waits before the retries: 1, 5, 15 and 60 minutes, then 60 again.
pub const BACKOFF_SECS: [i64; 5] = [60, 300, 900, 3600, 3600];

/// The wait after failed attempt `attempt` (1-based) under `schedule` (the last one repeats).
pub fn backoff(schedule: &[i64], attempt: i32) -> chrono::Duration {
    let i = usize::try_from(attempt.max(1) - 1).unwrap_or(0);
    chrono::Duration::seconds(schedule.get(i).or(schedule.last()).copied().unwrap_or(60).max(0))
}

/// The Message-ID of an e-mail: its row, company and random token, at the From address's
/// domain. The same row always has the same one, so a resend is recognisably the same message.
pub fn message_id(org: i64, id: i64, token: &str, from: &str) -> String {
    let domain = from.rsplit_once('@').map(|(_, d)| d).filter(|d| !d.is_empty()).unwrap_or("tyredesk.invalid");
    format!("<tyredesk.{org}.{id}.{token}@{domain}>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for d in Doc::ALL {
            assert_eq!(Doc::from_code(d.code()), Some(d));
        }
        for s in State::ALL {
            assert_eq!(State::from_code(s.code()), Some(s));
        }
        for s in Security::ALL {
            assert_eq!(Security::from_code(s.code()), Some(s));
        }
    }

    #[test]
    fn templates_fall_back_to_the_default_and_fill_placeholders() {
        let mut t = Templates::new();
        t.insert("invoice".into(), Template { subject: "Your invoice {number}".into(), body: String::new() });
        let own = template_of(&t, Doc::Invoice);
        assert_eq!(own.subject, "Your invoice {number}");
        assert_eq!(own.body, Doc::Invoice.default_template().1);
        let fill = Fill { company: "ACME".into(), number: "INV-1".into(), customer: "Bob".into(), reference: String::new() };
        assert_eq!(fill.apply(&own.subject), "Your invoice INV-1");
        assert_eq!(fill.apply(&template_of(&t, Doc::CreditNote).subject), "Credit note INV-1 from ACME");
    }

    #[test]
    fn recipients_are_checked_each_once() {
        assert_eq!(recipients(" a@b.com, c@d.com.au; A@b.com ").unwrap(), vec!["a@b.com", "c@d.com.au"]);
        assert!(recipients("").unwrap_err().contains("at least one"));
        assert!(recipients("a@b.com, nope").unwrap_err().contains("'nope' is not an e-mail address"));
        let many = (0..11).map(|i| format!("u{i}@x.com")).collect::<Vec<_>>().join(",");
        assert!(recipients(&many).unwrap_err().contains("at most 10"));
    }

    #[test]
    fn settings_are_checked_with_a_message_per_field() {
        let ok = SettingsInput { host: "smtp.example.com".into(), port: "587".into(), security: "starttls".into(), from_address: "a@example.com".into(), ..Default::default() };
        let c = check(&ok).unwrap();
        assert_eq!((c.port, c.security, c.password.clone()), (587, Security::StartTls, None));
        let bad = SettingsInput { host: "smtp example".into(), port: "70000".into(), security: "ssl".into(), from_address: "nope".into(), reply_to: "x@".into(), ..Default::default() };
        let e = check(&bad).unwrap_err();
        for f in ["host", "port", "security", "from_address", "reply_to"] {
            assert!(e.contains_key(f), "{f}: {e:?}");
        }
        let mut long = ok.clone();
        long.templates.insert("invoice".into(), Template { subject: "x".repeat(201), body: String::new() });
        assert!(check(&long).unwrap_err().contains_key("subject_invoice"));
    }

    #[test]
    fn backoff_follows_the_schedule_and_repeats_its_last_wait() {
        assert_eq!(backoff(&BACKOFF_SECS, 1), chrono::Duration::minutes(1));
        assert_eq!(backoff(&BACKOFF_SECS, 2), chrono::Duration::minutes(5));
        assert_eq!(backoff(&BACKOFF_SECS, 4), chrono::Duration::minutes(60));
        assert_eq!(backoff(&BACKOFF_SECS, 9), chrono::Duration::minutes(60));
        assert_eq!(backoff(&[0], 3), chrono::Duration::zero());
    }

    #[test]
    fn the_message_id_is_the_rows_own() {
        assert_eq!(message_id(4, 17, "ab12", "accounts@tyres.com.au"), "<tyredesk.4.17.ab12@tyres.com.au>");
        assert_eq!(message_id(4, 17, "ab12", "accounts@tyres.com.au"), message_id(4, 17, "ab12", "accounts@tyres.com.au"));
    }
}
