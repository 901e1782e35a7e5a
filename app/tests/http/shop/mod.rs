//! The customer shop.

pub(crate) mod storefront;

pub(crate) use storefront::{SHOP, SHOP_OCOP, add_to_cart, check_out, shown_and_hidden, signed_in};
