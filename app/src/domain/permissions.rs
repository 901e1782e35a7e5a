//! Who may see what beyond the roles of spec §6.

use super::enums::Role;

/// Cost and reference purchase price are shown to approvers and to staff who set prices
/// (modPrc); sales and service staff quote without them.
pub fn may_see_cost(role: Role, mod_prc: bool) -> bool {
    role == Role::Approver || mod_prc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_is_for_approvers_and_price_setters() {
        assert!(may_see_cost(Role::Approver, false));
        assert!(may_see_cost(Role::Sales, true));
        for role in [Role::Business, Role::Sales, Role::Service] {
            assert!(!may_see_cost(role, false), "{role:?}");
        }
    }
}
