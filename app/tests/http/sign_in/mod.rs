//! Staff sign-in: the form, the guard, CSRF, company switching, password change, OAuth tokens.

mod auth;
