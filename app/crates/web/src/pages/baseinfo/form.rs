//! The view of a base-info form: titled groups of fields, each knowing its value, whether
//! it is required or locked, and the message shown beside it. One template renders them all.

use std::collections::BTreeMap;

use domain::enums::CodeEnum;

/// How one field is shown.
#[derive(Debug, Clone)]
pub enum Kind {
    /// A one-line input; `input_type` is the HTML type (text, email, date, tel, url).
    Input { value: String, input_type: &'static str, list: Vec<String> },
    Textarea { value: String },
    Select { options: Vec<(String, String)>, selected: String },
    Checkbox { checked: bool },
    /// Shown but not submitted (read-only facts, fields the user may not change).
    Display { value: String },
    /// Several checkboxes sharing the name, each with its value: (value, label, ticked).
    Choices { options: Vec<(String, String, bool)> },
}

/// One field of the form.
#[derive(Debug, Clone)]
pub struct Field {
    /// The submitted name, the same as the API's field name.
    pub name: &'static str,
    pub label: &'static str,
    pub kind: Kind,
    pub required: bool,
    /// Read-only: submitted unchanged, refused by the server if altered.
    pub locked: bool,
    pub error: String,
    /// Grid span: "", "wide" or "full".
    pub span: &'static str,
    /// Longest accepted text in characters, with the message the browser shows on blur.
    pub max_chars: Option<(usize, &'static str)>,
    /// The other field that satisfies the rule as well (contact first or last name): then
    /// 'Please enter' is not shown on blur, but checked on submit with both fields empty.
    pub either: Option<&'static str>,
}

impl Field {
    fn new(name: &'static str, label: &'static str, kind: Kind) -> Self {
        Self { name, label, kind, required: false, locked: false, error: String::new(), span: "", max_chars: None, either: None }
    }

    pub fn text(name: &'static str, label: &'static str, value: &str) -> Self {
        Self::new(name, label, Kind::Input { value: value.to_string(), input_type: "text", list: vec![] })
    }

    pub fn typed(name: &'static str, label: &'static str, value: &str, input_type: &'static str) -> Self {
        Self::new(name, label, Kind::Input { value: value.to_string(), input_type, list: vec![] })
    }

    pub fn textarea(name: &'static str, label: &'static str, value: &str) -> Self {
        Self::new(name, label, Kind::Textarea { value: value.to_string() }).span("full")
    }

    pub fn select(name: &'static str, label: &'static str, options: Vec<(String, String)>, selected: String) -> Self {
        Self::new(name, label, Kind::Select { options, selected })
    }

    pub fn checkbox(name: &'static str, label: &'static str, checked: bool) -> Self {
        Self::new(name, label, Kind::Checkbox { checked })
    }

    pub fn choices(name: &'static str, label: &'static str, options: Vec<(String, String, bool)>) -> Self {
        Self::new(name, label, Kind::Choices { options }).span("full")
    }

    pub fn display(name: &'static str, label: &'static str, value: impl Into<String>) -> Self {
        Self::new(name, label, Kind::Display { value: value.into() })
    }

    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    pub fn locked(mut self, locked: bool) -> Self {
        self.locked = locked;
        self
    }

    pub fn span(mut self, span: &'static str) -> Self {
        self.span = span;
        self
    }

    /// Required, but satisfiable by field `other` too: not checked alone on blur; submitting
    /// with both empty shows 'Please enter' here at once (the server's message, issue 32).
    pub fn or_else(mut self, other: &'static str) -> Self {
        self.either = Some(other);
        self
    }

    pub fn max_chars(mut self, max: usize, message: &'static str) -> Self {
        self.max_chars = Some((max, message));
        self
    }

    /// Suggestions offered while typing (a datalist).
    pub fn suggest(mut self, items: Vec<String>) -> Self {
        if let Kind::Input { list, .. } = &mut self.kind {
            *list = items;
        }
        self
    }

    /// The longest accepted length in characters, 0 for no limit.
    pub fn max_len(&self) -> usize {
        self.max_chars.map_or(0, |(n, _)| n)
    }

    /// The message shown when the text is longer than [`Field::max_len`].
    pub fn max_message(&self) -> &'static str {
        self.max_chars.map_or("", |(_, m)| m)
    }

    /// Whether the browser should check this field on blur.
    pub fn checked_on_blur(&self) -> bool {
        self.required && self.either.is_none() && !self.locked && !matches!(self.kind, Kind::Display { .. } | Kind::Checkbox { .. })
    }
}

/// A titled group of fields (spec §2.8 groups).
#[derive(Debug, Clone)]
pub struct Group {
    pub title: &'static str,
    pub fields: Vec<Field>,
}

/// A coloured tag beside the heading.
#[derive(Debug, Clone)]
pub struct Badge {
    pub label: &'static str,
    pub class: &'static str,
}

/// A whole base-info form.
#[derive(Debug, Clone)]
pub struct FormView {
    pub heading: &'static str,
    /// Where the form posts: the add route or the record's edit route.
    pub action: String,
    pub list_path: &'static str,
    /// The version the edit started from, carried in a hidden field.
    pub version: Option<i32>,
    /// The Xero tag of an existing record.
    pub xero: Option<Badge>,
    /// A message for the whole form (validation summary, version conflict).
    pub alert: Option<String>,
    /// Whether the alert is a version conflict (offers a reload).
    pub conflict: bool,
    pub groups: Vec<Group>,
    /// Information for the whole form (e.g. a one-time password shown once).
    pub notice: Option<String>,
    /// Buttons beside the form that post on their own (e.g. 'Set one-time password').
    pub actions: Vec<SideAction>,
    /// Links beside 'Back to list' (a customer's statement and quotations, issue 33).
    pub links: Vec<(&'static str, String)>,
}

/// A button that posts to `action` by itself, asking `confirm` first.
#[derive(Debug, Clone)]
pub struct SideAction {
    pub label: &'static str,
    pub action: String,
    pub confirm: &'static str,
}

impl FormView {
    /// Puts each message beside the field of that name; messages for fields the form does
    /// not show join the alert so none is lost.
    pub fn with_errors(mut self, message: &str, errors: &BTreeMap<String, String>) -> Self {
        let mut unplaced = Vec::new();
        for (name, msg) in errors {
            match self.groups.iter_mut().flat_map(|g| g.fields.iter_mut()).find(|f| f.name == name && !matches!(f.kind, Kind::Display { .. })) {
                Some(f) => f.error = msg.clone(),
                None => unplaced.push(msg.clone()),
            }
        }
        let mut alert = message.to_string();
        for m in unplaced {
            if !alert.contains(&m) {
                alert = format!("{alert} {m}");
            }
        }
        self.alert = Some(alert);
        self
    }
}

/// Options of a coded enumeration, with an empty first choice when `placeholder` is given.
pub fn code_options<T: CodeEnum>(placeholder: Option<&str>) -> Vec<(String, String)> {
    placeholder
        .map(|p| (String::new(), p.to_string()))
        .into_iter()
        .chain(T::ALL.iter().map(|v| (v.code().to_string(), v.text().to_string())))
        .collect()
}

/// The selected value of a select from an optional code.
pub fn selected<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// Placeholder of a required select not answered yet.
pub const CHOOSE: &str = "— choose —";
/// Placeholder of an optional select.
pub const NONE: &str = "—";

#[cfg(test)]
mod tests {
    use super::*;
    use domain::enums::AreaType;

    fn view() -> FormView {
        FormView {
            heading: "New",
            action: "/x".into(),
            list_path: "/xs",
            version: None,
            xero: None,
            alert: None,
            conflict: false,
            groups: vec![Group { title: "Basic", fields: vec![Field::text("code", "Code", ""), Field::display("balance", "Balance", "0.00")] }],
            notice: None,
            links: vec![],
            actions: vec![],
        }
    }

    #[test]
    fn errors_go_beside_their_fields_and_the_rest_into_the_alert() {
        let mut errors = BTreeMap::new();
        errors.insert("code".to_string(), "Please enter".to_string());
        errors.insert("version".to_string(), "Reload".to_string());
        errors.insert("balance".to_string(), "Nope".to_string());
        let v = view().with_errors("Please enter the required fields.", &errors);
        assert_eq!(v.groups[0].fields[0].error, "Please enter");
        assert_eq!(v.groups[0].fields[1].error, "", "display fields take no message");
        assert_eq!(v.alert.as_deref(), Some("Please enter the required fields. Nope Reload"));
    }

    #[test]
    fn options_and_blur_checks() {
        let o = code_options::<AreaType>(Some(CHOOSE));
        assert_eq!(o[0], (String::new(), CHOOSE.to_string()));
        assert_eq!(o[1], ("1".to_string(), "North".to_string()));
        assert_eq!(o.len(), AreaType::ALL.len() + 1);
        assert!(Field::text("a", "A", "").required().checked_on_blur());
        assert!(!Field::text("a", "A", "").required().locked(true).checked_on_blur());
        assert!(!Field::text("a", "A", "").checked_on_blur());
        assert!(!Field::text("a", "A", "").required().or_else("b").checked_on_blur());
        assert_eq!(selected(Some(3)), "3");
        assert_eq!(selected::<i32>(None), "");
    }
}
