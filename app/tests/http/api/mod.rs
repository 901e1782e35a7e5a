//! The JSON API's shared routes (start-up lists, account, print info, errors) and its exports.

mod base;
mod exports;
mod oauth_rfc6749;
