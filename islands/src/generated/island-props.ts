// Generated from the Rust structs of the island props (app/crates/web/src/pages/island.rs,
// `island_prop_types`). Do not edit: after changing one of those structs run
//   TYREDESK_WRITE_TYPES=1 cargo test --lib prop_types

export type ChangePasswordProps = { userName: string, };
export type EditorProps = { kind: string, orderType: number, taxType: number, customerId: number | null, warehouseId: number | null, editable: boolean, 
/**
 * Whether the viewer sees cost: without it an adjustment has no cost and amount columns.
 */
seesCost: boolean, fieldName: string, lines: Array<IslandLine>, errors: { [key in string]?: string }, };
export type IslandLine = { key: string, productId: number | null, code: string, name: string, unit: string, stock: number | null, qty: string, price: string, description: string, taxType: number, inWarehouseQty: string, inSystemQty: string, classA: number | null, costPrice: number | null, 
/**
 * A tyre's DOT code as typed ('2325', issue 36); empty for none.
 */
dot: string, 
/**
 * The product is tracked by DOT: the line has a DOT cell (filled by the server).
 */
dotTracked: boolean, 
/**
 * The product's lots in the sheet's warehouse, oldest first (filled by the server).
 */
lots: Array<IslandLot>, };
export type IslandLot = { 
/**
 * 'WWYY', or 'unknown' for stock from before tracking.
 */
dot: string, 
/**
 * '3y 5m'; empty for an unknown code.
 */
age: string, qty: number, };
export type QuotingCartProps = { 
/**
 * The browser storage key of the cart (`carts`; the self-order cart is `carts_csr`).
 */
storageKey: string, 
/**
 * The new-invoice page check-out opens.
 */
checkoutPath: string, };
export type PriceDialogProps = { canModify: boolean, uplifts: TierUplifts, };
export type TierUplifts = { b: number, c: number, d: number, e: number, };
export type ReportFormProps = { tabs: Array<TabProps>, warehouses: Array<IdOption>, brands: Array<IdOption>, 
/**
 * Each category with its full path ("Wheels/Alloy"); a parent matches its children.
 */
categories: Array<CodeOption>, tags: Array<CodeOption>, areas: Array<CodeOption>, payments: Array<CodeOption>, 
/**
 * The company's today (in its zone), `yyyy-MM-dd`: the default range ends here.
 */
today: string, 
/**
 * Whether "Include Cost" is offered at all (`may_see_cost`).
 */
maySeeCost: boolean, };
export type TabProps = { type: string, title: string, 
/**
 * Only these kinds have cost columns (`Kind::can_show_cost`).
 */
canShowCost: boolean, };
export type IdOption = { id: number, name: string, };
export type CodeOption = { code: number, label: string, };
