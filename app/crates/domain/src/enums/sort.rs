//! The Sort Type codes of the product and sheet lists.

/// The direction of a list sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortDirection {
    /// Smallest, oldest or lowest first.
    Asc,
    /// Largest, newest or highest first.
    Desc,
}

/// The ordering a Sort Type code stands for. Both sort lists number them alike: 0 is the
/// list's own order, then each of `keys` in turn, descending (odd code) then ascending.
const fn sort_order<K: Copy>(code: i32, keys: &[K]) -> Option<(K, SortDirection)> {
    if code < 1 {
        return None;
    }
    let key = (code as usize - 1) / 2;
    if key >= keys.len() {
        return None;
    }
    Some((keys[key], if code % 2 == 1 { SortDirection::Desc } else { SortDirection::Asc }))
}

/// The column a product list is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProductSortKey {
    /// The item code.
    Code,
    /// The creation date.
    Created,
    /// The last modification date.
    Modified,
}

code_enum! {
    /// The product list's Sort Type; numbering inferred from the listing order (spec §3).
    ProductSort {
        All = 0, "All";
        CodeDesc = 1, "Code High to Low";
        CodeAsc = 2, "Code Low to High";
        CreatedDesc = 3, "Create Date New to Old";
        CreatedAsc = 4, "Create Date Old to New";
        ModifiedDesc = 5, "Modify Date New to Old";
        ModifiedAsc = 6, "Modify Date Old to New";
    }
}

impl ProductSort {
    /// The explicit ordering, or `None` for "All" (the list's natural order).
    pub const fn order(self) -> Option<(ProductSortKey, SortDirection)> {
        sort_order(self.as_i32(), &[ProductSortKey::Code, ProductSortKey::Created, ProductSortKey::Modified])
    }
}

/// The column a sheet list is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderSortKey {
    /// The sheet number.
    Number,
    /// The total amount.
    Amount,
    /// The due date.
    DueDate,
}

code_enum! {
    /// The sheet list's Sort Type: 0 the default (newest first), then number, amount, due date, each descending then ascending.
    OrderSort {
        Default = 0, "Default";
        NumberDesc = 1, "Number High to Low";
        NumberAsc = 2, "Number Low to High";
        AmountDesc = 3, "Amount High to Low";
        AmountAsc = 4, "Amount Low to High";
        DueDateDesc = 5, "Due Date Late to Early";
        DueDateAsc = 6, "Due Date Early to Late";
    }
}

impl OrderSort {
    /// The explicit ordering, or `None` for the default (date, then number, newest first).
    pub const fn order(self) -> Option<(OrderSortKey, SortDirection)> {
        sort_order(self.as_i32(), &[OrderSortKey::Number, OrderSortKey::Amount, OrderSortKey::DueDate])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_orders() {
        use SortDirection::*;
        let products = [
            (ProductSort::All, None),
            (ProductSort::CodeDesc, Some((ProductSortKey::Code, Desc))),
            (ProductSort::CodeAsc, Some((ProductSortKey::Code, Asc))),
            (
                ProductSort::CreatedDesc,
                Some((ProductSortKey::Created, Desc)),
            ),
            (
                ProductSort::CreatedAsc,
                Some((ProductSortKey::Created, Asc)),
            ),
            (
                ProductSort::ModifiedDesc,
                Some((ProductSortKey::Modified, Desc)),
            ),
            (
                ProductSort::ModifiedAsc,
                Some((ProductSortKey::Modified, Asc)),
            ),
        ];
        assert_eq!(products.len(), ProductSort::ALL.len());
        for (sort, order) in products {
            assert_eq!(sort.order(), order, "{sort:?}");
        }
        let orders = [
            (OrderSort::Default, None),
            (OrderSort::NumberDesc, Some((OrderSortKey::Number, Desc))),
            (OrderSort::NumberAsc, Some((OrderSortKey::Number, Asc))),
            (OrderSort::AmountDesc, Some((OrderSortKey::Amount, Desc))),
            (OrderSort::AmountAsc, Some((OrderSortKey::Amount, Asc))),
            (OrderSort::DueDateDesc, Some((OrderSortKey::DueDate, Desc))),
            (OrderSort::DueDateAsc, Some((OrderSortKey::DueDate, Asc))),
        ];
        assert_eq!(orders.len(), OrderSort::ALL.len());
        for (sort, order) in orders {
            assert_eq!(sort.order(), order, "{sort:?}");
        }
    }
}
