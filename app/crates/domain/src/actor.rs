//! Who acts: the one description of a signed-in staff member that every rule and use case
//! takes (sheets, customers, reference data, settings, imports).

use crate::enums::{DrafterType, Role};

/// A staff member acting in one company, with the role and flags of that membership.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub org_id: i64,
    pub user_id: i64,
    /// The name the history and audit rows show.
    pub name: String,
    pub role: Role,
    /// The accountant permit (isAcct).
    pub is_acct: bool,
    /// May create customers (crtCSR).
    pub crt_csr: bool,
}

impl Actor {
    /// The drafter type of the sheets this staff member raises: Staff Business for business
    /// staff (role 1), Staff Service for every other role.
    pub const fn drafter_type(&self) -> DrafterType {
        match self.role {
            Role::Business => DrafterType::StaffBusiness,
            _ => DrafterType::StaffService,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actor(role: Role) -> Actor {
        Actor { org_id: 4, user_id: 1, name: "Sam".into(), role, is_acct: false, crt_csr: false }
    }

    #[test]
    fn business_staff_draft_as_staff_business_and_everyone_else_as_staff_service() {
        assert_eq!(actor(Role::Business).drafter_type(), DrafterType::StaffBusiness);
        for role in Role::ALL.iter().copied().filter(|r| *r != Role::Business) {
            assert_eq!(actor(role).drafter_type(), DrafterType::StaffService, "{role:?}");
        }
    }
}
