//! Products: price rows, material, kind, the category tree, auto-part kinds and the stock filter.

code_enum! {
    /// The kinds of stored product price rows (spec §3); codes follow the listing order.
    ProductPriceType {
        Standard = 1, "Standard";
        Special = 2, "Special";
        ClassA = 3, "Class A";
        ClassB = 4, "Class B";
        Ocop = 5, "OCOP";
        CostPrice = 6, "Cost Price";
        CostUsd = 7, "Cost USD";
    }
}

code_enum! {
    /// The wheel material of a product.
    Material {
        NotApplicable = 1, "N/A";
        Alloy = 2, "Alloy";
        Steel = 3, "Steel";
    }
}

code_enum! {
    /// Whether a product is stocked goods or a service line (the product's `category` field).
    ProductKind {
        Physical = 1, "Physical";
        Virtual = 4, "Virtual";
    }
}

impl Default for ProductKind {
    /// New products default to physical (spec §5).
    fn default() -> Self {
        Self::Physical
    }
}

code_enum! {
    /// The product category tree; a child's code is its parent's code × 10 + its position.
    ProductCategory {
        Batteries = 1, "Batteries";
        BatteriesAgm = 11, "AGM";
        BatteriesSmf = 12, "SMF";
        Autoparts = 2, "Autoparts";
        PcrTyres = 3, "PCR tyres";
        TbrTyres = 4, "TBR tyres";
        Wheels = 5, "Wheels";
        WheelsAlloy = 51, "Alloy";
        WheelsSteel = 52, "Steel";
        TrailerTyresAndWheel = 6, "Trailer tyres & Wheel";
    }
}

impl ProductCategory {
    /// The category one level up, `None` at the top.
    pub const fn parent(self) -> Option<Self> {
        match self {
            Self::BatteriesAgm | Self::BatteriesSmf => Some(Self::Batteries),
            Self::WheelsAlloy | Self::WheelsSteel => Some(Self::Wheels),
            _ => None,
        }
    }

    /// The direct children, in list order.
    pub fn children(self) -> Vec<Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(|c| c.parent() == Some(self))
            .collect()
    }

    /// The top-level categories, in list order.
    pub fn roots() -> Vec<Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(|c| c.parent().is_none())
            .collect()
    }

    /// The full path stored in a product's tag1, e.g. "Wheels/Alloy".
    pub fn path(self) -> String {
        match self.parent() {
            Some(parent) => format!("{}/{}", parent.label(), self.label()),
            None => self.label().to_owned(),
        }
    }

    /// The category whose path is `path`, ignoring case and spaces around the '/'.
    pub fn from_path(path: &str) -> Option<Self> {
        let wanted: Vec<String> = path
            .split('/')
            .map(|part| part.trim().to_lowercase())
            .collect();
        Self::ALL.iter().copied().find(|c| {
            let own: Vec<String> = c.path().split('/').map(str::to_lowercase).collect();
            own == wanted
        })
    }

    /// Whether products here are tyres, where tyre-size search applies.
    pub const fn is_tyre(self) -> bool {
        matches!(
            self,
            Self::PcrTyres | Self::TbrTyres | Self::TrailerTyresAndWheel
        )
    }
}

code_enum! {
    /// The kind of an auto part; listed in the original's display order.
    AutoPartsType {
        Wheel = 1, "Wheel";
        Filter = 2, "Filter";
        Oil = 3, "Oil";
        Battery = 6, "Battery";
        Bumper = 4, "Bumper";
        Suspension = 5, "Suspension";
    }
}

code_enum! {
    /// The quoting list's stock filter; codes 3–8 are the "No More Than" thresholds in ascending order.
    StockAvailability {
        InStockOnly = 1, "In Stock Only";
        OutOfStock = 2, "Out of Stock";
        AtMost5 = 3, "No More Than 5";
        AtMost8 = 4, "No More Than 8";
        AtMost10 = 5, "No More Than 10";
        AtMost15 = 6, "No More Than 15";
        AtMost20 = 7, "No More Than 20";
        AtMost25 = 8, "No More Than 25";
    }
}

impl StockAvailability {
    /// Inclusive (min, max) stock bounds for the query; "No More Than N" includes out-of-stock items.
    pub const fn bounds(self) -> (Option<i64>, Option<i64>) {
        match self {
            Self::InStockOnly => (Some(1), None),
            Self::OutOfStock => (None, Some(0)),
            Self::AtMost5 => (None, Some(5)),
            Self::AtMost8 => (None, Some(8)),
            Self::AtMost10 => (None, Some(10)),
            Self::AtMost15 => (None, Some(15)),
            Self::AtMost20 => (None, Some(20)),
            Self::AtMost25 => (None, Some(25)),
        }
    }

    /// Whether a product with `stock` units passes the filter.
    pub const fn matches(self, stock: i64) -> bool {
        let (min, max) = self.bounds();
        let above_min = match min {
            Some(min) => stock >= min,
            None => true,
        };
        let below_max = match max {
            Some(max) => stock <= max,
            None => true,
        };
        above_min && below_max
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::tests::check_table;

    #[test]
    fn product_category_codes_and_paths() {
        check_table::<ProductCategory>(&[
            (1, "Batteries"),
            (11, "AGM"),
            (12, "SMF"),
            (2, "Autoparts"),
            (3, "PCR tyres"),
            (4, "TBR tyres"),
            (5, "Wheels"),
            (51, "Alloy"),
            (52, "Steel"),
            (6, "Trailer tyres & Wheel"),
        ]);
        let expected = [
            (1, "Batteries"),
            (11, "Batteries/AGM"),
            (12, "Batteries/SMF"),
            (2, "Autoparts"),
            (3, "PCR tyres"),
            (4, "TBR tyres"),
            (5, "Wheels"),
            (51, "Wheels/Alloy"),
            (52, "Wheels/Steel"),
            (6, "Trailer tyres & Wheel"),
        ];
        let got: Vec<(i32, String)> = ProductCategory::ALL
            .iter()
            .map(|c| (c.as_i32(), c.path()))
            .collect();
        let want: Vec<(i32, String)> = expected
            .iter()
            .map(|(c, p)| (*c, (*p).to_owned()))
            .collect();
        assert_eq!(got, want);
        for category in ProductCategory::ALL {
            assert_eq!(
                ProductCategory::from_i32(category.as_i32()),
                Some(*category)
            );
            assert_eq!(
                ProductCategory::from_path(&category.path()),
                Some(*category)
            );
            assert_eq!(
                ProductCategory::from_path(&category.path().to_uppercase()),
                Some(*category)
            );
        }
        for code in [0, 7, 10, 13, 50, 53, 99] {
            assert_eq!(ProductCategory::from_i32(code), None);
        }
        assert_eq!(
            ProductCategory::from_path("wheels / alloy"),
            Some(ProductCategory::WheelsAlloy)
        );
        assert_eq!(
            ProductCategory::from_path("Alloy"),
            None,
            "a child is found only by its full path"
        );
        assert_eq!(ProductCategory::from_path("Wheels/Chrome"), None);
        assert_eq!(ProductCategory::from_path(""), None);
        assert_eq!(
            ProductCategory::roots(),
            vec![
                ProductCategory::Batteries,
                ProductCategory::Autoparts,
                ProductCategory::PcrTyres,
                ProductCategory::TbrTyres,
                ProductCategory::Wheels,
                ProductCategory::TrailerTyresAndWheel
            ]
        );
        assert_eq!(
            ProductCategory::Batteries.children(),
            vec![ProductCategory::BatteriesAgm, ProductCategory::BatteriesSmf]
        );
        assert_eq!(
            ProductCategory::Wheels.children(),
            vec![ProductCategory::WheelsAlloy, ProductCategory::WheelsSteel]
        );
        assert!(ProductCategory::PcrTyres.children().is_empty());
        for category in ProductCategory::ALL {
            if let Some(parent) = category.parent() {
                assert_eq!(
                    category.as_i32() / 10,
                    parent.as_i32(),
                    "child code encodes its parent"
                );
                assert!(parent.parent().is_none(), "the tree is two levels deep");
            }
        }
        let tyres: Vec<_> = ProductCategory::ALL
            .iter()
            .copied()
            .filter(|c| c.is_tyre())
            .collect();
        assert_eq!(
            tyres,
            vec![
                ProductCategory::PcrTyres,
                ProductCategory::TbrTyres,
                ProductCategory::TrailerTyresAndWheel
            ]
        );
    }

    #[test]
    fn stock_availability_filters_stock_levels() {
        // stock levels probed: -2, 0, 1, 5, 6, 8, 9, 10, 11, 15, 16, 20, 21, 25, 26, 1000
        let stocks = [-2, 0, 1, 5, 6, 8, 9, 10, 11, 15, 16, 20, 21, 25, 26, 1000];
        type Passes = fn(i64) -> bool;
        let table: [(StockAvailability, Passes); 8] = [
            (StockAvailability::InStockOnly, |s| s > 0),
            (StockAvailability::OutOfStock, |s| s <= 0),
            (StockAvailability::AtMost5, |s| s <= 5),
            (StockAvailability::AtMost8, |s| s <= 8),
            (StockAvailability::AtMost10, |s| s <= 10),
            (StockAvailability::AtMost15, |s| s <= 15),
            (StockAvailability::AtMost20, |s| s <= 20),
            (StockAvailability::AtMost25, |s| s <= 25),
        ];
        assert_eq!(table.len(), StockAvailability::ALL.len());
        for (filter, expected) in table {
            for stock in stocks {
                assert_eq!(
                    filter.matches(stock),
                    expected(stock),
                    "{filter:?} at {stock}"
                );
            }
        }
        assert_eq!(StockAvailability::InStockOnly.bounds(), (Some(1), None));
        assert_eq!(StockAvailability::OutOfStock.bounds(), (None, Some(0)));
        assert_eq!(StockAvailability::AtMost25.bounds(), (None, Some(25)));
    }
}
