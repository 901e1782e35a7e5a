-- TyreDesk core schema: every entity of spec §3 and DESIGN §4. Money is integer cents,
-- quantities are integers, dates are DATE, timestamps are naive UTC.

CREATE TABLE organisations (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    abn TEXT NOT NULL DEFAULT '',
    address_line1 TEXT NOT NULL DEFAULT '',
    address_line2 TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    bank_account_name TEXT NOT NULL DEFAULT '',
    bsb TEXT NOT NULL DEFAULT '',
    bank_account TEXT NOT NULL DEFAULT '',
    department_id INTEGER NOT NULL DEFAULT 0,
    logo TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    time_zone TEXT NOT NULL DEFAULT 'Australia/Sydney',
    tier_b_bp INTEGER NOT NULL DEFAULT 500,
    tier_c_bp INTEGER NOT NULL DEFAULT 1000,
    tier_d_bp INTEGER NOT NULL DEFAULT 1500,
    tier_e_bp INTEGER NOT NULL DEFAULT 2000,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    phone TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL,
    status INTEGER NOT NULL DEFAULT 1,
    able_login BOOLEAN NOT NULL DEFAULT TRUE,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE memberships (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    role INTEGER NOT NULL,
    mod_prc BOOLEAN NOT NULL DEFAULT FALSE,
    is_acct BOOLEAN NOT NULL DEFAULT FALSE,
    crt_csr BOOLEAN NOT NULL DEFAULT FALSE,
    last_used_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (user_id, org_id)
);
CREATE INDEX memberships_org ON memberships (org_id, role);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE api_clients (
    id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    client_id TEXT NOT NULL REFERENCES api_clients(id),
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    scope TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE warehouses (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    is_calc_for_csr_order BOOLEAN NOT NULL DEFAULT TRUE,
    is_branch BOOLEAN NOT NULL DEFAULT FALSE,
    is_third_party BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (org_id, code)
);

CREATE TABLE brands (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    name TEXT NOT NULL,
    presented_to_csr BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (org_id, name)
);

CREATE TABLE area_types (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    code INTEGER NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (org_id, code)
);

CREATE TABLE payment_types (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    code INTEGER NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (org_id, code)
);

CREATE TABLE suppliers (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    primary_person_first TEXT NOT NULL DEFAULT '',
    primary_person_last TEXT NOT NULL DEFAULT '',
    guid TEXT NOT NULL DEFAULT '',
    search_text TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (org_id, code)
);
CREATE INDEX suppliers_name ON suppliers (org_id, name);

CREATE TABLE customers (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    name TEXT NOT NULL,
    code TEXT NOT NULL DEFAULT '',
    login_shop BOOLEAN NOT NULL DEFAULT FALSE,
    email TEXT NOT NULL DEFAULT '',
    origin_code TEXT NOT NULL DEFAULT '',
    attention TEXT NOT NULL DEFAULT '',
    primary_person_first TEXT NOT NULL DEFAULT '',
    primary_person_last TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    mobile TEXT NOT NULL DEFAULT '',
    skype TEXT NOT NULL DEFAULT '',
    birthday DATE,
    note TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT '',
    postal TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT 'Australia',
    account TEXT NOT NULL DEFAULT '',
    credit_limit BIGINT NOT NULL DEFAULT 0,
    xero_balance BIGINT NOT NULL DEFAULT 0,
    is_supplier BOOLEAN NOT NULL DEFAULT FALSE,
    branch_flag BOOLEAN NOT NULL DEFAULT FALSE,
    price_strategy INTEGER NOT NULL DEFAULT 1,
    payment_type INTEGER NOT NULL DEFAULT 7,
    area_type INTEGER NOT NULL DEFAULT 1,
    csr_level INTEGER NOT NULL DEFAULT 0,
    business_type INTEGER NOT NULL DEFAULT 1,
    default_ship_type INTEGER NOT NULL DEFAULT 1,
    bd_id BIGINT REFERENCES users(id),
    cs_id BIGINT REFERENCES users(id),
    xero_sent INTEGER NOT NULL DEFAULT 0,
    xero_contact_id TEXT NOT NULL DEFAULT '',
    search_text TEXT NOT NULL DEFAULT '',
    version INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX customers_name ON customers (org_id, name);
CREATE INDEX customers_created ON customers (org_id, created_at);
CREATE INDEX customers_updated ON customers (org_id, updated_at);
CREATE INDEX customers_code ON customers (org_id, code);

CREATE TABLE products (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    code TEXT NOT NULL,
    origin_code TEXT NOT NULL DEFAULT '',
    helper_code TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL,
    unit TEXT NOT NULL DEFAULT 'EA',
    comments TEXT NOT NULL DEFAULT '',
    category INTEGER NOT NULL DEFAULT 1,
    brand_id BIGINT REFERENCES brands(id),
    manufacturer TEXT NOT NULL DEFAULT '',
    auto_parts_type INTEGER,
    tag1 TEXT NOT NULL DEFAULT '',
    tag2 TEXT NOT NULL DEFAULT '',
    tag3 TEXT NOT NULL DEFAULT '',
    tag4 TEXT NOT NULL DEFAULT '',
    show_for_shop BOOLEAN NOT NULL DEFAULT FALSE,
    material INTEGER NOT NULL DEFAULT 1,
    tyre_model TEXT NOT NULL DEFAULT '',
    specification TEXT NOT NULL DEFAULT '',
    diameter TEXT NOT NULL DEFAULT '',
    patterns TEXT NOT NULL DEFAULT '',
    width TEXT NOT NULL DEFAULT '',
    load_rate TEXT NOT NULL DEFAULT '',
    speed_rate TEXT NOT NULL DEFAULT '',
    suggested TEXT NOT NULL DEFAULT '',
    rim_diameter TEXT NOT NULL DEFAULT '',
    rim_width TEXT NOT NULL DEFAULT '',
    wheel_offset TEXT NOT NULL DEFAULT '',
    center_bore TEXT NOT NULL DEFAULT '',
    bolt_pattern TEXT NOT NULL DEFAULT '',
    cost_price BIGINT NOT NULL DEFAULT 0,
    standard_price BIGINT NOT NULL DEFAULT 0,
    special_price BIGINT NOT NULL DEFAULT 0,
    class_a_price BIGINT NOT NULL DEFAULT 0,
    class_b_price BIGINT,
    class_c_price BIGINT,
    class_d_price BIGINT,
    class_e_price BIGINT,
    ref_pur BIGINT NOT NULL DEFAULT 0,
    is_special BOOLEAN NOT NULL DEFAULT FALSE,
    is_clearance BOOLEAN NOT NULL DEFAULT FALSE,
    is_customer_show BOOLEAN NOT NULL DEFAULT TRUE,
    stock_3rd_party BIGINT NOT NULL DEFAULT 0,
    size_key TEXT NOT NULL DEFAULT '',
    search_text TEXT NOT NULL DEFAULT '',
    xero_sent INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (org_id, code)
);
CREATE INDEX products_helper ON products (org_id, helper_code);
CREATE INDEX products_size ON products (org_id, size_key);
CREATE INDEX products_brand ON products (org_id, brand_id);
CREATE INDEX products_tag1 ON products (org_id, tag1);
CREATE INDEX products_created ON products (org_id, created_at);
CREATE INDEX products_updated ON products (org_id, updated_at);

CREATE TABLE price_changes (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    user_id BIGINT REFERENCES users(id),
    standard_price BIGINT NOT NULL,
    special_price BIGINT NOT NULL,
    class_a_price BIGINT NOT NULL,
    class_b_price BIGINT,
    class_c_price BIGINT,
    class_d_price BIGINT,
    class_e_price BIGINT,
    ref_pur BIGINT NOT NULL,
    is_special BOOLEAN NOT NULL,
    is_clearance BOOLEAN NOT NULL,
    is_customer_show BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX price_changes_product ON price_changes (product_id, created_at);

CREATE TABLE stocks (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    warehouse_id BIGINT NOT NULL REFERENCES warehouses(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    on_hand BIGINT NOT NULL DEFAULT 0,
    in_transit BIGINT NOT NULL DEFAULT 0,
    eta DATE,
    avg_cost BIGINT NOT NULL DEFAULT 0,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (warehouse_id, product_id)
);
CREATE INDEX stocks_product ON stocks (org_id, product_id);

CREATE TABLE orders (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    no TEXT NOT NULL,
    order_type INTEGER NOT NULL,
    uuid TEXT NOT NULL,
    tag_id INTEGER NOT NULL DEFAULT 1,
    customer_id BIGINT REFERENCES customers(id),
    supplier_id BIGINT REFERENCES suppliers(id),
    order_date DATE NOT NULL,
    due_date DATE,
    delivery_date DATE,
    address TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    csr_service_id BIGINT REFERENCES users(id),
    csr_bd_id BIGINT REFERENCES users(id),
    driver_id BIGINT REFERENCES users(id),
    delivery_status INTEGER NOT NULL DEFAULT 0,
    actual_pay_type INTEGER NOT NULL DEFAULT 0,
    delivery_comment TEXT NOT NULL DEFAULT '',
    csr_credit_limit BIGINT NOT NULL DEFAULT 0,
    csr_xero_balance BIGINT NOT NULL DEFAULT 0,
    csr_self_note TEXT NOT NULL DEFAULT '',
    reference TEXT NOT NULL DEFAULT '',
    comments TEXT NOT NULL DEFAULT '',
    warehouse_id BIGINT REFERENCES warehouses(id),
    in_warehouse_id BIGINT REFERENCES warehouses(id),
    related_order_id BIGINT REFERENCES orders(id),
    tax_type INTEGER NOT NULL DEFAULT 3,
    ship_type INTEGER NOT NULL DEFAULT 1,
    payment_type INTEGER,
    area_type INTEGER,
    price_type INTEGER,
    status INTEGER NOT NULL DEFAULT 1,
    closed BOOLEAN NOT NULL DEFAULT FALSE,
    xero_sent INTEGER NOT NULL DEFAULT 0,
    xero_error TEXT NOT NULL DEFAULT '',
    xero_id TEXT NOT NULL DEFAULT '',
    printed BOOLEAN NOT NULL DEFAULT FALSE,
    printed_at TIMESTAMP,
    drafter_type INTEGER NOT NULL DEFAULT 1,
    drafter_id BIGINT REFERENCES users(id),
    last_approver_id BIGINT REFERENCES users(id),
    last_approved_at TIMESTAMP,
    total_qty BIGINT NOT NULL DEFAULT 0,
    total_amount BIGINT NOT NULL DEFAULT 0,
    total_gst BIGINT NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (org_id, order_type, no)
);
CREATE INDEX orders_type_date ON orders (org_id, order_type, order_date, id);
CREATE INDEX orders_type_due ON orders (org_id, order_type, due_date);
CREATE INDEX orders_type_status ON orders (org_id, order_type, status);
CREATE INDEX orders_customer ON orders (org_id, customer_id, order_date);
CREATE INDEX orders_supplier ON orders (org_id, supplier_id, order_date);
CREATE INDEX orders_drafter ON orders (org_id, drafter_type, status);
CREATE INDEX orders_no ON orders (org_id, no);
CREATE INDEX orders_related ON orders (related_order_id);

CREATE TABLE order_lines (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    order_id BIGINT NOT NULL REFERENCES orders(id),
    seq INTEGER NOT NULL,
    product_id BIGINT REFERENCES products(id),
    description TEXT NOT NULL DEFAULT '',
    unit TEXT NOT NULL DEFAULT '',
    quantity BIGINT NOT NULL DEFAULT 0,
    in_warehouse_qty BIGINT NOT NULL DEFAULT 0,
    in_system_qty BIGINT NOT NULL DEFAULT 0,
    price BIGINT NOT NULL DEFAULT 0,
    amount BIGINT NOT NULL DEFAULT 0,
    tax_type INTEGER NOT NULL DEFAULT 3,
    cost_price BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX order_lines_order ON order_lines (order_id, seq);
CREATE INDEX order_lines_product ON order_lines (org_id, product_id, order_id);

CREATE TABLE order_sequences (
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    order_type INTEGER NOT NULL,
    next_value BIGINT NOT NULL,
    PRIMARY KEY (org_id, order_type)
);

CREATE TABLE order_events (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    order_id BIGINT NOT NULL REFERENCES orders(id),
    user_id BIGINT REFERENCES users(id),
    operator TEXT NOT NULL,
    action TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX order_events_order ON order_events (order_id, created_at);

CREATE TABLE stock_moves (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    warehouse_id BIGINT NOT NULL REFERENCES warehouses(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    order_id BIGINT REFERENCES orders(id),
    qty_delta BIGINT NOT NULL DEFAULT 0,
    in_transit_delta BIGINT NOT NULL DEFAULT 0,
    unit_cost BIGINT NOT NULL DEFAULT 0,
    reason TEXT NOT NULL,
    user_id BIGINT REFERENCES users(id),
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX stock_moves_product ON stock_moves (org_id, product_id, created_at);
CREATE INDEX stock_moves_order ON stock_moves (order_id);

CREATE TABLE ocop_prices (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    customer_id BIGINT NOT NULL REFERENCES customers(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    price BIGINT NOT NULL,
    updated_by BIGINT REFERENCES users(id),
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (customer_id, product_id)
);
CREATE INDEX ocop_prices_product ON ocop_prices (org_id, product_id);

CREATE TABLE report_jobs (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    date_range TEXT NOT NULL DEFAULT '',
    state INTEGER NOT NULL DEFAULT 0,
    progress INTEGER NOT NULL DEFAULT 0,
    file_name TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    locked_by TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP
);
CREATE INDEX report_jobs_state ON report_jobs (state, created_at);
CREATE INDEX report_jobs_org ON report_jobs (org_id, created_at);

CREATE TABLE accounting_outbox (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    order_id BIGINT REFERENCES orders(id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '',
    state INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    idempotency_key TEXT NOT NULL,
    next_attempt_at TIMESTAMP NOT NULL,
    last_error TEXT NOT NULL DEFAULT '',
    locked_by TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX accounting_outbox_state ON accounting_outbox (state, next_attempt_at);

CREATE TABLE imports (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    file_name TEXT NOT NULL,
    state INTEGER NOT NULL DEFAULT 0,
    row_count INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);
