// @generated from migrations/postgres by hand-run script; keep in step with both migration folders.

diesel::table! {
    jobs (id) {
        id -> BigInt,
        org_id -> BigInt,
        queue -> Text,
        kind -> Text,
        state -> Integer,
        attempts -> Integer,
        not_before -> Timestamp,
        locked_by -> Text,
        heartbeat_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        started_at -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
        error -> Text,
        requested_by -> Nullable<BigInt>,
        dedupe_key -> Text,
        params -> Text,
        progress -> Integer,
        summary -> Text,
        file_name -> Text,
        order_id -> Nullable<BigInt>,
        idempotency_key -> Text,
        outcome_unknown -> Bool,
    }
}

diesel::table! {
    organisations (id) {
        id -> BigInt,
        name -> Text,
        abn -> Text,
        address_line1 -> Text,
        address_line2 -> Text,
        phone -> Text,
        email -> Text,
        bank_account_name -> Text,
        bsb -> Text,
        bank_account -> Text,
        department_id -> Integer,
        logo -> Text,
        website -> Text,
        time_zone -> Text,
        tier_b_bp -> Integer,
        tier_c_bp -> Integer,
        tier_d_bp -> Integer,
        tier_e_bp -> Integer,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        version -> Integer,
        overdue_guard_days -> Nullable<Integer>,
        default_warehouse_id -> Nullable<BigInt>,
        quotation_valid_days -> Integer,
        dot_on_documents -> Bool,
        shop_shows_dot -> Bool,
        old_tyre_years -> Nullable<Integer>,
    }
}

diesel::table! {
    users (id) {
        id -> BigInt,
        email -> Text,
        name -> Text,
        phone -> Text,
        password_hash -> Text,
        status -> Integer,
        able_login -> Bool,
        is_active -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        must_change_password -> Bool,
    }
}

diesel::table! {
    memberships (id) {
        id -> BigInt,
        user_id -> BigInt,
        org_id -> BigInt,
        role -> Integer,
        mod_prc -> Bool,
        is_acct -> Bool,
        crt_csr -> Bool,
        last_used_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        active -> Bool,
        is_buyer -> Bool,
    }
}

diesel::table! {
    sessions (id) {
        id -> Text,
        user_id -> BigInt,
        org_id -> BigInt,
        csrf_token -> Text,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    api_clients (id) {
        id -> Text,
        secret_hash -> Text,
        name -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> Text,
        user_id -> BigInt,
        client_id -> Text,
        org_id -> BigInt,
        scope -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    warehouses (id) {
        id -> BigInt,
        org_id -> BigInt,
        code -> Text,
        name -> Text,
        address -> Text,
        is_calc_for_csr_order -> Bool,
        is_branch -> Bool,
        is_third_party -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        version -> Integer,
    }
}

diesel::table! {
    brands (id) {
        id -> BigInt,
        org_id -> BigInt,
        name -> Text,
        presented_to_csr -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        version -> Integer,
    }
}

diesel::table! {
    area_types (id) {
        id -> BigInt,
        org_id -> BigInt,
        code -> Integer,
        name -> Text,
    }
}

diesel::table! {
    payment_types (id) {
        id -> BigInt,
        org_id -> BigInt,
        code -> Integer,
        name -> Text,
    }
}

diesel::table! {
    suppliers (id) {
        id -> BigInt,
        org_id -> BigInt,
        code -> Text,
        name -> Text,
        primary_person_first -> Text,
        primary_person_last -> Text,
        guid -> Text,
        search_text -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        xero_contact_id -> Text,
        xero_synced_at -> Nullable<Timestamp>,
        version -> Integer,
        email -> Text,
        currency -> Text,
        lead_time_days -> Nullable<Integer>,
    }
}

diesel::table! {
    customers (id) {
        id -> BigInt,
        org_id -> BigInt,
        name -> Text,
        code -> Text,
        login_shop -> Bool,
        email -> Text,
        origin_code -> Text,
        attention -> Text,
        primary_person_first -> Text,
        primary_person_last -> Text,
        phone -> Text,
        mobile -> Text,
        skype -> Text,
        birthday -> Nullable<Date>,
        note -> Text,
        website -> Text,
        address -> Text,
        city -> Text,
        state -> Text,
        postal -> Text,
        country -> Text,
        account -> Text,
        credit_limit -> BigInt,
        xero_balance -> BigInt,
        is_supplier -> Bool,
        branch_flag -> Bool,
        price_strategy -> Integer,
        payment_type -> Integer,
        area_type -> Integer,
        csr_level -> Integer,
        business_type -> Integer,
        default_ship_type -> Integer,
        bd_id -> Nullable<BigInt>,
        cs_id -> Nullable<BigInt>,
        xero_sent -> Integer,
        xero_contact_id -> Text,
        search_text -> Text,
        version -> Integer,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        xero_synced_version -> Integer,
        xero_balance_at -> Nullable<Timestamp>,
        shop_password_hash -> Text,
        shop_must_change -> Bool,
        accepts_old_tyres -> Bool,
    }
}

diesel::table! {
    products (id) {
        id -> BigInt,
        org_id -> BigInt,
        code -> Text,
        origin_code -> Text,
        helper_code -> Text,
        name -> Text,
        unit -> Text,
        comments -> Text,
        category -> Integer,
        brand_id -> Nullable<BigInt>,
        manufacturer -> Text,
        auto_parts_type -> Nullable<Integer>,
        tag1 -> Text,
        tag2 -> Text,
        tag3 -> Text,
        tag4 -> Text,
        show_for_shop -> Bool,
        material -> Integer,
        tyre_model -> Text,
        specification -> Text,
        diameter -> Text,
        patterns -> Text,
        width -> Text,
        load_rate -> Text,
        speed_rate -> Text,
        suggested -> Text,
        rim_diameter -> Text,
        rim_width -> Text,
        wheel_offset -> Text,
        center_bore -> Text,
        bolt_pattern -> Text,
        cost_price -> BigInt,
        standard_price -> BigInt,
        special_price -> BigInt,
        class_a_price -> BigInt,
        class_b_price -> Nullable<BigInt>,
        class_c_price -> Nullable<BigInt>,
        class_d_price -> Nullable<BigInt>,
        class_e_price -> Nullable<BigInt>,
        ref_pur -> BigInt,
        is_special -> Bool,
        is_clearance -> Bool,
        stock_3rd_party -> BigInt,
        size_key -> Text,
        search_text -> Text,
        xero_sent -> Integer,
        version -> Integer,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        xero_synced_version -> Integer,
        preferred_supplier_id -> Nullable<BigInt>,
        supplier_code -> Text,
        dot_tracked -> Bool,
    }
}

diesel::table! {
    price_changes (id) {
        id -> BigInt,
        org_id -> BigInt,
        product_id -> BigInt,
        user_id -> Nullable<BigInt>,
        standard_price -> BigInt,
        special_price -> BigInt,
        class_a_price -> BigInt,
        class_b_price -> Nullable<BigInt>,
        class_c_price -> Nullable<BigInt>,
        class_d_price -> Nullable<BigInt>,
        class_e_price -> Nullable<BigInt>,
        ref_pur -> BigInt,
        is_special -> Bool,
        is_clearance -> Bool,
        is_customer_show -> Bool,
        created_at -> Timestamp,
    }
}

diesel::table! {
    stocks (id) {
        id -> BigInt,
        org_id -> BigInt,
        warehouse_id -> BigInt,
        product_id -> BigInt,
        on_hand -> BigInt,
        in_transit -> BigInt,
        eta -> Nullable<Date>,
        avg_cost -> BigInt,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    orders (id) {
        id -> BigInt,
        org_id -> BigInt,
        no -> Text,
        order_type -> Integer,
        uuid -> Text,
        tag_id -> Integer,
        customer_id -> Nullable<BigInt>,
        supplier_id -> Nullable<BigInt>,
        order_date -> Date,
        due_date -> Nullable<Date>,
        delivery_date -> Nullable<Date>,
        address -> Text,
        phone -> Text,
        csr_service_id -> Nullable<BigInt>,
        csr_bd_id -> Nullable<BigInt>,
        driver_id -> Nullable<BigInt>,
        delivery_status -> Integer,
        actual_pay_type -> Integer,
        delivery_comment -> Text,
        csr_credit_limit -> BigInt,
        csr_xero_balance -> BigInt,
        csr_self_note -> Text,
        reference -> Text,
        comments -> Text,
        warehouse_id -> Nullable<BigInt>,
        in_warehouse_id -> Nullable<BigInt>,
        related_order_id -> Nullable<BigInt>,
        tax_type -> Integer,
        ship_type -> Integer,
        payment_type -> Nullable<Integer>,
        area_type -> Nullable<Integer>,
        price_type -> Nullable<Integer>,
        status -> Integer,
        closed -> Bool,
        xero_sent -> Integer,
        xero_error -> Text,
        xero_id -> Text,
        printed -> Bool,
        printed_at -> Nullable<Timestamp>,
        drafter_type -> Integer,
        drafter_id -> Nullable<BigInt>,
        last_approver_id -> Nullable<BigInt>,
        last_approved_at -> Nullable<Timestamp>,
        total_qty -> BigInt,
        total_amount -> BigInt,
        total_gst -> BigInt,
        version -> Integer,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        xero_amount_due -> Nullable<BigInt>,
        xero_amount_paid -> Nullable<BigInt>,
        xero_paid_on -> Nullable<Date>,
        xero_payments_at -> Nullable<Timestamp>,
        currency -> Text,
        exchange_rate -> BigInt,
        fx_total_amount -> BigInt,
        fx_total_gst -> BigInt,
        shipment_ref -> Text,
    }
}

diesel::table! {
    order_lines (id) {
        id -> BigInt,
        org_id -> BigInt,
        order_id -> BigInt,
        seq -> Integer,
        product_id -> Nullable<BigInt>,
        description -> Text,
        unit -> Text,
        quantity -> BigInt,
        in_warehouse_qty -> BigInt,
        in_system_qty -> BigInt,
        price -> BigInt,
        amount -> BigInt,
        tax_type -> Integer,
        cost_price -> BigInt,
        fx_price -> BigInt,
        fx_amount -> BigInt,
        dot -> Nullable<Integer>,
    }
}

diesel::table! {
    order_sequences (org_id, order_type) {
        org_id -> BigInt,
        order_type -> Integer,
        next_value -> BigInt,
    }
}

diesel::table! {
    order_events (id) {
        id -> BigInt,
        org_id -> BigInt,
        order_id -> BigInt,
        user_id -> Nullable<BigInt>,
        operator -> Text,
        action -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    stock_moves (id) {
        id -> BigInt,
        org_id -> BigInt,
        warehouse_id -> BigInt,
        product_id -> BigInt,
        order_id -> Nullable<BigInt>,
        qty_delta -> BigInt,
        in_transit_delta -> BigInt,
        unit_cost -> BigInt,
        reason -> Text,
        user_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        dot -> Nullable<Integer>,
    }
}

diesel::table! {
    ocop_prices (id) {
        id -> BigInt,
        org_id -> BigInt,
        customer_id -> BigInt,
        product_id -> BigInt,
        price -> BigInt,
        updated_by -> Nullable<BigInt>,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    xero_connections (org_id) {
        org_id -> BigInt,
        client_id -> Text,
        secret_sealed -> Text,
        identity_url -> Text,
        api_url -> Text,
        xero_org_name -> Text,
        tax_types -> Text,
        tested_at -> Nullable<Timestamp>,
        rate_tat -> Nullable<Timestamp>,
        day_count -> Integer,
        day_of -> Text,
        blocked_until -> Nullable<Timestamp>,
        connected_by -> BigInt,
        connected_at -> Timestamp,
        updated_at -> Timestamp,
        tenant_id -> Text,
        chart -> Text,
        rates -> Text,
        mapping -> Text,
        grant_type -> Text,
        login_url -> Text,
        refresh_sealed -> Text,
        refresh_expires_at -> Nullable<Timestamp>,
        tenants -> Text,
        reconnect -> Text,
        payments_read_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    xero_sign_ins (state) {
        state -> Text,
        org_id -> BigInt,
        user_id -> BigInt,
        client_id -> Text,
        secret_sealed -> Text,
        verifier_sealed -> Text,
        login_url -> Text,
        identity_url -> Text,
        api_url -> Text,
        redirect_uri -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    imports (id) {
        id -> BigInt,
        org_id -> BigInt,
        user_id -> BigInt,
        kind -> Text,
        file_name -> Text,
        state -> Integer,
        row_count -> Integer,
        error -> Text,
        created_at -> Timestamp,
        digest -> Text,
        message -> Text,
    }
}

diesel::table! {
    session_notices (session_id) {
        session_id -> Text,
        level -> Text,
        text -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    quotations (id) {
        id -> BigInt,
        org_id -> BigInt,
        no -> Text,
        customer_id -> BigInt,
        quote_date -> Date,
        valid_until -> Date,
        total_qty -> BigInt,
        total_amount -> BigInt,
        total_gst -> BigInt,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    quotation_lines (id) {
        id -> BigInt,
        org_id -> BigInt,
        quotation_id -> BigInt,
        seq -> Integer,
        product_id -> Nullable<BigInt>,
        code -> Text,
        description -> Text,
        quantity -> BigInt,
        price -> BigInt,
        amount -> BigInt,
    }
}

diesel::table! {
    stock_lots (id) {
        id -> BigInt,
        org_id -> BigInt,
        warehouse_id -> BigInt,
        product_id -> BigInt,
        dot -> Integer,
        on_hand -> BigInt,
    }
}

diesel::table! {
    line_lots (id) {
        id -> BigInt,
        org_id -> BigInt,
        order_id -> BigInt,
        line_id -> BigInt,
        warehouse_id -> BigInt,
        product_id -> BigInt,
        dot -> Integer,
        qty -> BigInt,
    }
}

diesel::joinable!(memberships -> users (user_id));
diesel::joinable!(memberships -> organisations (org_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(sessions -> organisations (org_id));
diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(api_tokens -> api_clients (client_id));
diesel::joinable!(api_tokens -> organisations (org_id));
diesel::joinable!(warehouses -> organisations (org_id));
diesel::joinable!(brands -> organisations (org_id));
diesel::joinable!(area_types -> organisations (org_id));
diesel::joinable!(payment_types -> organisations (org_id));
diesel::joinable!(suppliers -> organisations (org_id));
diesel::joinable!(customers -> organisations (org_id));
diesel::joinable!(products -> organisations (org_id));
diesel::joinable!(products -> brands (brand_id));
diesel::joinable!(price_changes -> organisations (org_id));
diesel::joinable!(price_changes -> products (product_id));
diesel::joinable!(price_changes -> users (user_id));
diesel::joinable!(stocks -> organisations (org_id));
diesel::joinable!(stocks -> warehouses (warehouse_id));
diesel::joinable!(stocks -> products (product_id));
diesel::joinable!(orders -> organisations (org_id));
diesel::joinable!(orders -> customers (customer_id));
diesel::joinable!(orders -> suppliers (supplier_id));
diesel::joinable!(orders -> warehouses (warehouse_id));
diesel::joinable!(order_lines -> organisations (org_id));
diesel::joinable!(order_lines -> orders (order_id));
diesel::joinable!(order_lines -> products (product_id));
diesel::joinable!(order_sequences -> organisations (org_id));
diesel::joinable!(order_events -> organisations (org_id));
diesel::joinable!(order_events -> orders (order_id));
diesel::joinable!(order_events -> users (user_id));
diesel::joinable!(stock_moves -> organisations (org_id));
diesel::joinable!(stock_moves -> warehouses (warehouse_id));
diesel::joinable!(stock_moves -> products (product_id));
diesel::joinable!(stock_moves -> orders (order_id));
diesel::joinable!(stock_moves -> users (user_id));
diesel::joinable!(quotations -> customers (customer_id));
diesel::joinable!(quotation_lines -> quotations (quotation_id));
diesel::joinable!(ocop_prices -> organisations (org_id));
diesel::joinable!(ocop_prices -> customers (customer_id));
diesel::joinable!(ocop_prices -> products (product_id));
diesel::joinable!(xero_connections -> organisations (org_id));
diesel::joinable!(jobs -> organisations (org_id));
diesel::joinable!(jobs -> orders (order_id));
diesel::joinable!(imports -> organisations (org_id));
diesel::joinable!(audit_log -> organisations (org_id));
diesel::joinable!(audit_log -> users (user_id));
diesel::joinable!(imports -> users (user_id));

diesel::table! {
    audit_log (id) {
        id -> BigInt,
        org_id -> BigInt,
        user_id -> BigInt,
        at -> Timestamp,
        entity -> Text,
        entity_id -> Nullable<BigInt>,
        action -> Text,
        detail -> Text,
    }
}

diesel::table! {
    login_failures (meter_key) {
        meter_key -> Text,
        tat -> Timestamp,
    }
}

diesel::table! {
    shop_sessions (id) {
        id -> Text,
        org_id -> BigInt,
        customer_id -> BigInt,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    shop_tokens (id) {
        id -> Text,
        org_id -> BigInt,
        customer_id -> BigInt,
        created_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    shop_cart_lines (customer_id, product_id) {
        customer_id -> BigInt,
        product_id -> BigInt,
        org_id -> BigInt,
        qty -> BigInt,
        price_seen -> BigInt,
        added_at -> Timestamp,
    }
}

diesel::table! {
    shop_checkouts (org_id, customer_id, confirmed) {
        org_id -> BigInt,
        customer_id -> BigInt,
        confirmed -> Text,
        order_id -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    email_settings (org_id) {
        org_id -> BigInt,
        host -> Text,
        port -> Integer,
        security -> Text,
        username -> Text,
        password_sealed -> Text,
        from_address -> Text,
        reply_to -> Text,
        invoice_on_approval -> Bool,
        templates -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    emails (id) {
        id -> BigInt,
        org_id -> BigInt,
        job_id -> Nullable<BigInt>,
        kind -> Text,
        order_id -> Nullable<BigInt>,
        target_id -> Nullable<BigInt>,
        reference -> Text,
        recipients -> Text,
        subject -> Text,
        body -> Text,
        token -> Text,
        message_id -> Text,
        state -> Text,
        attempts -> Integer,
        last_error -> Text,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(shop_sessions -> customers (customer_id));
diesel::joinable!(shop_tokens -> customers (customer_id));
diesel::joinable!(shop_cart_lines -> products (product_id));

diesel::table! {
    printers (id) {
        id -> BigInt,
        org_id -> BigInt,
        name -> Text,
        url -> Text,
        warehouse_id -> Nullable<BigInt>,
        active -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    print_jobs (id) {
        id -> BigInt,
        org_id -> BigInt,
        job_id -> BigInt,
        printer_id -> BigInt,
        printer_name -> Text,
        order_ids -> Text,
        variant -> Text,
        state -> Text,
        printer_job_id -> Nullable<Integer>,
        attempts -> Integer,
        last_error -> Text,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
        done_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    dispatch_runs (id) {
        id -> BigInt,
        org_id -> BigInt,
        run_date -> Date,
        warehouse_id -> BigInt,
        driver_id -> BigInt,
        name -> Text,
        link_token -> Text,
        link_expires_at -> Nullable<Timestamp>,
        closed_at -> Nullable<Timestamp>,
        closed_by -> Nullable<BigInt>,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    run_stops (id) {
        id -> BigInt,
        org_id -> BigInt,
        run_id -> BigInt,
        order_id -> BigInt,
        position -> Integer,
        outcome -> Integer,
        reason -> Text,
        received_by -> Text,
        collected -> BigInt,
        collected_pay_type -> Integer,
        update_key -> Text,
        recorded_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    run_proofs (stop_id) {
        stop_id -> BigInt,
        org_id -> BigInt,
        kind -> Text,
        mime -> Text,
        bytes -> Binary,
        created_at -> Timestamp,
    }
}

diesel::joinable!(run_stops -> dispatch_runs (run_id));
diesel::joinable!(run_stops -> orders (order_id));

diesel::table! {
    exchange_rates (id) {
        id -> BigInt,
        org_id -> BigInt,
        currency -> Text,
        rate_date -> Date,
        rate -> BigInt,
        user_id -> Nullable<BigInt>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    landed_costs (id) {
        id -> BigInt,
        org_id -> BigInt,
        source_id -> BigInt,
        source_line_id -> Nullable<BigInt>,
        kind -> Integer,
        method -> Integer,
        amount -> BigInt,
        status -> Integer,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
        approved_by -> Nullable<BigInt>,
        approved_at -> Nullable<Timestamp>,
        version -> Integer,
    }
}

diesel::table! {
    landed_cost_targets (id) {
        id -> BigInt,
        landed_cost_id -> BigInt,
        order_id -> BigInt,
    }
}

diesel::table! {
    landed_cost_lines (id) {
        id -> BigInt,
        landed_cost_id -> BigInt,
        order_id -> BigInt,
        order_line_id -> BigInt,
        product_id -> BigInt,
        qty_received -> BigInt,
        qty_in_stock -> BigInt,
        share -> BigInt,
        to_stock -> BigInt,
        to_cogs -> BigInt,
        old_cost -> BigInt,
        new_cost -> BigInt,
    }
}

diesel::table! {
    cost_changes (id) {
        id -> BigInt,
        org_id -> BigInt,
        product_id -> BigInt,
        old_cost -> BigInt,
        new_cost -> BigInt,
        reason -> Text,
        order_id -> Nullable<BigInt>,
        landed_cost_id -> Nullable<BigInt>,
        user_id -> Nullable<BigInt>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    reorder_levels (id) {
        id -> BigInt,
        org_id -> BigInt,
        product_id -> BigInt,
        warehouse_id -> BigInt,
        reorder_point -> BigInt,
        order_up_to -> BigInt,
        updated_by -> Nullable<BigInt>,
        updated_at -> Timestamp,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    shop_sessions,
    shop_tokens,
    shop_cart_lines,
    shop_checkouts,
    session_notices,
    audit_log,
    organisations,
    users,
    memberships,
    sessions,
    api_clients,
    api_tokens,
    warehouses,
    brands,
    area_types,
    payment_types,
    suppliers,
    customers,
    products,
    price_changes,
    stocks,
    stock_lots,
    line_lots,
    orders,
    order_lines,
    order_sequences,
    order_events,
    stock_moves,
    ocop_prices,
    xero_connections,
    xero_sign_ins,
    imports,
    jobs,
    quotations,
    quotation_lines,
    email_settings,
    emails,
    printers,
    print_jobs,
    dispatch_runs,
    run_stops,
    run_proofs,
    exchange_rates,
    landed_costs,
    landed_cost_targets,
    landed_cost_lines,
    cost_changes,
    reorder_levels,
);
