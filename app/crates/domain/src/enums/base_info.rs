//! The master-data screens.

code_enum! {
    /// The master-data screens, numbered after the order types as in the original route mapping.
    BaseInfo {
        Product = 8, "Product";
        Customer = 9, "Customer";
        Supplier = 10, "Supplier";
        Warehouse = 11, "Warehouse";
        Brand = 12, "Brand";
        Employee = 13, "Employee";
    }
}

impl BaseInfo {
    /// The `{routeName}` of `/baseinfo/{routeName}` and of the list path.
    pub const fn route_name(self) -> &'static str {
        match self {
            Self::Product => "products",
            Self::Customer => "customers",
            Self::Supplier => "suppliers",
            Self::Warehouse => "warehouses",
            Self::Brand => "brands",
            Self::Employee => "employees",
        }
    }

    /// The screen named by a route segment; exact, lower-case match only.
    pub fn from_route_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.route_name() == name)
    }

    /// Whether the list offers '+ New' and a filter card (only products and customers do).
    pub const fn can_add(self) -> bool {
        matches!(self, Self::Product | Self::Customer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::OrderType;

    #[test]
    fn base_info_routes() {
        let table = [
            (BaseInfo::Product, "products", true),
            (BaseInfo::Customer, "customers", true),
            (BaseInfo::Supplier, "suppliers", false),
            (BaseInfo::Warehouse, "warehouses", false),
            (BaseInfo::Brand, "brands", false),
            (BaseInfo::Employee, "employees", false),
        ];
        assert_eq!(table.len(), BaseInfo::ALL.len());
        for (b, route, can_add) in table {
            assert_eq!(b.route_name(), route);
            assert_eq!(BaseInfo::from_route_name(route), Some(b));
            assert_eq!(b.can_add(), can_add);
            assert_eq!(OrderType::from_route_name(route), None);
        }
        assert_eq!(BaseInfo::from_route_name("invoices"), None);
    }
}
