//! A staff member's role and what it lets them do.

code_enum! {
    /// A staff member's role in one company.
    Role {
        Business = 1, "Business staff";
        Sales = 2, "Sales staff";
        Service = 3, "Service staff";
        Approver = 4, "Approver";
        Warehouse = 5, "Warehouse staff";
        Driver = 6, "Driver";
    }
}

/// The refusal shown to warehouse staff (roles 5 and 6) at sign-in and on every page.
pub const WAREHOUSE_STAFF_REFUSAL: &str = "No access permission for warehouse staff.";

impl Role {
    /// Warehouse staff (roles 5 and 6).
    pub const fn is_warehouse_staff(self) -> bool {
        matches!(self, Self::Warehouse | Self::Driver)
    }

    /// Whether a membership with this role opens the app.
    pub const fn may_use_app(self) -> bool {
        !self.is_warehouse_staff()
    }

    /// Listed in the service/sales staff pickers (role above 1 and below 5).
    pub const fn is_staff_picker(self) -> bool {
        matches!(self, Self::Sales | Self::Service | Self::Approver)
    }

    /// Listed in the driver picker (role 6 only).
    pub const fn is_driver(self) -> bool {
        matches!(self, Self::Driver)
    }

    /// The approver, who confirms approval warnings and alone edits credit limit and attention.
    pub const fn is_approver(self) -> bool {
        matches!(self, Self::Approver)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_permissions() {
        // (role, warehouse staff, may use app, staff picker, driver, approver)
        let table = [
            (Role::Business, false, true, false, false, false),
            (Role::Sales, false, true, true, false, false),
            (Role::Service, false, true, true, false, false),
            (Role::Approver, false, true, true, false, true),
            (Role::Warehouse, true, false, false, false, false),
            (Role::Driver, true, false, false, true, false),
        ];
        assert_eq!(table.len(), Role::ALL.len());
        for (role, warehouse, app, picker, driver, approver) in table {
            assert_eq!(role.is_warehouse_staff(), warehouse, "{role:?}");
            assert_eq!(role.may_use_app(), app, "{role:?}");
            assert_eq!(role.is_staff_picker(), picker, "{role:?}");
            assert_eq!(
                role.is_staff_picker(),
                role.as_i32() > 1 && role.as_i32() < 5
            );
            assert_eq!(role.is_driver(), driver, "{role:?}");
            assert_eq!(role.is_approver(), approver, "{role:?}");
        }
        assert_eq!(
            WAREHOUSE_STAFF_REFUSAL,
            "No access permission for warehouse staff."
        );
    }
}
