-- Buying imported stock (issue 35, docs/decisions/purchasing.md).
-- A supplier bills in its currency (ISO 4217, AUD unless set); how many days its goods take
-- to arrive once ordered (NULL: not known) feeds the purchase suggestions.
ALTER TABLE suppliers ADD COLUMN currency TEXT NOT NULL DEFAULT 'AUD';
ALTER TABLE suppliers ADD COLUMN lead_time_days INTEGER;
-- Who a product is bought from, and the supplier's own code for it.
ALTER TABLE products ADD COLUMN preferred_supplier_id BIGINT REFERENCES suppliers(id);
ALTER TABLE products ADD COLUMN supplier_code TEXT NOT NULL DEFAULT '';
-- A purchase sheet in a foreign currency: its currency, the rate it was converted at (units
-- of the currency per 1 AUD, as Xero's CurrencyRate, in millionths: 0.652 is 652000), and its
-- totals in that currency. price, amount and the totals stay in AUD, so stock cost, reports
-- and margins read them unchanged; fx_* hold what the supplier billed (0 on AUD sheets).
ALTER TABLE orders ADD COLUMN currency TEXT NOT NULL DEFAULT 'AUD';
ALTER TABLE orders ADD COLUMN exchange_rate BIGINT NOT NULL DEFAULT 1000000;
ALTER TABLE orders ADD COLUMN fx_total_amount BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN fx_total_gst BIGINT NOT NULL DEFAULT 0;
-- A purchase order's container or vessel.
ALTER TABLE orders ADD COLUMN shipment_ref TEXT NOT NULL DEFAULT '';
ALTER TABLE order_lines ADD COLUMN fx_price BIGINT NOT NULL DEFAULT 0;
ALTER TABLE order_lines ADD COLUMN fx_amount BIGINT NOT NULL DEFAULT 0;
-- The company's dated exchange rates (Settings › Exchange rates): a sheet takes the latest
-- rate on or before its date and may override it.
CREATE TABLE exchange_rates (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    currency TEXT NOT NULL,
    rate_date DATE NOT NULL,
    rate BIGINT NOT NULL,
    user_id BIGINT REFERENCES users(id),
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX exchange_rates_day ON exchange_rates (org_id, currency, rate_date);
